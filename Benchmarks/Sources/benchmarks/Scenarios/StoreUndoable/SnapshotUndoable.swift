import UndoableReducer

/// The baseline: a redux-undo-style higher-order reducer that keeps past and future as full
/// copies of the state. Undo and redo move a copy between the stacks.
struct SnapshotUndoable<Base: Reducer>: Reducer where Base.State: Sendable, Base.Action: Sendable {

    struct State: Sendable {
        var past: [Base.State] = []
        var present: Base.State
        var future: [Base.State] = []
    }

    typealias Action = UndoableAction<Base.Action>

    let base: Base

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case let .action(action):
            let previous = state.present
            let effect = base.reduce(into: &state.present, action: action)
            state.past.append(previous)
            state.future.removeAll()
            return effect.map(Action.action)
        case .history(.undo(to: .steps(1))):
            if let previous = state.past.popLast() {
                state.future.append(state.present)
                state.present = previous
            }
        case .history(.redo(to: .steps(1))):
            if let next = state.future.popLast() {
                state.past.append(state.present)
                state.present = next
            }
        default:
            break
        }
        return .none
    }
}
