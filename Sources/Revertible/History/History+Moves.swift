extension History {

    /// Moves `value`, the current version, to `destination` in the current scope's tree: up
    /// to the nearest common ancestor, then down. All or nothing: if a step refuses, the
    /// steps taken are taken back and the error says which step refused.
    ///
    /// - Returns: How many steps were taken.
    @usableFromInline
    mutating func move(_ value: inout Value, to destination: HistoryDestination) throws(HistoryError) -> Int {
        let target = try version(at: destination)
        return try walk(scopes[top].path(from: scopes[top].current, to: target), &value)
    }

    /// The version `destination` names in the current scope; a number of steps names none.
    @usableFromInline
    func version(at destination: HistoryDestination) throws(HistoryError) -> HistoryVersion {
        let scope = scopes[top]
        switch destination {
        case .steps:
            throw .unsupportedDestination(destination)
        case let .version(version):
            guard scope.steps[version] != nil || version == scope.floor else {
                throw scopes.contains { $0.contains(version) } ? .versionOutOfReach(version) : .unknownVersion(version)
            }
            return version
        case let .tag(tag):
            switch location(of: tag) {
            case .unknown: throw .unknownTag(tag)
            case let .outsideCurrentScope(level): throw .tagOutOfReach(tag, .outsideCurrentScope(level: level))
            default: return tagged.last { $0.tag == tag }!.version
            }
        case let .earlier(count), let .later(count):
            let versions = scope.versionsInOrder
            let index = versions.firstIndex(of: scope.current)!
            let isEarlier = if case .earlier = destination { true } else { false }
            let available = isEarlier ? index : versions.count - 1 - index
            // A negative count is a mistake, not a direction: refused, like `.steps(-1)`.
            guard count >= 0 else {
                throw .stepsOutOfRange(requested: count, available: available)
            }
            // Past either end stops at that end, as `earlier(by:)` does and Vim's `:earlier`.
            // Compared, not added: `index + count` would overflow for counts near `Int.max`.
            let steps = min(count, available)
            return versions[isEarlier ? index - steps : index + steps]
        case .oldest:
            return scope.floor
        case .newest:
            return scope.versionsInOrder.last!
        case let .earlierBy(duration), let .laterBy(duration):
            let now = scope.time(of: scope.current)
            let limit = if case .earlierBy = destination { now - duration } else { now + duration }
            let versions = scope.versionsInOrder
            let index = versions.firstIndex(of: scope.current)!
            if case .earlierBy = destination {
                return versions[...index].last { scope.time(of: $0) <= limit } ?? scope.floor
            }
            return versions[index...].last { scope.time(of: $0) <= limit } ?? scope.current
        }
    }
}

extension HistoryScope {

    /// The moves from `origin` to `target`: up to their nearest common ancestor, then down.
    func path(from origin: HistoryVersion, to target: HistoryVersion) -> [TreeMove] {
        var up = origin
        var down = target
        var descent: [HistoryVersion] = []
        var ascent: [HistoryVersion] = []
        // A step that cannot be read ends the path short; the command is then taken back
        // whole (see `History.perform`).
        func parent(_ version: HistoryVersion) -> HistoryVersion? { steps[version]?.parent }
        while depth(of: up) > depth(of: down) { ascent.append(up); guard let next = parent(up) else { return [] }; up = next }
        while depth(of: down) > depth(of: up) { descent.append(down); guard let next = parent(down) else { return [] }; down = next }
        while up != down {
            ascent.append(up)
            descent.append(down)
            guard let nextUp = parent(up), let nextDown = parent(down) else { return [] }
            up = nextUp
            down = nextDown
        }
        return ascent.map { .up(from: $0) } + descent.reversed().map { .down($0) }
    }

    /// Every version of the scope, in the order they were made (the floor first).
    package var versionsInOrder: [HistoryVersion] {
        [floor] + steps.keys.sorted()
    }

    /// When `version` was made: its step's time, or for the floor, the scope's.
    func time(of version: HistoryVersion) -> Duration {
        steps[version]?.time ?? floorTime
    }
}
