import Foundation
import Testing
@testable import Revertible

/// A reversion reverts what still holds what it left, and reports the rest by policy.
@Suite("Selective reverting: conflicts with other writers")
struct SelectiveRevertTests {

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
