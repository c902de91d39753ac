/// The baseline of redux-undo and most hand-rolled undo: a full copy of the state per step.
///
/// As efficient as snapshots get in Swift: recording appends a copy-on-write copy (a
/// reference-count increment, no element copying), and undo and redo move an index and
/// assign the stored copy. The cost of this design shows elsewhere: the caller's next edit
/// finds the item array shared with the stored copy and copies it, and every stored copy
/// keeps its own array of N items alive.
struct SnapshotTitleHistory: TitleHistory {
    static let name = "snapshot"

    /// Every version, oldest first; `versions[position]` is the current one.
    private var versions: [TodoState]
    private var position = 0

    init(initial: TodoState) {
        versions = [initial]
    }

    mutating func record(_ state: TodoState) {
        // A new version makes the redo versions unreachable.
        versions.removeSubrange((position + 1)...)
        versions.append(state)
        position += 1
    }

    mutating func undo(_ state: inout TodoState) throws(BenchmarkFailure) {
        try check(position > 0, "snapshot: nothing to undo")
        position -= 1
        state = versions[position]
    }

    mutating func redo(_ state: inout TodoState) throws(BenchmarkFailure) {
        try check(position < versions.count - 1, "snapshot: nothing to redo")
        position += 1
        state = versions[position]
    }

    var undoCount: Int {
        position
    }

    /// Every step keeps an item array of its own (the strings inside are shared).
    static func estimatedHistoryBytes(n: Int, k: Int) -> Int {
        k * n * MemoryLayout<TodoItem>.stride
    }
}
