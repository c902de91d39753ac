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
