/// An undo history as the edit-title scenario drives it: the caller edits its own state, then
/// records it; undo and redo rewrite the caller's state.
///
/// The scenario's loops are generic over this protocol, so each implementation is specialized
/// and measured without dynamic dispatch in between. (`SendableMetatype`: the scenario lists
/// the implementations' types in a constant shared across isolation domains.)
protocol TitleHistory: SendableMetatype {

    /// The state this history tracks: the items in an `Array` or in a `TreeArray`.
    associatedtype State: TodoCollectionState

    /// The name in the results (`--impl`).
    static var name: String { get }

    /// A history whose current version is `initial`.
    init(initial: State)

    /// Records `state`, which the caller just edited, as the new current version.
    mutating func record(_ state: State)

    /// Sets the title at `index` of `state`, the current version, and records the change: by
    /// default, the caller's edit, then ``record(_:)``.
    mutating func setTitle(_ title: String, at index: Int, of state: inout State)

    /// Sets `state`, the current version, to the version before it.
    mutating func undo(_ state: inout State) throws(BenchmarkFailure)

    /// Sets `state`, the current version, to the version after it.
    mutating func redo(_ state: inout State) throws(BenchmarkFailure)

    /// How many steps can be undone.
    var undoCount: Int { get }

    /// About how many bytes `k` steps on a state of `n` items keep alive, when that is so
    /// large that the run might not fit in memory; `0` when it is no concern.
    static func estimatedHistoryBytes(n: Int, k: Int) -> Int
}

extension TitleHistory {

    static func estimatedHistoryBytes(n: Int, k: Int) -> Int { 0 }

    mutating func setTitle(_ title: String, at index: Int, of state: inout State) {
        state.setTitle(title, at: index)
        record(state)
    }
}
