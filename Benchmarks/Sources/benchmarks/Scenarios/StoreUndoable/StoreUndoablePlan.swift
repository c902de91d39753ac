/// The seeded mix of actions a `store-undoable` run sends: edits, toggles, adds, removes,
/// undos and redos, the same for every implementation.
struct StoreUndoablePlan {

    enum Step {
        case base(BenchmarkTodoAction)
        case undo
        case redo
    }

    let steps: [Step]

    init(count: Int, size: Int, using generator: inout SeededGenerator) {
        var steps: [Step] = []
        steps.reserveCapacity(count)
        for index in 0..<count {
            let roll = generator.next(upperBound: UInt64(100))
            let position = Int(generator.next(upperBound: UInt64(max(size, 1))))
            switch roll {
            case 0..<30: steps.append(.base(.edit(index: position, title: "Edited title number \(index)")))
            case 30..<50: steps.append(.base(.toggle(index: position)))
            case 50..<65: steps.append(.base(.add(TodoFixture.item(using: &generator))))
            case 65..<80: steps.append(.base(.remove(index: position)))
            case 80..<90: steps.append(.undo)
            default: steps.append(.redo)
            }
        }
        self.steps = steps
    }

    /// The items a snapshot history arrives at: the reference every implementation with undo
    /// must match.
    ///
    /// The snapshots are of a ``TreeTodoState``: each shares all but one path of chunks with
    /// the one before, so this reference costs O(log N) memory per step, not a full copy (at
    /// a million items, full copies would need tens of gigabytes). It is independent of the
    /// undo implementations measured: the plain reducer and whole versions, nothing diffed.
    func expectedItems(from initial: [TodoItem]) -> [TodoItem] {
        var past: [TreeTodoState] = []
        var present = TreeTodoState(detached: initial)
        var future: [TreeTodoState] = []
        let reducer = BenchmarkTodos<TreeTodoState>()
        for step in steps {
            switch step {
            case let .base(action):
                var next = present
                _ = reducer.reduce(into: &next, action: action)
                if next != present {
                    past.append(present)
                    future.removeAll()
                }
                present = next
            case .undo:
                if let previous = past.popLast() {
                    future.append(present)
                    present = previous
                }
            case .redo:
                if let next = future.popLast() {
                    past.append(present)
                    present = next
                }
            }
        }
        return Array(present.items)
    }
}
