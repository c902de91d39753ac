// A listing of the current scope, one version at a time: what `tree()` answers at once, for a
// caller that prints each version as it reads it (the todo's `history`) and must neither read
// every step before its first line nor keep every step it printed.

extension History {

    /// The current scope's oldest version (the root of its tree), how many steps it holds and
    /// how many branches beyond one leave its versions, answered from what the history keeps
    /// in memory (its outline): no step is read.
    package var currentScopeShape: (floor: HistoryVersion, stepCount: Int, extraBranches: Int) {
        let scope = scopes[top]
        // Every version with several branches is held (the outline lists them): the others
        // have one branch or none.
        let extra = scope.children.values.reduce(0) { $0 + max($1.count - 1, 0) }
        return (scope.floor, scope.steps.count, extra)
    }

    /// The versions of the current scope's steps, oldest first, without reading a step: the
    /// order `tree()` lists them in.
    package func currentScopeVersions() -> [HistoryVersion] {
        let table = scopes[top].steps
        let held = table.heldSteps.map(\.version)
        guard let source = table.source else { return held }
        let saved = source.savedVersions(inScope: table.level).filter {
            !table.removed.contains($0) && !table.position(of: $0).found
        }
        return (held + saved).sorted()
    }

    /// The step leading to `version` in the current scope, described as `tree()` describes
    /// it; `nil` if the scope has none, or if reading it failed (see ``readFailure``).
    package func currentScopeStep(_ version: HistoryVersion) -> HistoryStep? {
        scopes[top].steps[version].map(describe)
    }

    /// The versions `version` leads to in the current scope, the one redo follows last, as
    /// ``branches(from:)`` lists them but without describing each.
    package func currentScopeBranches(from version: HistoryVersion) -> [HistoryVersion] {
        scopes[top].children[version].map(Array.init) ?? []
    }

    /// Runs `body`, which reads the current scope one version at a time, keeping at most
    /// `window` of the steps it reads in memory (a history in memory keeps them all anyway).
    package func readingStepsWithin<R>(window: Int, _ body: () throws -> R) rethrows -> R {
        guard let source = storage?.source else { return try body() }
        return try source.readingWithin(window: window, body)
    }
}
