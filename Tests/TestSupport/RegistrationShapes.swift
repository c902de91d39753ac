import Revertible

/// A card of a ``ShapedBoard``.
public struct ShapedCard: Identifiable, Versionable, Equatable, Sendable, Codable {
    public let id: Int
    public var title: String
    public var done = false

    public init(id: Int, title: String) {
        self.id = id
        self.title = title
    }

    public func addReversions(into reverter: inout some Reverter<ShapedCard>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.done)
    }
}

/// How a ``ShapedBoard`` registers its tree: the shapes of `addReversions(into:)` that are not
/// a plain list of registrations, for which a history that records a run as its trees write
/// it (issue 39) must still give the step comparing gives.
public enum RegistrationShape: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    /// The tree, `mode` and `name`, each registered once.
    case plain
    /// The tree stored whole when it changed, by edits otherwise.
    case overwriteWhenTreeChanged
    /// The tree registered while it has cards: a change emptying it is found by the
    /// fallback that stores the whole value.
    case treeWhileNotEmpty
    /// The tree by edits or whole, as `mode` says.
    case byMode
    /// The tree ignored, never registered.
    case treeIgnored
    /// The tree registered, and ignored too.
    case treeRegisteredAndIgnored
    /// The tree's reversion made by the type itself from the two versions.
    case customReverter
    /// The tree, and the count of its cards at a computed key path.
    case derivedCount
    /// The tree, and the whole value when the tree changed.
    case wholeWhenTreeChanged
    /// The tree, then the whole value whenever anything changed.
    case wholeAfterTree
    /// The tree registered twice.
    case treeTwice

    public var description: String { rawValue }
}

/// A board whose `addReversions(into:)` registers its tree in the way `shape` names, with a
/// `mode` the registration may depend on and a `name` beside it. `shape` never changes.
public struct ShapedBoard: Versionable, Equatable, Sendable, Codable {
    public var cards: TreeArray<ShapedCard>
    public var mode = 0
    public var name = ""
    /// Last: a byte before the tree would leave padding, which copies need not keep.
    public let shape: RegistrationShape

    public init(shape: RegistrationShape, cards: TreeArray<ShapedCard>) {
        self.shape = shape
        self.cards = cards
    }

    /// Derived from the tree; a write is dropped (the tree's own change restores it).
    public var cardCount: Int {
        get { cards.count }
        set {}
    }

    public func addReversions(into reverter: inout some Reverter<ShapedBoard>) {
        switch shape {
        case .plain, .treeTwice:
            reverter.appendReversion(at: \.cards)
            if shape == .treeTwice { reverter.appendReversion(at: \.cards) }
        case .overwriteWhenTreeChanged:
            if reverter.hasChanged(at: \.cards) {
                reverter.appendOverwriteReversion(at: \.cards)
            } else {
                reverter.appendReversion(at: \.cards)
            }
        case .treeWhileNotEmpty:
            if !cards.isEmpty { reverter.appendReversion(at: \.cards) }
        case .byMode:
            if mode == 0 {
                reverter.appendReversion(at: \.cards)
            } else {
                reverter.appendOverwriteReversion(at: \.cards)
            }
        case .treeIgnored:
            reverter.ignore(\.cards)
        case .treeRegisteredAndIgnored:
            reverter.appendReversion(at: \.cards)
            reverter.ignore(\.cards)
        case .customReverter:
            let (previous, current) = reverter.versions(at: \.cards)
            if let reversion = current.reversion(to: previous) {
                reverter.append(reversion, at: \.cards)
            }
        case .derivedCount:
            reverter.appendReversion(at: \.cards)
            reverter.appendReversion(at: \.cardCount)
        case .wholeWhenTreeChanged:
            reverter.appendReversion(at: \.cards)
            if reverter.hasChanged(at: \.cards) { reverter.appendOverwriteReversion(at: \.self) }
        case .wholeAfterTree:
            reverter.appendReversion(at: \.cards)
            reverter.appendOverwriteReversion(at: \.self)
        }
        reverter.appendReversion(at: \.mode)
        reverter.appendReversion(at: \.name)
    }
}

/// One write to a ``ShapedBoard``; positions are taken modulo the count.
public enum ShapedWrite: Sendable, Equatable, CustomStringConvertible {
    case rename(at: Int, String)
    case toggle(at: Int)
    case insert(id: Int, at: Int)
    case remove(at: Int)
    case mode(Int)
    case renameAndMode(at: Int, Int)
    case name(String)

    /// Writes that change the tree alone (one write each, which the journal can vouch for),
    /// empty it, fill it again, and change `mode` with and without it.
    public static let sequence: [ShapedWrite] = [
        .rename(at: 1, "one"), .toggle(at: 2), .insert(id: 100, at: 1), .name("n"), .remove(at: 0),
        .remove(at: 0), .remove(at: 0), .remove(at: 0), .insert(id: 101, at: 0), .rename(at: 0, "again"),
        .mode(1), .rename(at: 0, "in mode 1"), .renameAndMode(at: 0, 0), .rename(at: 0, "in mode 0"),
        .insert(id: 102, at: 1), .renameAndMode(at: 1, 2), .toggle(at: 0),
    ]

    public var description: String {
        switch self {
        case let .rename(at, title): "rename(at: \(at), \(title.debugDescription))"
        case let .toggle(at): "toggle(at: \(at))"
        case let .insert(id, at): "insert(\(id), at: \(at))"
        case let .remove(at): "remove(at: \(at))"
        case let .mode(mode): "mode(\(mode))"
        case let .renameAndMode(at, mode): "renameAndMode(at: \(at), \(mode))"
        case let .name(name): "name(\(name.debugDescription))"
        }
    }

    public func apply(to board: inout ShapedBoard) {
        let count = board.cards.count
        switch self {
        case let .rename(at, title): if count > 0 { board.cards[at % count].title = title }
        case let .toggle(at): if count > 0 { board.cards[at % count].done.toggle() }
        case let .insert(id, at): board.cards.insert(ShapedCard(id: id, title: "card \(id)"), at: at % (count + 1))
        case let .remove(at): if count > 0 { board.cards.remove(at: at % count) }
        case let .mode(mode): board.mode = mode
        case let .renameAndMode(at, mode):
            if count > 0 { board.cards[at % count].title += "+" }
            board.mode = mode
        case let .name(name): board.name = name
        }
    }
}

extension ShapedBoard {

    /// The board each differential run starts from: three cards.
    public static func start(_ shape: RegistrationShape) -> ShapedBoard {
        ShapedBoard(shape: shape, cards: TreeArray((0..<3).map { ShapedCard(id: $0, title: "card \($0)") }))
    }
}
