import Foundation
import Testing
@testable import Revertible

/// The examples of seeds 000, 001 and 004 that need no macros, with their stated results.
@Suite("Reversions: reverting, refusing wrong versions, stacking, nested values and enums")
struct ReversionBasicsTests {

    @Test("A reversion reverts a changed name")
    func revertsName() throws {
        var user = User(name: "", imageData: .init())
        let original = user
        user.name = "Johnny"
        let reversion = try #require(user.reversion(to: original))

        #expect(user.name == "Johnny")
        try reversion.revert(&user)
        #expect(user.name == "")
        #expect(user == original)
    }

    @Test("No change gives no reversion")
    func noChangeGivesNil() {
        let user = User(name: "", imageData: .init())
        #expect(user.reversion(to: user) == nil)
    }

    @Test("Reverting a version the reversion was not made from throws and changes nothing")
    func wrongVersionThrows() throws {
        var user = User(name: "", imageData: .init())
        let original = user
        user.name = "Johnny"
        let reversion = try #require(user.reversion(to: original))
        user.name = "Johnny Appleseed"
        let before = user

        #expect(throws: ReversionError.attemptingToRevertWrongVersion) {
            try reversion.revert(&user)
        }
        #expect(user == before)
        #expect(Array(user.name.utf8) == Array(before.name.utf8))
    }

    @Test("A reversion from the latest version goes straight back to the original")
    func latestToOriginal() throws {
        var user = User(name: "", imageData: .init())
        let original = user
        user.name = "Johnny"
        user.name = "Johnny Appleseed"
        let reversion2 = try #require(user.reversion(to: original))

        #expect(user.name == "Johnny Appleseed")
        try reversion2.revert(&user)
        #expect(user.name == "")
    }

    /// Seeds 000/001 build `reversion2` to `original` but expect "Johnny": the intent is a
    /// reversion to the in-between version, which is what this test builds.
    @Test("Two stacked reversions apply newest first")
    func stackedReversions() throws {
        var user = User(name: "", imageData: .init())
        let original = user
        user.name = "Johnny"
        let reversion1 = try #require(user.reversion(to: original))
        let inBetween = user
        user.name = "Johnny Appleseed"
        let reversion2 = try #require(user.reversion(to: inBetween))

        #expect(user.name == "Johnny Appleseed")
        try reversion2.revert(&user)
        #expect(user.name == "Johnny")
        try reversion1.revert(&user)
        #expect(user.name == "")
        #expect(throws: ReversionError.self) { try reversion2.revert(&user) }
    }

    @Test("Image data is reverted along with the name in one reversion")
    func multipleProperties() throws {
        var user = User(name: "Ann", imageData: Data([1, 2, 3]))
        let original = user
        user.name = "Anna"
        user.imageData.append(4)
        let reversion = try #require(user.reversion(to: original))
        #expect(Set(reversion.changedKeyPaths) == [\User.name, \User.imageData])

        try reversion.revert(&user)
        #expect(user == original)
    }

    @Test("Seed 004: the Activity reversion throws on a newer title")
    func activityWrongVersion() throws {
        let original = Activity(id: .init(), title: "Title", priority: .low, childActivities: [])
        var mutable = original
        mutable.title = "New title"
        let reversion = mutable.reversion(to: original)
        mutable.title = "Newer title"

        #expect(throws: ReversionError.attemptingToRevertWrongVersion) {
            try reversion?.revert(&mutable)
        }
        #expect(mutable.title == "Newer title")
    }

    @Test("Seed 004: every change of the basic-usage example reverts in one reversion")
    func activityBasicUsage() throws {
        let original = Activity(id: .init(), title: "Title", priority: .low, childActivities: [])
        var activity = original
        activity.title = "New title"
        activity.priority = .high(dueDate: .now, reason: "Important reason")
        activity.childActivities.append(.mock())
        let reversion = try #require(activity.reversion(to: original))

        try reversion.revert(&activity)
        #expect(activity == original)
    }

    @Test("The enum pattern overwrites on a case change and edits associated values in place")
    func enumPattern() throws {
        let date = Date(timeIntervalSince1970: 1_000)
        var priority = Activity.Priority.high(dueDate: date, reason: "Reason")
        let original = priority
        priority = .high(dueDate: date, reason: "Reason - updated")
        let edit = try #require(priority.reversion(to: original))
        #expect(edit.changedKeyPaths.count == 1)
        #expect(edit.changedKeyPaths.first != \Activity.Priority.self)
        try edit.revert(&priority)
        #expect(priority == original)

        priority = .low
        let caseChange = try #require(priority.reversion(to: original))
        #expect(caseChange.changedKeyPaths == [\Activity.Priority.self])
        try caseChange.revert(&priority)
        #expect(priority == original)
    }

    @Test("An optional associated value reverts to nil")
    func enumOptionalAssociatedValueBackToNil() throws {
        let original = Activity.Priority.medium(dueDate: nil)
        var priority = Activity.Priority.medium(dueDate: Date(timeIntervalSince1970: 5))
        let reversion = try #require(priority.reversion(to: original))
        try reversion.revert(&priority)
        #expect(priority == original)
    }

    @Test("A change deep in the tree is stored at its own key path")
    func deepKeyPath() throws {
        var activity = Activity.mock(children: Activity.mock(count: 5))
        let original = activity
        activity.childActivities[3].priority = .medium(dueDate: nil)
        let reversion = try #require(activity.reversion(to: original))

        #expect(reversion.changedKeyPaths == [\Activity.childActivities[3].priority])
        try reversion.revert(&activity)
        #expect(activity == original)
    }
}
