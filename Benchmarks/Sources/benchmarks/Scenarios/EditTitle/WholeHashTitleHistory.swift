/// The seed design: this package's diffs, plus the whole state's `hashValue` stored on every
/// append and compared before every undo and redo, to detect a reversion applied to the
/// wrong version. The hash costs a pass over the whole state (every title and note) each
/// time, which is what this implementation measures.
struct WholeHashTitleHistory: TitleHistory {
    static let name = "whole-hash"

    private var diffs: RevertibleTitleHistory
    /// The hash of every version, oldest first; `hashes[position]` is the current one's.
    private var hashes: [Int]
    private var position = 0

    init(initial: TodoState) {
        diffs = RevertibleTitleHistory(initial: initial)
        hashes = [initial.hashValue]
    }

    mutating func record(_ state: TodoState) {
        diffs.record(state)
        hashes.removeSubrange((position + 1)...)
        hashes.append(state.hashValue)
        position += 1
    }

    mutating func undo(_ state: inout TodoState) throws(BenchmarkFailure) {
        try check(state.hashValue == hashes[position], "whole-hash: undo on a state whose hash does not match")
        try diffs.undo(&state)
        position -= 1
    }

    mutating func redo(_ state: inout TodoState) throws(BenchmarkFailure) {
        try check(state.hashValue == hashes[position], "whole-hash: redo on a state whose hash does not match")
        try diffs.redo(&state)
        position += 1
    }

    var undoCount: Int {
        diffs.undoCount
    }
}
