// A package-level hook for `UndoableReducerTesting`'s `TestStore`, which must know, without
// waiting or guessing, which asynchronous effects are still running.

extension Effect {

    /// This effect, with `started` called once for each asynchronous operation at once (while
    /// the reducer returns it, so before `Store.send` returns), and `finished` with what
    /// `started` returned when that operation has returned, cancelled or not.
    ///
    /// The store runs every operation it is given, even one cancelled before it starts, so
    /// each `started` is followed by one `finished`.
    package func tracking<ID: Sendable>(
        started: () -> ID,
        finished: @escaping @Sendable (ID) -> Void
    ) -> Self {
        Self(operations: operations.map { operation in
            switch operation {
            case .send:
                return operation
            case let .run(work):
                let id = started()
                return .run { send in
                    await work(send)
                    finished(id)
                }
            }
        })
    }
}
