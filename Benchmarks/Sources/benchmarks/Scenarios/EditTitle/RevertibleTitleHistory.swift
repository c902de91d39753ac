import Revertible

/// This package: a direct-tracking `VersioningController` that keeps one diff per step, on
/// items in an `Array` (`revertible`) or in a `TreeArray` (`revertible-tree`).
///
/// Undo and redo pass the caller's state `inout`, so the controller can release its own
/// reference while it writes and the state's storage is mutated in place, not copied.
struct ControllerTitleHistory<State: TodoCollectionState & Versionable>: TitleHistory {
    static var name: String { "revertible" + State.storageSuffix }

    let controller: ValueVersioningController<State>

    init(initial: State) {
        controller = VersioningController(initial)
    }

    func record(_ state: State) {
        controller.append(state)
    }

    func undo(_ state: inout State) throws(BenchmarkFailure) {
        do {
            try controller.undo(&state)
        } catch {
            throw BenchmarkFailure("\(Self.name): undo threw \(error)")
        }
    }

    func redo(_ state: inout State) throws(BenchmarkFailure) {
        do {
            try controller.redo(&state)
        } catch {
            throw BenchmarkFailure("\(Self.name): redo threw \(error)")
        }
    }

    var undoCount: Int {
        controller.undoCount
    }
}

/// The controller on an `Array` of items.
typealias RevertibleTitleHistory = ControllerTitleHistory<TodoState>

/// The controller on a `TreeArray` of items.
typealias TreeRevertibleTitleHistory = ControllerTitleHistory<TreeTodoState>

/// The controller on a `TreeArray` of items, each edit made in a transaction
/// (`setWithTransaction`): the controller lends the tree to the transaction's body, which
/// writes it in place, and the step is the write the tree saw, not a comparison (issue 39).
/// The caller's copy of the state lets go before each transaction, so the controller's is the
/// only one; undo and redo are the controller's, as for `revertible-tree`.
struct TransactionTitleHistory: TitleHistory {
    static var name: String { "revertible-tree-transaction" }

    let controller: ValueVersioningController<TreeTodoState>
    /// What the caller's state holds while a transaction runs.
    private let released = TreeTodoState(detached: [])

    init(initial: TreeTodoState) {
        controller = VersioningController(initial)
    }

    func record(_ state: TreeTodoState) {
        controller.append(state)
    }

    func setTitle(_ title: String, at index: Int, of state: inout TreeTodoState) {
        state = released
        state = controller.setWithTransaction { $0.setTitle(title, at: index) }
    }

    func undo(_ state: inout TreeTodoState) throws(BenchmarkFailure) {
        do {
            try controller.undo(&state)
        } catch {
            throw BenchmarkFailure("\(Self.name): undo threw \(error)")
        }
    }

    func redo(_ state: inout TreeTodoState) throws(BenchmarkFailure) {
        do {
            try controller.redo(&state)
        } catch {
            throw BenchmarkFailure("\(Self.name): redo threw \(error)")
        }
    }

    var undoCount: Int {
        controller.undoCount
    }
}
