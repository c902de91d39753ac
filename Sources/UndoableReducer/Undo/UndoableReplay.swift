import Revertible

/// An undoable history written down as actions: the state before its oldest step, and the
/// actions that rebuild every step, branch, tag and scope from there, for logs and analytics.
/// It can be rebuilt with ``Undoable/restore(_:)``, but only by a deterministic reducer whose
/// recorded actions read nothing unrecorded; version identifiers, step times and an open
/// group are not kept. To save a history, save ``UndoableState`` itself (its
/// ``UndoableState/archive`` holds the diffs).
///
/// A replay has one transaction per step, and a few moves and tags besides, so its length is
/// bounded by the history, not by how long the history has been used. Replaying needs a
/// deterministic base reducer: give actions the values they depend on (ids, dates) instead
/// of creating them in the reducer.
public struct UndoableReplay<State: Sendable, Action: Sendable>: Sendable {
    /// The state before the oldest step.
    public var base: State
    /// The actions that rebuild the history from ``base``.
    public var actions: [UndoableAction<Action>]
    /// The present the replay must arrive at.
    public var present: State
    /// The indices in ``actions`` after which restoring folds the steps the open scope has
    /// made so far into the scope's start. Such steps stand for the steps the history limit
    /// dropped from a scope that was still open: undo no longer reaches them, but popping or
    /// abandoning the scope still takes them into account. Empty unless the limit did that.
    public var foldsAfter: [Int]

    /// A replay of `actions` from `base`, expected to arrive at `present`; after each action
    /// at an index in `foldsAfter`, the open scope's steps are folded into its start.
    public init(base: State, actions: [UndoableAction<Action>], present: State, foldsAfter: [Int] = []) {
        self.base = base
        self.actions = actions
        self.present = present
        self.foldsAfter = foldsAfter
    }
}

extension UndoableReplay: Equatable where State: Equatable, Action: Equatable {}

/// Saved as `base`, `actions` and `present`, with `foldsAfter` only when it is not empty, so
/// replays saved before it existed load, and replays without folds save as they did.
extension UndoableReplay: Codable where State: Codable, Action: Codable {

    private enum CodingKeys: String, CodingKey {
        case base, actions, present, foldsAfter
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            base: try container.decode(State.self, forKey: .base),
            actions: try container.decode([UndoableAction<Action>].self, forKey: .actions),
            present: try container.decode(State.self, forKey: .present),
            foldsAfter: try container.decodeIfPresent([Int].self, forKey: .foldsAfter) ?? []
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode(actions, forKey: .actions)
        try container.encode(present, forKey: .present)
        if !foldsAfter.isEmpty { try container.encode(foldsAfter, forKey: .foldsAfter) }
    }
}

/// Why a history could not be written down as a replay or rebuilt from one.
public enum UndoableReplayError: Error, Equatable, Sendable {
    /// A step holds actions of another type than the one asked for.
    case actionTypeMismatch
    /// The history could not be undone to its oldest version.
    case history(HistoryError)
    /// Replaying the actions did not arrive at the saved present: the reducer is not
    /// deterministic, or the replay was altered.
    case presentMismatch
}

extension UndoableState {

    /// This history written down as actions of type `Action` (the base reducer's).
    ///
    /// Every scope is rebuilt as a tree, branches included, its versions made in the order
    /// they were made (so the limit drops the same ones, and moves by that order land on the
    /// same ones), and the steps the limit folded into an open scope's start are made again
    /// and folded again (``UndoableReplay/foldsAfter``). Tags are put where they are, and the
    /// tags an open scope moved are first given where they were before, then moved in the
    /// order the scope moved them, so that abandoning the rebuilt scope puts them back where,
    /// and in the order, abandoning the original would. A move onto or off a version that is
    /// gone since is made again on a version made and dropped in a scope of its own, which
    /// takes a step's actions: in a scope without such a step, that one move is not made
    /// again.
    ///
    /// Changes made by actions that were not recorded (the `recording` filter) are not in
    /// it; restoring then arrives at a different present and fails with
    /// ``UndoableReplayError/presentMismatch``.
    public func replay<Action: Sendable>(of _: Action.Type = Action.self) throws(UndoableReplayError) -> UndoableReplay<State, Action> {
        let writer: ReplayWriter<State, Action> = try writeReplay()
        return UndoableReplay(base: try oldestVersion(), actions: writer.actions, present: present, foldsAfter: writer.foldsAfter)
    }

    /// Whether ``replay(of:)`` rebuilds every tag move an open scope made. Not when a scope
    /// moved a tag onto or off a version that is gone since (or moved it away and back) and
    /// holds no step with actions: making the move again takes a version made and dropped
    /// inside the rebuilt scope, and that takes a step's actions.
    package func replayKeepsEveryTagMove<Action: Sendable>(of _: Action.Type = Action.self) -> Bool {
        let writer: ReplayWriter<State, Action>? = try? writeReplay()
        return writer?.keepsEveryTagMove ?? false
    }

    private func writeReplay<Action: Sendable>() throws(UndoableReplayError) -> ReplayWriter<State, Action> {
        let scopes = engine.scopes
        // Where every tag is while each scope is the innermost one, just before the next is
        // pushed: the innermost scope's are today's; one level down, a tag the scope above
        // moved is where it was before that move, and a tag the scope above made is not
        // there yet.
        var placements = Array(repeating: [(tag: HistoryTag, version: HistoryVersion)](), count: scopes.count)
        placements[scopes.count - 1] = engine.tagged
        for level in scopes.indices.dropLast().reversed() {
            let above = scopes[level + 1]
            // A version of this scope or of one below: still there while this one is open.
            func isKept(_ version: HistoryVersion) -> Bool {
                scopes[...level].contains { $0.contains(version) }
            }
            placements[level] = placements[level + 1].filter { entry in
                !above.movedTags.contains { $0.tag == entry.tag } && isKept(entry.version)
            }
            placements[level] += above.movedTags.filter { isKept($0.version) }
        }

        var writer = ReplayWriter<State, Action>()
        for level in scopes.indices {
            if level > 0 { writer.actions.append(.pushNewScope) }
            let before = level > 0 ? placements[level - 1] : []
            try writer.rebuild(scopes[level], tagsBefore: before, tagsAfter: placements[level])
        }
        return writer
    }

    /// The present with every step of every scope undone.
    private func oldestVersion() throws(UndoableReplayError) -> State {
        var history = engine
        let policy = HistoryPolicy()
        while history.scopeLevel > 0 {
            if case let .failure(error) = history.perform(.undoAndPopCurrentScope, policy: policy) { throw .history(error) }
        }
        if case let .failure(error) = history.perform(.undoCurrentScope, policy: policy) { throw .history(error) }
        return history.current
    }
}

extension Undoable {

    /// Rebuilds the history written down in `replay`: the same present, steps, labels, tags
    /// and scopes. The base reducer's effects are not run.
    ///
    /// - Throws: ``UndoableReplayError/presentMismatch`` if the replay does not arrive at its
    ///   saved present.
    public func restore(_ replay: UndoableReplay<Base.State, Base.Action>) throws(UndoableReplayError) -> UndoableState<Base.State> {
        // No limit and no grouping while replaying: redo steps are undo steps for a moment, and
        // each transaction is one step.
        var unlimited = options
        unlimited.historyLimit = nil
        unlimited.debounceInterval = nil
        unlimited.groupingBy = { _ in nil }
        let replaying = Undoable(base, options: unlimited)
        var state = UndoableState(replay.base)
        let folds = Set(replay.foldsAfter)
        for (index, action) in replay.actions.enumerated() {
            _ = replaying.apply(action, to: &state)
            if folds.contains(index) { state.engine.foldPathIntoStart() }
        }
        guard state.present == replay.present else { throw .presentMismatch }
        state.engine.trim(to: options.historyLimit)
        state.engine.lastError = nil
        return state
    }
}

/// Writes the actions that rebuild one scope after another (see ``UndoableState/replay(of:)``).
private struct ReplayWriter<State: Versionable & Sendable, Action: Sendable> {
    typealias Scope = HistoryScope<State, StepRecord>

    var actions: [UndoableAction<Action>] = []
    var foldsAfter: [Int] = []
    /// Whether every tag move of every scope is made again (see
    /// ``UndoableState/replayKeepsEveryTagMove(of:)``).
    var keepsEveryTagMove = true

    /// The original versions of the scope being rebuilt, in the order the rebuilt scope
    /// makes them: an index here is an index in the order `move(to: .earlier(_:))` counts
    /// (the floor first; the version the scope started from, reached only before the
    /// limit's steps are folded again, is not counted).
    private var order: [HistoryVersion] = []
    /// The index in ``order`` of the version the rebuilt scope is at.
    private var position = 0

    private func index(of version: HistoryVersion) -> Int? {
        order.firstIndex(of: version)
    }

    /// Moves the rebuilt scope to `version` by the order versions were made, the only
    /// reference to a version that means the same in the rebuilt history.
    private mutating func move(to version: HistoryVersion) {
        let target = index(of: version)!
        if target < position {
            actions.append(.move(to: .earlier(position - target)))
        } else if target > position {
            actions.append(.move(to: .later(target - position)))
        }
        position = target
    }

    /// The actions that rebuild `scope`, just pushed (or the outermost), where the tags are
    /// as in `tagsBefore` (the scope below's, or none), and leave the tags as in `tagsAfter`.
    mutating func rebuild(
        _ scope: Scope,
        tagsBefore: [(tag: HistoryTag, version: HistoryVersion)],
        tagsAfter: [(tag: HistoryTag, version: HistoryVersion)]
    ) throws(UndoableReplayError) {
        order = [scope.floor]
        position = 0
        var location = Dictionary(tagsBefore.map { ($0.tag, $0.version) }, uniquingKeysWith: { $1 })
        // The tags whose moves are made already.
        var placed: Set<HistoryTag> = []
        if let folded = scope.foldedStart {
            // The steps the limit dropped, made again from the version the scope started from
            // and folded into the start at once: that version is out of reach after, so its
            // tags come first.
            guard let startActions = folded.annotation.actions as? [Action] else { throw .actionTypeMismatch }
            let tags = tagsAfter.filter { $0.version == scope.startVersion }.map(\.tag)
            let moves = scope.movedTags.filter { tags.contains($0.tag) }
            // Moved away and back, or off a version that went, before the limit folded the
            // steps after: those moves take a version made and dropped, here by the folded
            // steps' actions, if they change anything at once.
            var away = moves.filter { location[$0.tag] == $0.version }.map(\.tag)
            let offDropped = moves.filter { location[$0.tag] == nil }.map(\.tag)
            // The moves the scope made before these, of tags still where they were, are made
            // with them, so that they come first (see `placeTags`); those tags are then
            // placed with the others.
            if let last = scope.movedTags.lastIndex(where: { away.contains($0.tag) }) {
                away = scope.movedTags[...last].filter { entry in
                    away.contains(entry.tag) || (!tags.contains(entry.tag) && location[entry.tag] == entry.version)
                }.map(\.tag)
            }
            placed = Set(tags + away)
            if !away.isEmpty || !offDropped.isEmpty {
                if folded.changesValue {
                    remakeMovesThroughDroppedVersions(away: away, offDropped: offDropped, changing: startActions)
                    for tag in away + offDropped { location[tag] = nil }
                } else {
                    keepsEveryTagMove = false
                }
            }
            if tags.contains(where: { location[$0] != scope.startVersion }) || !moves.isEmpty {
                actions += tags.map { .tag($0) }
            }
            for tag in tags { location[tag] = scope.startVersion }
            // One transaction makes one step, unless the steps cancelled out: then one per
            // action, so that there are steps to fold (each dropped step changed something,
            // so one of its actions does).
            actions += folded.changesValue ? [.transaction(startActions)] : startActions.map { .transaction([$0]) }
            foldsAfter.append(actions.count - 1)
        }
        // A base transaction that changes the state, and the version it starts from: the
        // moves of tags below need one.
        var changing: (from: HistoryVersion, actions: [Action])?
        for version in scope.versionsInOrder.dropFirst() {
            let step = scope.step(to: version)!
            move(to: scope.parent(of: version)!)
            if let author = step.author, let isUndo = step.isAuthorUndo {
                // Made by a per-author move, which replays as that move.
                actions.append(isUndo ? .undo(by: author) : .redo(by: author))
            } else {
                guard let stepActions = step.annotation.actions as? [Action] else { throw .actionTypeMismatch }
                actions.append(.transaction(stepActions))
                if changing == nil, !stepActions.isEmpty { changing = (scope.parent(of: version)!, stepActions) }
            }
            order.append(version)
            position = order.count - 1
        }
        placeTags(of: scope, location: location, placed: placed, after: tagsAfter, changing: changing)
        restoreBranchOrder(of: scope)
        move(to: scope.currentVersionID)
    }

    /// Tags the rebuilt scope's versions as `after` says, making the same tag moves as the
    /// scope made: a tag the scope moved must be moved here too, off the version it named
    /// before (where `location` says it is now), so the scope remembers where to put it
    /// back when it is abandoned. Tags in `placed` are moved already.
    ///
    /// The moves are made in the order the scope made them: abandoning a scope puts its
    /// tags back in that order, each after the tags already on the version it goes back to,
    /// so a version's tags are listed in that order then.
    private mutating func placeTags(
        of scope: Scope,
        location: [HistoryTag: HistoryVersion],
        placed: Set<HistoryTag>,
        after: [(tag: HistoryTag, version: HistoryVersion)],
        changing: (from: HistoryVersion, actions: [Action])?
    ) {
        var location = location
        let final = Dictionary(after.map { ($0.tag, $0.version) }, uniquingKeysWith: { $1 })
        var moved: Set<HistoryTag> = []
        var away: [HistoryTag] = []
        var offDropped: [HistoryTag] = []
        // Moves that tagging the tag where it ends makes, since the last of `away`.
        var direct: [HistoryTag] = []
        for (tag, previous) in scope.movedTags where !placed.contains(tag) {
            if location[tag] == nil, index(of: previous) != nil {
                // Made in this scope, then moved: made first where it was.
                move(to: previous)
                actions.append(.tag(tag))
                location[tag] = previous
            }
            moved.insert(tag)
            if location[tag] == previous {
                // Tagging it where it ends makes the move, unless it ends where it was, or
                // on no version.
                if let end = final[tag], end != previous, index(of: end) != nil {
                    direct.append(tag)
                    continue
                }
                // The moves before this one are made with it, through the dropped version;
                // the tags are then placed where they end with the others.
                away += direct + [tag]
                direct = []
            } else if location[tag] == nil {
                offDropped.append(tag)
            } else {
                keepsEveryTagMove = false
            }
        }
        if !away.isEmpty || !offDropped.isEmpty {
            if let changing {
                move(to: changing.from)
                remakeMovesThroughDroppedVersions(away: away, offDropped: offDropped, changing: changing.actions)
                for tag in away + offDropped { location[tag] = nil }
            } else {
                keepsEveryTagMove = false
            }
        }
        // Each version gets its tags in the order they were given, if any of them is new
        // there: tagging a tag again where it is only puts it last.
        var versions: [HistoryVersion] = []
        for entry in after where index(of: entry.version) != nil && !versions.contains(entry.version) {
            versions.append(entry.version)
        }
        let tagsOf = versions.map { version in after.filter { $0.version == version }.map(\.tag) }
        if tagsOf.joined().filter(direct.contains) != direct {
            // Tagging the versions below would make these moves in another order: they are
            // made first, one by one, and the versions below are then given their order.
            for tag in direct {
                move(to: final[tag]!)
                actions.append(.tag(tag))
                location[tag] = final[tag]
            }
        }
        for (version, tags) in zip(versions, tagsOf) {
            guard tags.contains(where: { location[$0] != version || moved.contains($0) }) else { continue }
            move(to: version)
            actions += tags.map { .tag($0) }
            for tag in tags { location[tag] = version }
        }
    }

    /// Remakes the tag moves that take a version made and dropped again, in scopes of their
    /// own pushed on the current version, where the transaction `changing` makes a version:
    /// popped with no change, such a scope drops its versions and hands its tag moves to the
    /// scope being rebuilt. `away` are tags moved from where they are onto a version that
    /// went; `offDropped`, tags moved off a version that went. Neither is on a version after.
    private mutating func remakeMovesThroughDroppedVersions(away: [HistoryTag], offDropped: [HistoryTag], changing: [Action]) {
        if !away.isEmpty {
            actions += [.pushNewScope, .transaction(changing)] + away.map { .tag($0) } + [.undo, .popCurrentScope]
        }
        if !offDropped.isEmpty {
            // Made on a version of one scope, then moved off it in a scope inside that one,
            // which hands the move to the first, which hands it down.
            actions += [.pushNewScope, .transaction(changing)] + offDropped.map { .tag($0) } + [.undo]
            actions += [.pushNewScope, .transaction(changing)] + offDropped.map { .tag($0) }
            actions += [.undo, .popCurrentScope, .popCurrentScope]
        }
    }

    /// Visits the leaves of the scope's tree depth first, each version's branches in the
    /// order the scope keeps them: each move marks the branch it takes as the one redo
    /// follows, so the branches the rebuilt scope visits last are the scope's last ones.
    /// That order decides which branch redo follows once the one it followed goes.
    private mutating func restoreBranchOrder(of scope: Scope) {
        guard scope.versionsInOrder.contains(where: { scope.children(of: $0).count > 1 }) else { return }
        var pending = [scope.floor]
        while let version = pending.popLast() {
            let children = scope.children(of: version)
            if children.isEmpty {
                move(to: version)
            } else {
                pending += children.reversed()
            }
        }
    }
}
