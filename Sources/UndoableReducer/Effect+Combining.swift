extension Effect {
    /// An effect that runs all `effects` at once.
    ///
    /// Synchronous ``send(_:)`` actions keep their listed order; ``run(operation:catch:)``
    /// work runs concurrently.
    public static func merge(_ effects: Self...) -> Self {
        merge(effects)
    }

    /// An effect that runs every effect of `effects` at once.
    public static func merge(_ effects: some Sequence<Self>) -> Self {
        Self(operations: effects.flatMap(\.operations))
    }

    /// An effect that runs this effect and `other` at once.
    public func merge(with other: Self) -> Self {
        Self(operations: operations + other.operations)
    }

    /// An effect that produces `transform(action)` for every action this one produces.
    ///
    /// This is how a child feature's effects become a parent's; ``Scope`` uses it.
    public func map<NewAction: Sendable>(
        _ transform: @escaping @Sendable (Action) -> NewAction
    ) -> Effect<NewAction> {
        // Most actions return no effect: inlined, this answers them without a call, no
        // closure and no mapped array.
        guard !operations.isEmpty else { return Effect<NewAction>(operations: []) }
        return mapNonEmpty(transform)
    }

    /// ``map(_:)`` of an effect that has operations.
    @usableFromInline
    func mapNonEmpty<NewAction: Sendable>(
        _ transform: @escaping @Sendable (Action) -> NewAction
    ) -> Effect<NewAction> {
        Effect<NewAction>(operations: operations.map { operation in
            switch operation {
            case let .send(action):
                .send(transform(action))
            case let .run(work):
                .run { send in
                    await work(Send { action in send(transform(action)) })
                }
            }
        })
    }
}
