import Revertible

/// This package: a direct-tracking `VersioningController` that keeps one diff per step, on
/// items in an `Array` (`revertible`) or in a `TreeArray` (`revertible-tree`), each edit
/// appended, or made in a transaction (`revertible-tree-transaction`, see ``InTransactions``).
///
/// Undo and redo pass the caller's state `inout`, so the controller can release its own
/// reference while it writes and the state's storage is mutated in place, not copied.
struct ControllerTitleHistory<State: TodoCollectionState & Versionable, Editing: ControllerEditing>: TitleHistory {
    static var name: String { "revertible" + State.storageSuffix + Editing.nameSuffix }

    let controller: ValueVersioningController<State>
    /// What the caller's state holds while a transaction runs.
    private let released = State(detached: [])

    init(initial: State) {
        controller = VersioningController(initial)
    }

    func record(_ state: State) {
        controller.append(state)
    }

    func setTitle(_ title: String, at index: Int, of state: inout State) {
        guard Editing.editsInTransactions else {
            state.setTitle(title, at: index)
            record(state)
            return
        }
        // The caller's copy lets go first, so the controller's is the only one.
        state = released
        state = controller.setWithTransaction { $0.setTitle(title, at: index) }
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

/// How ``ControllerTitleHistory`` makes an edit.
protocol ControllerEditing {
    static var nameSuffix: String { get }
    static var editsInTransactions: Bool { get }
}

/// The caller edits its state, then appends it.
enum Appending: ControllerEditing {
    static var nameSuffix: String { "" }
    static var editsInTransactions: Bool { false }
}

/// Each edit made in a transaction (`setWithTransaction`): the controller lends the tree to
/// the transaction's body, which writes it in place, and the step is the write the tree saw,
/// not a comparison (issue 39).
enum InTransactions: ControllerEditing {
    static var nameSuffix: String { "-transaction" }
    static var editsInTransactions: Bool { true }
}

/// The controller on an `Array` of items.
typealias RevertibleTitleHistory = ControllerTitleHistory<TodoState, Appending>

/// The controller on a `TreeArray` of items.
typealias TreeRevertibleTitleHistory = ControllerTitleHistory<TreeTodoState, Appending>

/// The controller on a `TreeArray` of items, each edit made in a transaction.
typealias TransactionTitleHistory = ControllerTitleHistory<TreeTodoState, InTransactions>
