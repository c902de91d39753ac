import Foundation
import Revertible

/// A nested model exercising every kind of reversion at once.
struct Board: Versionable, Hashable, Sendable, Codable {
    var name: String
    var items: [Item]
    var labels: Set<String>
    var lookup: [String: Item]
    var mode: Mode
    var note: String?
    var rating: Double?
    var pinned: Item?
    var body: String
    var blob: Data
    var scores: [Int]
    /// The same items as `items` can hold, in a `TreeArray`: large enough at times to span
    /// several leaves, so every suite on boards also runs the tree's reversions.
    var rows: TreeArray<Item> = []
    /// Written only by untracked changes (`setWithoutTracking`) in the randomized tests.
    var cursor = 0
    /// Ignored: a change only here is no step, and undo never writes it.
    var hover = 0
    /// A nested value with an ignored field of its own, beside a versioned one.
    var view = BoardView()

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.name)
        reverter.appendReversion(at: \.items)
        reverter.appendReversion(at: \.labels)
        reverter.appendReversion(at: \.lookup)
        reverter.appendReversion(at: \.mode)
        reverter.appendReversion(at: \.note)
        reverter.appendReversion(at: \.rating)
        reverter.appendReversion(at: \.pinned)
        reverter.appendReversion(at: \.body)
        reverter.appendReversion(at: \.blob)
        reverter.appendReversion(at: \.scores)
        reverter.appendReversion(at: \.rows)
        reverter.appendReversion(at: \.cursor)
        reverter.ignore(\.hover)
        reverter.appendReversion(at: \.view)
    }

    /// Moves the pointer: the ignored `hover`, at the top and in `view`. With `zooming`, also
    /// a versioned change in `view`, beside its ignored field.
    mutating func hover(_ position: Int, zooming: Bool = false) {
        hover = position
        view.hover = position
        if zooming { view.zoom = position % 4 }
    }
}

/// How a board is shown: a versioned zoom and an ignored hover, nested in the board.
struct BoardView: Versionable, Hashable, Sendable, Codable {
    var zoom = 1
    var hover = 0

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.zoom)
        reverter.ignore(\.hover)
    }
}

struct Item: Identifiable, Versionable, Hashable, Sendable, Codable {
    let id: Int
    var title: String
    var done: Bool
    var children: [Item]
    var priority: Activity.Priority?

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.done)
        reverter.appendReversion(at: \.children)
        reverter.appendReversion(at: \.priority)
    }
}

enum Mode: Versionable, Hashable, Sendable, Codable {
    case idle
    case editing(field: String, cursor: Int)
    case reviewing(since: Date?)

    func addReversions(into reverter: inout some Reverter<Self>) {
        guard !reverter.hasChanged(at: \.caseIndex) else {
            reverter.appendOverwriteReversion(at: \.self)
            return
        }
        reverter.appendReversion(at: \.editingField)
        reverter.appendReversion(at: \.editingCursor)
        reverter.appendReversion(at: \.reviewingSince)
    }

    private var caseIndex: Int {
        switch self {
        case .idle: 0
        case .editing: 1
        case .reviewing: 2
        }
    }

    private var editingField: String? {
        get { if case let .editing(field, _) = self { field } else { nil } }
        set { if case let .editing(_, cursor) = self, let newValue { self = .editing(field: newValue, cursor: cursor) } }
    }

    private var editingCursor: Int? {
        get { if case let .editing(_, cursor) = self { cursor } else { nil } }
        set { if case let .editing(field, _) = self, let newValue { self = .editing(field: field, cursor: newValue) } }
    }

    private var reviewingSince: Date? {
        get { if case let .reviewing(since) = self { since } else { nil } }
        set { if case .reviewing = self { self = .reviewing(since: newValue) } }
    }
}

/// Random boards and random edits of them.
struct BoardFactory {
    var random: SeededGenerator
    private var nextID: Int

    /// - Parameter firstID: The ids of new items count up from here, so factories given
    ///   far-apart first ids never make two items with the same id.
    init(seed: UInt64, firstID: Int = 0) {
        random = SeededGenerator(seed: seed)
        nextID = firstID
    }

    mutating func item(depth: Int = 1) -> Item {
        nextID += 1
        let childCount = depth > 0 ? Int.random(in: 0...3, using: &random) : 0
        return Item(
            id: nextID,
            title: random.string(maxLength: 12),
            done: Bool.random(using: &random),
            children: (0..<childCount).map { _ in item(depth: depth - 1) },
            priority: priority()
        )
    }

    mutating func priority() -> Activity.Priority? {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: nil
        case 1: .low
        case 2: .medium(dueDate: random.chance(0.5) ? nil : Date(timeIntervalSince1970: Double.random(in: 0..<1e9, using: &random)))
        default: .high(dueDate: Date(timeIntervalSince1970: Double(Int.random(in: 0..<1000, using: &random))), reason: random.string(maxLength: 6))
        }
    }

    mutating func mode() -> Mode {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: .idle
        case 1: .editing(field: random.string(maxLength: 4), cursor: Int.random(in: 0..<10, using: &random))
        default: .reviewing(since: random.chance(0.3) ? nil : Date(timeIntervalSince1970: Double(Int.random(in: 0..<100, using: &random))))
        }
    }

    mutating func board() -> Board {
        Board(
            name: random.string(maxLength: 10),
            items: (0..<Int.random(in: 0...8, using: &random)).map { _ in item() },
            labels: Set((0..<Int.random(in: 0...5, using: &random)).map { _ in random.string(maxLength: 3) }),
            lookup: Dictionary((0..<Int.random(in: 0...4, using: &random)).map { _ in (random.string(maxLength: 2), item(depth: 0)) }, uniquingKeysWith: { a, _ in a }),
            mode: mode(),
            note: random.chance(0.5) ? nil : random.string(maxLength: 8),
            rating: random.chance(0.5) ? nil : Double(Int.random(in: 0...5, using: &random)),
            pinned: random.chance(0.5) ? nil : item(depth: 0),
            body: String(repeating: "Lorem ipsum dolor sit amet. ", count: Int.random(in: 0...40, using: &random)) + random.string(maxLength: 20),
            blob: Data((0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }),
            scores: (0..<Int.random(in: 0...10, using: &random)).map { _ in Int.random(in: 0..<5, using: &random) },
            // Mostly a few rows, sometimes a few hundred: several leaves and a branch above them.
            rows: TreeArray((0..<(random.chance(0.2) ? Int.random(in: 100...400, using: &random) : Int.random(in: 0...8, using: &random))).map { _ in item(depth: 0) })
        )
    }

    /// Applies one to `maxEdits` random edits.
    mutating func edit(_ board: Board, maxEdits: Int = 4) -> Board {
        var board = board
        for _ in 0..<Int.random(in: 1...maxEdits, using: &random) {
            switch Int.random(in: 0..<17, using: &random) {
            case 0: board.name = random.edited(board.name)
            case 1: board.items = editItems(board.items)
            case 2: board.items = editItems(board.items)
            case 3:
                // Sorted by a key that equal strings share (`<` on String is not consistent with
                // canonical equivalence): equal sets can iterate in different orders, and an
                // edit must depend only on the value it edits.
                let members = board.labels.sorted { $0.canonicalScalars.lexicographicallyPrecedes($1.canonicalScalars) }
                if random.chance(0.5), let member = members.randomElement(using: &random) {
                    board.labels.remove(member)
                } else {
                    board.labels.insert(random.string(maxLength: 3))
                }
            case 4:
                let key = random.string(maxLength: 2)
                if random.chance(0.3) { board.lookup[key] = nil } else if board.lookup[key] != nil {
                    board.lookup[key]!.title = random.edited(board.lookup[key]!.title)
                } else { board.lookup[key] = item(depth: 0) }
            case 5: board.mode = random.chance(0.5) ? mode() : {
                if case let .editing(field, cursor) = board.mode { return .editing(field: random.edited(field), cursor: cursor + 1) }
                return mode()
            }()
            case 6: board.note = random.chance(0.3) ? nil : random.edited(board.note ?? "")
            case 7: board.rating = random.chance(0.3) ? nil : Double(Int.random(in: 0...5, using: &random))
            case 8:
                if random.chance(0.3) || board.pinned == nil { board.pinned = random.chance(0.5) ? nil : item(depth: 0) } else {
                    board.pinned!.done.toggle()
                }
            case 9: board.body = random.edited(board.body)
            case 10:
                if !board.blob.isEmpty, random.chance(0.7) {
                    board.blob[board.blob.startIndex + Int.random(in: 0..<board.blob.count, using: &random)] &+= 1
                } else {
                    board.blob.append(UInt8.random(in: 0...255, using: &random))
                }
            case 11:
                if !board.scores.isEmpty, random.chance(0.5) { board.scores.remove(at: Int.random(in: 0..<board.scores.count, using: &random)) }
                board.scores.insert(Int.random(in: 0..<5, using: &random), at: Int.random(in: 0...board.scores.count, using: &random))
            case 12: board.scores.shuffle(using: &random)
            case 13: board.items.shuffle(using: &random)
            case 14, 15: editItems(&board.rows)
            default:
                if !board.items.isEmpty {
                    let index = Int.random(in: 0..<board.items.count, using: &random)
                    board.items[index].children = editItems(board.items[index].children)
                }
            }
        }
        return board
    }

    /// Inserts, removes, moves, reverses and edits elements.
    mutating func editItems(_ items: [Item]) -> [Item] {
        var items = items
        editItems(&items)
        return items
    }

    /// Inserts, removes, moves, reverses and edits elements in place: on a `TreeArray`, the
    /// untouched leaves stay shared with the version before, as in an app.
    mutating func editItems<Items>(_ items: inout Items)
    where Items: RandomAccessCollection & MutableCollection & RangeReplaceableCollection, Items.Element == Item, Items.Index == Int {
        switch Int.random(in: 0..<7, using: &random) {
        case 0: items.insert(item(), at: Int.random(in: 0...items.count, using: &random))
        case 1: if !items.isEmpty { items.remove(at: Int.random(in: 0..<items.count, using: &random)) }
        case 2:
            if items.count > 1 {
                let moved = items.remove(at: Int.random(in: 0..<items.count, using: &random))
                items.insert(moved, at: Int.random(in: 0...items.count, using: &random))
            }
        case 3: items.reverse()
        case 4: items.shuffle(using: &random)
        default:
            for _ in 0..<Int.random(in: 1...3, using: &random) where !items.isEmpty {
                let index = Int.random(in: 0..<items.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: items[index].title = random.edited(items[index].title)
                case 1: items[index].done.toggle()
                case 2: items[index].priority = priority()
                default: items[index].children = editItems(items[index].children)
                }
            }
        }
    }
}

private extension String {
    /// The scalars of the canonical composition: the same for all canonically equivalent strings.
    var canonicalScalars: [UInt32] {
        precomposedStringWithCanonicalMapping.unicodeScalars.map(\.value)
    }
}
