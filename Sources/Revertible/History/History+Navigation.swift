extension History {

    /// Moves `value`, the current version, backward through the current scope to `target`,
    /// in place. All or nothing: if a step fails, the steps already taken are taken back and
    /// the error says which step refused.
    ///
    /// - Returns: How many steps were undone.
    @inlinable
    mutating func undo(_ value: inout Value, to target: HistoryDestination) throws(HistoryError) -> Int {
        try walk(scopes[top].movesUp(steps(to: target, .backward)), &value)
    }

    /// Moves `value`, the current version, forward through the current scope to `target`.
    ///
    /// - Returns: How many steps were redone.
    @inlinable
    mutating func redo(_ value: inout Value, to target: HistoryDestination) throws(HistoryError) -> Int {
        try walk(scopes[top].movesDown(steps(to: target, .forward)), &value)
    }

    /// How many steps in `direction` reach `target`.
    @inlinable
    func steps(to target: HistoryDestination, _ direction: ReversionDirection) throws(HistoryError) -> Int {
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
        default:
            let version = try version(at: target)
            let steps = direction == .backward
                ? scopes[top].stepsBack(to: version)
                : scopes[top].stepsForward(to: version)
            guard let steps else { throw .destinationOutOfReach(target) }
            return steps
        }
    }

    /// Takes `moves` one after the other, all or nothing: on a failure, the moves already
    /// taken are taken back (each was just applied to exactly this value, so the reverse
    /// applies) and the error says which move refused. Undo, redo and moves through the tree
    /// all walk this way.
    ///
    /// - Returns: How many moves were taken.
    @inlinable
    mutating func walk(_ moves: [TreeMove], _ value: inout Value) throws(HistoryError) -> Int {
        for (index, move) in moves.enumerated() {
            do {
                try take(move, &value)
            } catch {
                for taken in moves[..<index].reversed() { try? take(taken.reversed, &value) }
                throw error.at(step: index + 1)
            }
        }
        return moves.count
    }

    /// Takes one move: back to the parent, or forward to one child, which becomes the branch
    /// redo follows.
    @inlinable
    mutating func take(_ move: TreeMove, _ value: inout Value) throws(HistoryError) {
        let direction: ReversionDirection
        switch move {
        case .up:
            direction = .backward
        case let .down(child):
            scopes[top].markVisited(child, from: scopes[top].current)
            direction = .forward
        }
        guard let step = scopes[top].nextStep(direction) else { return }
        try apply(step, direction, to: &value)
        scopes[top].passNextStep(direction)
    }
}

/// One move along a scope's tree.
@usableFromInline
enum TreeMove: Equatable {
    /// From this version to its parent.
    case up(from: HistoryVersion)
    /// From the current version to this child of it.
    case down(HistoryVersion)

    /// The move that takes this one back.
    @inlinable
    var reversed: TreeMove {
        switch self {
        case let .up(version): .down(version)
        case let .down(version): .up(from: version)
        }
    }
}

extension HistoryScope {

    /// How many steps undo takes from the current version back to `version`, or `nil` when
    /// `version` is not on undo's way.
    @usableFromInline
    func stepsBack(to version: HistoryVersion) -> Int? {
        var count = 0
        var walked = current
        while walked != version {
            guard let step = steps[walked] else { return nil }
            walked = step.parent
            count += 1
        }
        return count
    }

    /// How many steps redo takes from the current version, along the branch it follows, to
    /// `version`, or `nil` when `version` is not on redo's way.
    @usableFromInline
    func stepsForward(to version: HistoryVersion) -> Int? {
        var count = 0
        var walked = current
        while walked != version {
            guard let next = children[walked]?.last else { return nil }
            walked = next
            count += 1
        }
        return count
    }

    /// `count` moves back from the current version.
    @inlinable
    func movesUp(_ count: Int) -> [TreeMove] {
        var version = current
        return (0..<count).map { _ in
            // A step that cannot be read leaves the move short; the command is then taken
            // back whole (see `History.perform`).
            defer { version = steps[version]?.parent ?? version }
            return .up(from: version)
        }
    }

    /// `count` moves forward from the current version, along the branch redo follows.
    @inlinable
    func movesDown(_ count: Int) -> [TreeMove] {
        var version = current
        return (0..<count).map { _ in
            version = children[version]?.last ?? version
            return .down(version)
        }
    }
}

extension History {

    /// Every step of the scope at `level`, in the order they were made, or `nil` if there is
    /// no such scope: the whole tree, branches off the path and off redo's way included.
    @usableFromInline
    package func tree(inScopeLevel level: Int) -> [HistoryStep]? {
        guard scopes.indices.contains(level) else { return nil }
        return scopes[level].steps.values.sorted { $0.version < $1.version }.map(describe)
    }
}
