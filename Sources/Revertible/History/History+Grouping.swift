extension History {

    /// Consecutive changes kept as one step (a debounced burst of typing, actions sharing a
    /// grouping key), while the caller keeps saying they belong together.
    @usableFromInline
    struct OpenGroup {
        /// The version before the group's first change, moved along by untracked changes:
        /// each change of the group is diffed against it, so the step stays one reversion.
        @usableFromInline var base: Value
        /// The scope whose top step is the group's step.
        @usableFromInline var scope: Int
        /// The key and time of the group's last change.
        @usableFromInline var mark: GroupMark

        /// Spelled out for `History.record`, which clients specialize (see `RecordedStep.init`).
        @usableFromInline
        init(base: Value, scope: Int, mark: GroupMark) {
            self.base = base
            self.scope = scope
            self.mark = mark
        }
    }

    /// Whether a change marked `mark` joins the open group under `policy`.
    @inlinable
    func joinsGroup(_ mark: GroupMark, policy: HistoryPolicy) -> Bool {
        // Without a key or an interval nothing joins; said before reading `group`, whose
        // copy costs a metadata lookup in this generic code on every recorded change.
        if mark.key == nil, policy.debounceInterval == nil { return false }
        guard let open = group, open.scope == top, scopes[top].currentStep != nil else { return false }
        // The keys must be equal, `nil` included: a change without a key never joins a keyed
        // group (an unrelated action amid typing), nor a keyed change a group without one.
        guard mark.key == open.mark.key else { return false }
        guard let interval = policy.debounceInterval else { return mark.key != nil }
        return mark.time - open.mark.time < interval
    }

    /// Whether a change marked `mark` starts a group later changes may join.
    @inlinable
    func opensGroup(_ mark: GroupMark, policy: HistoryPolicy) -> Bool {
        mark.key != nil || policy.debounceInterval != nil
    }

    /// Folds `value` into the open group, replacing the group's step with the change from the
    /// group's base (or removing it, if the group's changes cancelled out).
    /// `change` is the reversion from `value` back to the current version.
    @inlinable
    mutating func extendGroup(with value: Value, by change: Reversion<Value>?, annotation: Annotation, mark: GroupMark) {
        guard var open = group, let step = scopes[top].currentStep else { return }
        // A change equal to the current version adds nothing to the group.
        guard let change else { return }
        advanceReference(to: value, by: change)
        // From the history's own version, not `value`: the step must check exactly the bytes
        // the history holds (see `advanceReference(to:by:)`).
        guard let reversion = current.reversion(to: open.base) else {
            // Back where the group started, but perhaps spelled differently (`"é"` as
            // `"e\u{301}"`): the steps below check the base's exact bytes, so it becomes the
            // history's version again.
            scopes[top].removeCurrentLeaf()
            resetReference(to: open.base, adoptingIgnoredPropertiesOf: value)
            group = nil
            return
        }
        if !Set(reversion.changedKeyPaths).isSuperset(of: step.reversion.changedKeyPaths) {
            // A location came back to its value before the group, perhaps spelled
            // differently, so the new step does not write it: the history's copy takes the
            // base's bytes there again, by applying the step to the base.
            var next = open.base
            if (try? reversion.inverted.revert(&next)) != nil {
                resetReference(to: next, adoptingIgnoredPropertiesOf: value)
            }
        }
        var replacement = step
        replacement.reversion = reversion
        replacement.annotation = step.annotation.merged(with: annotation)
        replacement.changeCount += 1
        scopes[top].replaceCurrentStep(replacement)
        open.mark = mark
        group = open
    }

    /// Closes the open group: the next change starts a new step. Every command does this
    /// first, even one that changes nothing, so an undo during a burst undoes the whole burst,
    /// a transaction is a step of its own, and a tagged version is never amended;
    /// ``HistoryCommand/stopGrouping`` does nothing else, to end a group inside its interval.
    @inlinable
    mutating func endGroup() {
        group = nil
    }
}

extension History.OpenGroup: Sendable where Value: Sendable {}
