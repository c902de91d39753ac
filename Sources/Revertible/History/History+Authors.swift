/// Who made a step, and for a step made by `undo(by:)` or `redo(by:)`, the step it reverted.
///
/// Boxed: most histories have no authors, and a step's size is its memory cost, so a step
/// without author pays one empty reference. Immutable: a change makes a new box.
@usableFromInline
final class StepAuthorship: Sendable {
    let author: HistoryAuthor
    /// Set on the steps `undo(by:)` and `redo(by:)` make.
    let move: AuthorMove?
    /// Set when taking the step back (an ordinary step by `undo(by:)`, an undo by
    /// `redo(by:)`) changed nothing, because others had since changed every location it
    /// wrote: the author's moves pass over it from then on, so they never stall on it.
    let isSuperseded: Bool

    @usableFromInline
    init(author: HistoryAuthor, move: AuthorMove? = nil, isSuperseded: Bool = false) {
        self.author = author
        self.move = move
        self.isSuperseded = isSuperseded
    }
}

/// What a step made by a per-author move did: reverted the step to this version.
@usableFromInline
enum AuthorMove: Hashable, Sendable {
    /// `undo(by:)` reverted this ordinary step.
    case undo(HistoryVersion)
    /// `redo(by:)` reverted this step, which an `undo(by:)` made.
    case redo(HistoryVersion)

    var target: HistoryVersion {
        switch self {
        case let .undo(version), let .redo(version): version
        }
    }
}

extension RecordedStep {
    /// Who made the step, if the history was told.
    @usableFromInline
    package var author: HistoryAuthor? { authorship?.author }

    /// For a step made by `undo(by:)` (`true`) or `redo(by:)` (`false`); `nil` otherwise.
    package var isAuthorUndo: Bool? {
        authorship?.move.map { if case .undo = $0 { true } else { false } }
    }
}

/// The author of a step squashed from steps by `authors`: theirs if they all have the same,
/// else `nil`, since a step that holds two people's changes is neither's to undo alone.
func commonAuthor(_ authors: some Sequence<HistoryAuthor?>) -> HistoryAuthor? {
    var iterator = authors.makeIterator()
    guard let first = iterator.next(), let author = first else { return nil }
    while let next = iterator.next() {
        guard next == author else { return nil }
    }
    return author
}

extension HistoryScope {

    /// The authorship of the step this scope is squashed into when popped: an ordinary step
    /// by the author every step of the scope shares, if they do.
    var squashedAuthorship: StepAuthorship? {
        let authors = (start.map { [$0.author] } ?? []) + undo.map(\.author)
        return commonAuthor(authors).map { StepAuthorship(author: $0) }
    }
}

// Per-author undo (issue 24).
//
// `undo(by: a)` takes back the newest step of `a` on the path to the current version (in the
// current scope) that is not taken back yet, selectively, over everyone's later steps, and
// records what it did as a new step by `a`. The history never moves back past anyone's step:
// per-author undo is a change like any other, which plain `undo()` can take back in turn.
// `redo(by: a)` takes back `a`'s newest such undo, as long as `a` made no ordinary step since.
//
// Which steps are taken back follows from the path alone, newest first: a step made by a
// per-author move cancels the step it reverted, unless it is itself cancelled. So plain undo
// and redo, branches, scopes and the limit need no bookkeeping of their own.
extension History {

    /// The step `undo(by: author)` (`direction == .backward`) or `redo(by: author)` takes
    /// back next, if any, treating the steps in `passed` as superseded: a plan passes over
    /// steps before the move marks them (see ``planMove(by:_:onConflict:from:)``).
    func authorTarget(
        _ author: HistoryAuthor, _ direction: ReversionDirection, passing passed: Set<HistoryVersion> = []
    ) -> RecordedStep<Value, Annotation>? {
        let scope = scopes[top]
        var cancelled = Set<HistoryVersion>()
        var version = scope.current
        while let step = scope.steps[version] {
            version = step.parent
            guard let authorship = step.authorship, !cancelled.contains(step.version) else { continue }
            let isSuperseded = authorship.isSuperseded || passed.contains(step.version)
            if let move = authorship.move {
                if direction == .forward, case .undo = move, authorship.author == author, !isSuperseded {
                    return step
                }
                cancelled.insert(move.target)
            } else if authorship.author == author {
                // An ordinary step of the author's after an undo of theirs ends its redo.
                if direction == .forward { return nil }
                if !isSuperseded { return step }
            }
        }
        return nil
    }

    /// What a per-author move would do from the current version, found without changing the
    /// history: the move itself and the questions an Undo button asks (``nextUndo(by:onConflict:)``)
    /// both follow this one plan, so the button is enabled exactly when the move would act.
    struct AuthorMovePlan {
        /// The steps with nothing left to take back (every location they wrote changed by
        /// someone else since), which the move marks superseded.
        var passedOver: [RecordedStep<Value, Annotation>] = []
        /// The conflicts found on the way, the passed-over steps' included.
        var conflicts: [ReversionConflict] = []
        /// The step taken back, or refused (``ConflictPolicy/refuse``); `nil` with nothing
        /// left to take back.
        var target: RecordedStep<Value, Annotation>?
        /// The version after taking `target` back, with its change and its ignored
        /// properties; `nil` when the policy refused it.
        var result: (next: Value, change: Reversion<Value>, ignored: [IgnoredProperty<Value>])?
    }

    /// Tries the author's steps newest first, on copies of `value` (the current version), until
    /// one changes something or the policy refuses one.
    func planMove(
        by author: HistoryAuthor, _ direction: ReversionDirection, onConflict conflictPolicy: ConflictPolicy, from value: Value
    ) -> AuthorMovePlan {
        var plan = AuthorMovePlan()
        var passed = Set<HistoryVersion>()
        while let target = authorTarget(author, direction, passing: passed) {
            var next = value
            let found = target.reversion.revertSelectively(&next, onConflict: conflictPolicy)
            if conflictPolicy == .refuse, !found.isEmpty {
                plan.conflicts = found
                plan.target = target
                return plan
            }
            plan.conflicts += found
            let (change, ignored) = recordedDifference(next, from: value)
            guard let change else {
                passed.insert(target.version)
                plan.passedOver.append(target)
                continue
            }
            plan.target = target
            plan.result = (next, change, ignored)
            return plan
        }
        return plan
    }

    /// The step ``HistoryCommand/undoByAuthor(_:)`` would take back under `conflictPolicy`,
    /// or `nil` when it would change nothing: the per-author Undo button's state and title.
    /// A step the policy would refuse counts: the button then reports the conflicts.
    ///
    /// - Complexity: One selective revert of the candidate steps on a copy of the current
    ///   version, as the undo itself costs.
    package func nextUndo(by author: HistoryAuthor, onConflict conflictPolicy: ConflictPolicy) -> HistoryStep? {
        planMove(by: author, .backward, onConflict: conflictPolicy, from: current).target.map(describe)
    }

    /// The step (an undo by `author`) that ``HistoryCommand/redoByAuthor(_:)`` would take
    /// back under `conflictPolicy`, or `nil` when it would change nothing.
    package func nextRedo(by author: HistoryAuthor, onConflict conflictPolicy: ConflictPolicy) -> HistoryStep? {
        planMove(by: author, .forward, onConflict: conflictPolicy, from: current).target.map(describe)
    }

    /// Runs ``HistoryCommand/undoByAuthor(_:)`` (`backward`) or
    /// ``HistoryCommand/redoByAuthor(_:)`` on `value`, the current version: the newest step
    /// of `author` in the current scope (or, forward, the newest undo of `author` not taken
    /// back yet, as long as `author` has made no ordinary step since) is taken back
    /// selectively: each location the step wrote is reverted where it still holds what the
    /// step left there; elsewhere ``conflictPolicy`` decides. The result is a new step by
    /// `author` (made by ``appendStep(_:version:annotation:time:changeCount:authorship:)``,
    /// as every step is), labelled as the step it takes back; every other author's later
    /// steps stay in place. A step whose every location someone else has changed since is
    /// passed over (it has nothing left to take back), and the next older one is taken
    /// instead, so the author's undo never stalls.
    ///
    /// Run by ``run(_:on:policy:)``, like every command: ``lastConflicts`` lists what was
    /// skipped or overwritten.
    ///
    /// - Returns: Whether the current version changed.
    /// - Throws: Under ``ConflictPolicy/refuse``, the conflicts that stopped it, with `value`
    ///   unchanged.
    @usableFromInline
    mutating func move(
        by author: HistoryAuthor, _ direction: ReversionDirection, on value: inout Value, policy: HistoryPolicy
    ) throws(HistoryError) -> Bool {
        let plan = planMove(by: author, direction, onConflict: conflictPolicy, from: value)
        plan.passedOver.forEach { supersede($0) }
        lastConflicts += plan.conflicts
        guard let target = plan.target else { return false }
        guard let (next, change, _) = plan.result else {
            throw .stepRefused(.conflict(plan.conflicts))
        }
        // `next` is `value` with the reversions applied, ignored places included: the
        // history's copy, put back from `value` after the command, takes it as it is.
        value = next
        let move: AuthorMove = direction == .backward ? .undo(target.version) : .redo(target.version)
        appendStep(
            change,
            annotation: Annotation(savedLabel: target.annotation.label),
            time: stamp(policy.now(), policy: policy),
            authorship: StepAuthorship(author: author, move: move)
        )
        return true
    }

    /// Marks `step` as one the author's moves pass over.
    private mutating func supersede(_ step: RecordedStep<Value, Annotation>) {
        guard let authorship = step.authorship else { return }
        var replacement = step
        replacement.authorship = StepAuthorship(author: authorship.author, move: authorship.move, isSuperseded: true)
        scopes[top].steps[step.version] = replacement
    }
}
