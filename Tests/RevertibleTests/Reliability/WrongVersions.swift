import Foundation
import Revertible

/// Versions of a board that differ from it at exactly one location a reversion writes, in a way
/// the wrong-version check promises to see: a leaf holds another value; a string or data holds
/// a different number of bytes; a collection a different number of elements or entries.
///
/// (Within a string, the check covers the replaced run and the length, not every byte: a
/// same-length change elsewhere in the string is, by design, not a wrong version.)
struct WrongVersions {
    /// Each wrong version, with where and how it differs.
    private(set) var versions: [(board: Board, change: String)] = []
    /// The written locations whose type this knows no mutation for.
    private(set) var unknownLocations: [String] = []

    init(of board: Board, at paths: [PartialKeyPath<Board>]) {
        for path in paths {
            guard let mutated = Self.mutations(of: board, at: path) else {
                unknownLocations.append("\(path) of type \(type(of: board[keyPath: path]))")
                continue
            }
            for (index, wrong) in mutated.enumerated() where Self.value(of: wrong, at: path) != Self.value(of: board, at: path) {
                versions.append((wrong, "\(path), mutation \(index)"))
            }
        }
    }

    private static func value(of board: Board, at path: PartialKeyPath<Board>) -> AnyHashable? {
        (board[keyPath: path] as? any Hashable).map { AnyHashable($0) }
    }

    private static func mutations(of board: Board, at path: PartialKeyPath<Board>) -> [Board]? {
        func changing<Value>(_ path: WritableKeyPath<Board, Value>, _ changes: [(inout Value) -> Void]) -> [Board] {
            changes.map { change in
                var wrong = board
                change(&wrong[keyPath: path])
                return wrong
            }
        }
        let stranger = Item(id: -1, title: "stranger", done: false, children: [], priority: nil)
        switch path {
        case let path as WritableKeyPath<Board, String>:
            return changing(path, [{ $0 += "†" }, { $0 = String($0.dropLast()) }])
        case let path as WritableKeyPath<Board, String?>:
            return changing(path, [{ $0 = ($0 ?? "") + "†" }, { $0 = $0 == nil ? "†" : nil }])
        case let path as WritableKeyPath<Board, Bool>:
            return changing(path, [{ $0.toggle() }])
        case let path as WritableKeyPath<Board, Int?>:
            return changing(path, [{ $0 = ($0 ?? 0) + 1 }, { $0 = $0 == nil ? 0 : nil }])
        case let path as WritableKeyPath<Board, Double?>:
            return changing(path, [{ $0 = ($0 ?? 0) + 0.5 }, { $0 = $0 == nil ? 0 : nil }])
        case let path as WritableKeyPath<Board, Date?>:
            return changing(path, [{ $0 = ($0 ?? .distantPast).addingTimeInterval(1) }, { $0 = $0 == nil ? .distantPast : nil }])
        case let path as WritableKeyPath<Board, Data>:
            return changing(path, [{ $0.append(0) }, { $0 = $0.dropLast() }])
        case let path as WritableKeyPath<Board, [Int]>:
            return changing(path, [{ $0.append(-1) }, { $0 = $0.dropLast() }])
        case let path as WritableKeyPath<Board, Set<String>>:
            return changing(path, [{ $0.insert("†") }, { $0 = Set($0.sorted().dropLast()) }])
        case let path as WritableKeyPath<Board, [Item]>:
            return changing(path, [{ $0.append(stranger) }, { $0 = $0.dropLast() }])
        case let path as WritableKeyPath<Board, TreeArray<Item>>:
            return changing(path, [{ $0.append(stranger) }, { $0 = TreeArray($0.dropLast()) }])
        case let path as WritableKeyPath<Board, [String: Item]>:
            return changing(path, [{ $0["†"] = stranger }, { if let key = $0.keys.sorted().first { $0[key] = nil } }])
        case let path as WritableKeyPath<Board, Item?>:
            return changing(path, [{ $0 = $0 == nil ? stranger : nil }, { $0?.done.toggle() }])
        case let path as WritableKeyPath<Board, Item>:
            return changing(path, [{ $0.done.toggle() }, { $0.title += "†" }])
        case let path as WritableKeyPath<Board, Mode>:
            return changing(path, [{ $0 = $0 == .idle ? .reviewing(since: nil) : .idle }])
        case let path as WritableKeyPath<Board, Activity.Priority?>:
            return changing(path, [{ $0 = $0 == nil ? .low : nil }, { $0 = $0 == .low ? .medium(dueDate: nil) : .low }])
        case let path as WritableKeyPath<Board, Activity.Priority>:
            return changing(path, [{ $0 = $0 == .low ? .medium(dueDate: nil) : .low }])
        case let path as WritableKeyPath<Board, Board>:
            return changing(path, [{ $0.name += "†" }])
        default:
            return nil
        }
    }
}
