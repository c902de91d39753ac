import Foundation
import Testing
import Revertible

/// Basic values are revertible on their own: one location each, stored whole.
@Suite("Basic values")
struct BasicValueTests {

    enum Tool: Revertible {
        case pen, eraser
    }

    /// `reversion(to:)` turns `new` back into `old`, is `nil` for equal values, and refuses a
    /// third value.
    func checkRoundTrip<Value: Revertible>(_ old: Value, _ new: Value, other: Value) throws {
        #expect(new.reversion(to: new) == nil)
        let reversion = try #require(new.reversion(to: old))
        var value = new
        try reversion.revert(&value)
        #expect(value == old)
        var third = other
        #expect(throws: ReversionError.attemptingToRevertWrongVersion) { try reversion.revert(&third) }
        #expect(third == other)
    }

    @Test("Every basic value reverts whole and refuses another version")
    func everyBasicValue() throws {
        try checkRoundTrip(false, true, other: false)
        try checkRoundTrip(1, 2, other: 3)
        try checkRoundTrip(Int8(1), Int8(-2), other: Int8(3))
        try checkRoundTrip(Int16(1), Int16(2), other: Int16(3))
        try checkRoundTrip(Int32(1), Int32(2), other: Int32(3))
        try checkRoundTrip(Int64(1), Int64(2), other: Int64(3))
        try checkRoundTrip(UInt(1), UInt(2), other: UInt(3))
        try checkRoundTrip(UInt8(1), UInt8(2), other: UInt8(3))
        try checkRoundTrip(UInt16(1), UInt16(2), other: UInt16(3))
        try checkRoundTrip(UInt32(1), UInt32(2), other: UInt32(3))
        try checkRoundTrip(UInt64(1), UInt64(2), other: UInt64(3))
        try checkRoundTrip(1.5, 2.5, other: 3.5)
        try checkRoundTrip(Float(1.5), Float(2.5), other: Float(3.5))
        try checkRoundTrip(Character("a"), Character("b"), other: Character("c"))
        try checkRoundTrip(Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 2), other: Date(timeIntervalSince1970: 3))
        try checkRoundTrip(UUID(), UUID(), other: UUID())
        try checkRoundTrip(Decimal(string: "1.10")!, Decimal(string: "2.20")!, other: Decimal(3))
        try checkRoundTrip(URL(string: "https://a.example")!, URL(string: "https://b.example")!, other: URL(string: "https://c.example")!)
        try checkRoundTrip("a", "b", other: "c")
        try checkRoundTrip(Data([1]), Data([2]), other: Data([3]))
        try checkRoundTrip(Tool.pen, Tool.eraser, other: Tool.pen)
    }

    @Test("Optionals of revertible values revert, to and from nil")
    func optionals() throws {
        try checkRoundTrip(Int?.none, 2, other: 3)
        try checkRoundTrip(Int?.some(1), nil, other: 3)
        try checkRoundTrip(Int?.some(1), 2, other: nil)
        try checkRoundTrip(String?.some("Hello"), "Hello, world", other: "Hi")
        try checkRoundTrip(Tool?.some(.pen), .eraser, other: nil)
    }

    @Test("A NaN is no change")
    func notANumber() {
        #expect(Double.nan.reversion(to: .nan) == nil)
    }

    @Test("@Versioned of a basic value records and undoes")
    func versionedBasicValues() {
        struct Mixer {
            @Versioned var volume = 0
            @Versioned var isMuted = false
            @Versioned var tool = Tool.pen
            @Versioned var balance: Double? = nil
        }
        let mixer = Mixer()
        mixer.volume = 5
        mixer.volume += 1
        mixer.isMuted = true
        mixer.tool = .eraser
        mixer.balance = 0.5
        #expect(mixer.$volume.undoCount == 2)
        mixer.$volume.undo()
        #expect(mixer.volume == 5)
        mixer.$isMuted.undo()
        #expect(mixer.isMuted == false)
        mixer.$tool.undo()
        #expect(mixer.tool == .pen)
        mixer.$balance.undo()
        #expect(mixer.balance == nil)
        mixer.$volume.redo()
        #expect(mixer.volume == 6)
    }

    @Test("A history of a basic value is saved and reloaded")
    func archiveOfBasicValue() throws {
        let controller = ValueVersioningController(1)
        controller.append(2)
        controller.append(3)
        let data = try JSONEncoder().encode(controller.archive)
        let reloaded = ValueVersioningController(3)
        try reloaded.restoreHistory(from: JSONDecoder().decode(HistoryArchive<Int>.self, from: data))
        #expect(try reloaded.undo() == 2)
        #expect(try reloaded.undo() == 1)
    }

    @Test("Memberwise initializers take the plain value of a @Versioned property")
    func memberwiseInitializer() throws {
        struct Model {
            @Versioned var activity: Activity
            @ThrowingVersioned var count: Int
        }
        let activity = Activity.mock()
        let model = Model(activity: activity, count: 1)
        #expect(model.activity == activity)
        model.activity.title = "New title"
        model.count = 2
        model.$activity.undo()
        #expect(model.activity == activity)
        try model.$count.undo()
        #expect(model.count == 1)
    }
}
