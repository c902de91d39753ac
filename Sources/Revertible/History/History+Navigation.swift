extension History {

    /// Moves `value`, the current version, backward through the current scope to `target`,
    /// in place. All or nothing: if a step fails, the steps already taken are taken back and
    /// the error says which step refused.
    ///
    /// - Returns: How many steps were undone.
    mutating func undo(_ value: inout Value, to target: HistoryTarget) throws(ReversionError) -> Int {
        try move(&value, .backward, steps: steps(to: target, .backward))
    }

    /// Moves `value`, the current version, forward through the current scope to `target`.
    ///
    /// - Returns: How many steps were redone.
    mutating func redo(_ value: inout Value, to target: HistoryTarget) throws(ReversionError) -> Int {
        try move(&value, .forward, steps: steps(to: target, .forward))
    }

    /// How many steps in `direction` reach `target`.
    private func steps(to target: HistoryTarget, _ direction: ReversionDirection) throws(ReversionError) -> Int {
        switch target {
        case let .steps(count):
            // Redo counts along its branch only as far as the move goes.
            let reach = direction == .backward ? undoCount : scopes[top].redoCount(upTo: max(count, 1))
            // One step with nothing there is the ordinary no-op of an Undo button.
            if count == 1, reach == 0 { return 0 }
            guard count >= 0, count <= reach else {
                throw .stepsOutOfRange(requested: count, available: direction == .backward ? undoCount : redoCount)
            }
            return count
        case let .tag(tag):
            switch location(of: tag) {
            case .present:
                return 0
            case let .behind(steps) where direction == .backward:
                return steps
            case let .ahead(steps) where direction == .forward:
                return steps
            case .unknown:
                throw .unknownTag(tag)
            case let location:
                throw .tagOutOfReach(tag, location)
            }
        }
    }

    /// Moves `count` steps, all or nothing: on a failure, the steps already taken are taken
    /// back (each was just applied to exactly this value, so the reverse applies).
    private mutating func move(_ value: inout Value, _ direction: ReversionDirection, steps count: Int) throws(ReversionError) -> Int {
        for done in 0..<count {
            do {
                try moveOneStep(&value, direction)
            } catch {
                for _ in 0..<done { try? moveOneStep(&value, direction.reversed) }
                throw error.at(step: done + 1)
            }
        }
        return count
    }

    /// Moves one step: backward takes the newest undo step onto the redo stack, forward the
    /// next redo step back onto the undo stack, applying its reversion in that direction.
    mutating func moveOneStep(_ value: inout Value, _ direction: ReversionDirection) throws(ReversionError) {
        guard let step = scopes[top].nextStep(direction) else { return }
        let reversion = direction == .backward ? step.reversion : step.reversion.inverted
        try reversion.revert(&value)
        scopes[top].passNextStep(direction)
    }
}
