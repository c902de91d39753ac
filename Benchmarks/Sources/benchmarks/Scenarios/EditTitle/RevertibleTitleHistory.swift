import Revertible

/// This package: a direct-tracking `VersioningController` that keeps one diff per step.
///
/// Undo and redo pass the caller's state `inout`, so the controller can release its own
/// reference while it writes and the state's storage is mutated in place, not copied.
struct RevertibleTitleHistory: TitleHistory {
    static let name = "revertible"

    let controller: VersioningController<TodoState, TodoState, ReversionError>

    init(initial: TodoState) {
        controller = VersioningController(initial)
    }

    func record(_ state: TodoState) {
        controller.append(state)
    }

    func undo(_ state: inout TodoState) throws(BenchmarkFailure) {
        do {
            try controller.undo(&state)
        } catch {
            throw BenchmarkFailure("revertible: undo threw \(error)")
        }
    }

    func redo(_ state: inout TodoState) throws(BenchmarkFailure) {
        do {
            try controller.redo(&state)
        } catch {
            throw BenchmarkFailure("revertible: redo threw \(error)")
        }
    }

    var undoCount: Int {
        controller.undoCount
    }
}

/// The same controller on the same items held in a `TreeArray` (``TreeTodoState``).
struct TreeRevertibleTitleHistory: TitleHistory {
    static let name = "revertible-tree"

    let controller: VersioningController<TreeTodoState, TreeTodoState, ReversionError>

    init(initial: TreeTodoState) {
        controller = VersioningController(initial)
    }

    func record(_ state: TreeTodoState) {
        controller.append(state)
    }

    func undo(_ state: inout TreeTodoState) throws(BenchmarkFailure) {
        do {
            try controller.undo(&state)
        } catch {
            throw BenchmarkFailure("revertible-tree: undo threw \(error)")
        }
    }

    func redo(_ state: inout TreeTodoState) throws(BenchmarkFailure) {
        do {
            try controller.redo(&state)
        } catch {
            throw BenchmarkFailure("revertible-tree: redo threw \(error)")
        }
    }

    var undoCount: Int {
        controller.undoCount
    }
}
