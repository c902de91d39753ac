import Foundation
import Revertible

/// The seed README's model: recursive nesting, an enum with associated values, a collection.
struct Activity: Identifiable, Versionable, Hashable, Codable {

    let id: UUID
    var title: String
    var priority: Priority
    var childActivities: [Activity]

    enum Priority: Hashable, Codable {
        case low
        case medium(dueDate: Date?)
        case high(dueDate: Date, reason: String)
    }

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.priority)
        reverter.appendReversion(at: \.childActivities)
    }
}

extension Activity {

    static func mock(title: String = "Title", children: [Activity] = []) -> Activity {
        Activity(id: UUID(), title: title, priority: .low, childActivities: children)
    }

    static func mock(count: Int) -> [Activity] {
        (0..<count).map { mock(title: "Child \($0)") }
    }
}

/// The seed's hand-written enum pattern, with one fix: an optional associated value's setter
/// writes `nil` back instead of ignoring it.
extension Activity.Priority: Versionable {

    func addReversions(into reverter: inout some Reverter<Self>) {
        guard reverter.hasChanged(at: \.caseName) == false else {
            reverter.appendOverwriteReversion(at: \.self)
            return
        }
        reverter.appendReversion(at: \.medium_dueDate)
        reverter.appendReversion(at: \.high_dueDate)
        reverter.appendReversion(at: \.high_reason)
    }

    private enum CaseName {
        case low
        case medium
        case high
    }

    private var caseName: CaseName {
        switch self {
        case .low: .low
        case .medium: .medium
        case .high: .high
        }
    }

    private var medium_dueDate: Date? {
        get {
            guard case let .medium(dueDate) = self else { return nil }
            return dueDate
        }
        set {
            guard case .medium = self else { return }
            self = .medium(dueDate: newValue)
        }
    }

    private var high_dueDate: Date? {
        get {
            guard case let .high(dueDate, _) = self else { return nil }
            return dueDate
        }
        set {
            guard case let .high(_, reason) = self, let newValue else { return }
            self = .high(dueDate: newValue, reason: reason)
        }
    }

    private var high_reason: String? {
        get {
            guard case let .high(_, reason) = self else { return nil }
            return reason
        }
        set {
            guard case let .high(dueDate, _) = self, let newValue else { return }
            self = .high(dueDate: dueDate, reason: newValue)
        }
    }
}
