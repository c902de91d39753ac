import Foundation
import Testing
@testable import Revertible

/// A reversion reverts what still holds what it left, and reports the rest by policy.
@Suite("Selective reverting: conflicts with other writers")
struct SelectiveRevertTests {

    @Test("Skipping leaves another writer's change and reverts the rest")
    func skipsConflict() throws {
        var user = User(name: "", imageData: Data())
        let original = user
        user.name = "Johnny"
        user.imageData = Data([1])
        let reversion = try #require(user.reversion(to: original))
        user.name = "Jo"

        let conflicts = reversion.revertSelectively(&user, onConflict: .skip)

        #expect(user.name == "Jo")
        #expect(user.imageData == Data())
        #expect(conflicts == [ReversionConflict(location: "\\User.name", expected: "Johnny", found: "Jo")])
    }

    @Test("Refusing changes nothing and lists the conflicts")
    func refusesConflict() throws {
        var user = User(name: "", imageData: Data())
        let original = user
        user.name = "Johnny"
        user.imageData = Data([1])
        let reversion = try #require(user.reversion(to: original))
        user.name = "Jo"
        let before = user

        let conflicts = reversion.revertSelectively(&user, onConflict: .refuse)

        #expect(user == before)
        #expect(conflicts.map(\.location) == ["\\User.name"])
    }

    @Test("Overwriting writes the step's value over another writer's")
    func overwritesConflict() throws {
        var user = User(name: "", imageData: Data())
        let original = user
        user.name = "Johnny"
        let reversion = try #require(user.reversion(to: original))
        user.name = "Jo"

        let conflicts = reversion.revertSelectively(&user, onConflict: .overwrite)

        #expect(user == original)
        #expect(conflicts.count == 1)
    }

    @Test("Without another writer, a selective revert is a revert")
    func noConflict() throws {
        var user = User(name: "", imageData: Data())
        let original = user
        user.name = "Johnny"
        let reversion = try #require(user.reversion(to: original))

        #expect(reversion.revertSelectively(&user, onConflict: .refuse).isEmpty)
        #expect(user == original)
    }
}
