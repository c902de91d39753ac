/// The edits of a change to a list of identifiable values, with a single edit held inline.
///
/// One edit is the usual step (a title typed into one element of a large list), and an array
/// of one costs a heap block of its own (about 80 bytes), kept for as long as the history
/// keeps the step; inline, it costs the edit's 48 bytes inside the change.
///
/// Held by ``TreeArrayChange``, whose checks and writes run in code compiled for the element
/// type. `IdentifiedArrayChange` (arrays) keeps a plain array: its code runs unspecialized,
/// where this enum, whose layout depends on the element type, is copied through metadata
/// (measured: about 2 µs more per recorded step before the tree's code was specialized).
@usableFromInline
enum IdentifiedArrayEdits<Element: Identifiable & Versionable>: RandomAccessCollection {
    case one(IdentifiedArrayEdit<Element>)
    /// None, or two and more.
    case several([IdentifiedArrayEdit<Element>])

    @inlinable
    init(_ edits: [IdentifiedArrayEdit<Element>]) {
        self = edits.count == 1 ? .one(edits[0]) : .several(edits)
    }

    @inlinable
    var startIndex: Int { 0 }

    @inlinable
    var endIndex: Int {
        switch self {
        case .one: 1
        case let .several(edits): edits.count
        }
    }

    @inlinable
    subscript(position: Int) -> IdentifiedArrayEdit<Element> {
        switch self {
        case let .one(edit):
            precondition(position == 0, "IdentifiedArrayEdits index out of range")
            return edit
        case let .several(edits):
            return edits[position]
        }
    }

    /// The reversion of the element edited at `position` of the newer side, if any: a
    /// linear search, for the few edits a step holds (looked up once per element compared).
    @inlinable
    func node(atNewIndex position: Int) -> (any ReversionNode<Element>)? {
        switch self {
        case let .one(edit):
            return edit.newIndex == position ? edit.node : nil
        case let .several(edits):
            for edit in edits where edit.newIndex == position {
                return edit.node
            }
            return nil
        }
    }
}
