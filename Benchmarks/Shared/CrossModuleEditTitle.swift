// One source, compiled twice (both targets link this file): against the package as a user
// builds it (`Revertible`, a package dependency with default release settings), and against
// the same sources built with `-cross-module-optimization` (`RevertibleWholeCMO`, the
// `WHOLE_CMO` define). Everything else about the two is the same, so their times differ by
// what the library lets a client specialize and inline.
import Foundation
#if WHOLE_CMO
import RevertibleWholeCMO
#else
import Revertible
#endif

/// A todo like the `edit-title` scenario's: a UUID, a ~30-character title, a done flag and
/// ~200 characters of notes.
struct CrossModuleItem: Identifiable, Versionable {
    let id: UUID
    var title: String
    var isDone: Bool
    var notes: String

    func addReversions(into reverter: inout some Reverter<CrossModuleItem>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.isDone)
        reverter.appendReversion(at: \.notes)
    }
}

struct CrossModuleTreeState: Versionable {
    var items: TreeArray<CrossModuleItem>

    func addReversions(into reverter: inout some Reverter<CrossModuleTreeState>) {
        reverter.appendReversion(at: \.items)
    }
}

struct CrossModuleArrayState: Versionable {
    var items: [CrossModuleItem]

    func addReversions(into reverter: inout some Reverter<CrossModuleArrayState>) {
        reverter.appendReversion(at: \.items)
    }
}

/// Per step, in nanoseconds: an edit recorded, an undo, a redo.
public struct CrossModuleFigures: Sendable {
    public var record: Double
    public var undo: Double
    public var redo: Double
}

/// What went wrong: a state after undoing or redoing everything that is not the expected one.
public struct CrossModuleFailure: Error, CustomStringConvertible {
    public let description: String
}

/// The `edit-title` workload, timed in this thread's CPU time: `k` title edits at seeded random positions of `n` items, each
/// recorded by a direct-tracking controller, then `k` undos and `k` redos; each pass checked.
public func measureCrossModuleEditTitle(tree: Bool, n: Int, k: Int, seed: UInt64) throws(CrossModuleFailure) -> CrossModuleFigures {
    var random = SeededGenerator(seed: seed)
    let items = (0..<n).map { index in
        CrossModuleItem(id: UUID(), title: random.text(30), isDone: index % 3 == 0, notes: random.text(200))
    }
    if tree {
        return try measure(CrossModuleTreeState(items: TreeArray(items)), n: n, k: k, random: &random)
    }
    return try measure(CrossModuleArrayState(items: items), n: n, k: k, random: &random)
}

private protocol CrossModuleState: Versionable {
    associatedtype Items: MutableCollection<CrossModuleItem> where Items.Index == Int
    var items: Items { get set }
}

extension CrossModuleTreeState: CrossModuleState {}
extension CrossModuleArrayState: CrossModuleState {}

@inline(__always)
private func measure<State: CrossModuleState>(_ initial: State, n: Int, k: Int, random: inout SeededGenerator) throws(CrossModuleFailure) -> CrossModuleFigures {
    var state = initial
    let controller = VersioningController<State, State, HistoryError>(state)
    let edits = (0..<k).map { _ in (Int(random.next() % UInt64(n)), random.text(30)) }

    let recordStart = threadCPUNanoseconds()
    for (position, title) in edits {
        state.items[position].title = title
        controller.append(state)
    }
    let record = threadCPUNanoseconds() - recordStart
    let final = state

    let undoStart = threadCPUNanoseconds()
    do {
        for _ in 0..<k { try controller.undo(&state) }
    } catch {
        throw CrossModuleFailure(description: "cross-module: undo threw \(error)")
    }
    let undo = threadCPUNanoseconds() - undoStart
    guard state == initial else { throw CrossModuleFailure(description: "cross-module: undoing every step did not restore the first state") }

    let redoStart = threadCPUNanoseconds()
    do {
        for _ in 0..<k { try controller.redo(&state) }
    } catch {
        throw CrossModuleFailure(description: "cross-module: redo threw \(error)")
    }
    let redo = threadCPUNanoseconds() - redoStart
    guard state == final else { throw CrossModuleFailure(description: "cross-module: redoing every step did not restore the last state") }

    return CrossModuleFigures(record: record / Double(k), undo: undo / Double(k), redo: redo / Double(k))
}

/// This thread's CPU time, in nanoseconds: on a machine shared by many processes, wall time
/// counts the time others run, and the two builds' ratio would measure the neighbours.
private func threadCPUNanoseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}

/// Both builds draw the same edits: `SeededGenerator` is the repository's one generator
/// (Tests/TestSupport/SeededGenerator.swift, linked into both targets).
extension SeededGenerator {
    mutating func text(_ length: Int) -> String {
        String((0..<length).map { _ in Character(Unicode.Scalar(UInt8(97 + next() % 26))) })
    }
}
