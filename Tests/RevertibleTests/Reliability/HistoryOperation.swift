import Revertible
/// One thing a client does to a history, as data: random sequences of these are run on a
/// controller and on ``ReferenceHistory``, and a failing sequence is shrunk by dropping some.
///
/// Each operation carries everything it needs (an edit carries its own random seed), so it
/// does the same thing wherever it lands in a shortened sequence.
enum HistoryOperation: Sendable, Equatable, CustomStringConvertible {
    /// Edit the board and append it.
    case append(BoardEdit)
    /// Edit the board and append it with a tag.
    case appendTagged(BoardEdit, TestTag)
    /// Append the board unchanged: no step.
    case appendUnchanged
    /// Edit the board and append it right after the previous change (within the debounce
    /// interval): it joins that change's step while the group is open.
    case appendGrouped(BoardEdit)
    /// Edit the board without appending it, then undo: the edit is recorded first, so it is what
    /// the undo takes back (where the client hands its value to the controller).
    case undoUnappendedEdit(BoardEdit)
    case undo
    case redo
    case undoSteps(Int)
    case redoSteps(Int)
    case tag(TestTag)
    case undoToTag(TestTag)
    case redoToTag(TestTag)
    case pushScope
    case popScope
    case discardScope
    case undoScope
    case redoScope
    /// Several edits in one `setWithTransaction`: one step.
    case transaction([BoardEdit])
    case setLimit(Int?)
    case removeAll
    /// Set the board's cursor with `setWithoutTracking`: no step, and undo keeps it.
    case setCursorWithoutTracking(Int)
    /// Edit the board (and `view.zoom`) and change its ignored hovers (`hover`, `view.hover`)
    /// in the same append.
    case appendWithHover(BoardEdit, Int)
    /// Change only the ignored hovers (`hover`, `view.hover`) and append: no step.
    case hover(Int)
    /// Move to a version of the current scope, chosen by its place in the order versions were
    /// made (modulo their count); a negative place names a version that never existed.
    case moveToVersion(Int)
    case moveToTag(TestTag)
    /// Move this many versions earlier (negative: later) in the order they were made; past
    /// either end stops there.
    case moveEarlier(Int)
    /// Move to the oldest (`true`) or newest version of the current scope.
    case moveToEnd(oldest: Bool)
    /// End the open group: the next grouped append starts a new step.
    case stopGrouping
    /// Encode the controller's archive as JSON and restore the history from it.
    case saveAndLoad
    /// Save what changed to a store of encoded steps and open the history over it again:
    /// from then on the controller reads each step from the store when a command crosses it.
    case saveToStoreAndReopen

    var description: String {
        switch self {
        case let .append(edit): "append(\(edit))"
        case let .appendTagged(edit, tag): "append(\(edit), tag: \(tag))"
        case .appendUnchanged: "appendUnchanged"
        case let .appendGrouped(edit): "appendGrouped(\(edit))"
        case let .undoUnappendedEdit(edit): "undoUnappendedEdit(\(edit))"
        case .undo: "undo"
        case .redo: "redo"
        case let .undoSteps(count): "undo(steps: \(count))"
        case let .redoSteps(count): "redo(steps: \(count))"
        case let .tag(tag): "tag(\(tag))"
        case let .undoToTag(tag): "undo(to: \(tag))"
        case let .redoToTag(tag): "redo(to: \(tag))"
        case .pushScope: "pushScope"
        case .popScope: "popScope"
        case .discardScope: "discardScope"
        case .undoScope: "undoScope"
        case .redoScope: "redoScope"
        case let .transaction(edits): "transaction(\(edits.map(\.description).joined(separator: ", ")))"
        case let .setLimit(limit): "setLimit(\(limit.map(String.init) ?? "nil"))"
        case .removeAll: "removeAll"
        case let .setCursorWithoutTracking(cursor): "setCursorWithoutTracking(\(cursor))"
        case let .appendWithHover(edit, hover): "appendWithHover(\(edit), \(hover))"
        case let .hover(hover): "hover(\(hover))"
        case let .moveToVersion(place): "moveToVersion(\(place))"
        case let .moveToTag(tag): "move(to: \(tag))"
        case let .moveEarlier(count): "moveEarlier(\(count))"
        case let .moveToEnd(oldest): oldest ? "move(to: .oldest)" : "move(to: .newest)"
        case .stopGrouping: "stopGrouping"
        case .saveAndLoad: "saveAndLoad"
        case .saveToStoreAndReopen: "saveToStoreAndReopen"
        }
    }
}

/// A random edit of a board: one to four changes of any kind (`BoardFactory.edit`).
struct BoardEdit: Sendable, Equatable, CustomStringConvertible {
    let seed: UInt64
    /// New items get ids from here on, unique across the whole sequence.
    let firstID: Int

    func applied(to board: Board) -> Board {
        var factory = BoardFactory(seed: seed, firstID: firstID)
        return factory.edit(board)
    }

    var description: String { "edit \(seed)" }
}

/// A tag: mostly strings, some integers, so tags of different types meet (`1` is not `"1"`).
enum TestTag: Sendable, Hashable, CustomStringConvertible {
    case text(String)
    case number(Int)

    /// The tags a sequence uses; `unknown` is never given to a version.
    static let pool: [TestTag] = [.text("a"), .text("b"), .text("c"), .number(1), .text("1")]
    static let unknown = TestTag.text("never tagged")

    var value: any Hashable & Sendable {
        switch self {
        case let .text(text): text
        case let .number(number): number
        }
    }

    var anyHashable: AnyHashable { AnyHashable(value) }

    /// The controller's target for this tag.
    var target: HistoryDestination { .tag(HistoryTag(value)) }

    var description: String {
        switch self {
        case let .text(text): "\"\(text)\""
        case let .number(number): "\(number)"
        }
    }
}

extension HistoryOperation {

    /// A seeded random sequence that mixes every operation, weighted towards edits and moves
    /// so histories grow deep enough for scopes, tags and limits to matter.
    static func randomSequence(seed: UInt64, count: Int) -> [HistoryOperation] {
        var random = SeededGenerator(seed: seed)
        var nextEdit = 0
        func edit() -> BoardEdit {
            nextEdit += 1
            return BoardEdit(seed: random.next(), firstID: nextEdit * 10_000)
        }
        func tag(includingUnknown: Bool = false) -> TestTag {
            if includingUnknown, random.chance(0.15) { return .unknown }
            return TestTag.pool.randomElement(using: &random)!
        }
        func stepCount() -> Int { Int.random(in: 0...4, using: &random) }

        func run(of make: () -> HistoryOperation) -> [HistoryOperation] {
            // Runs (five undos, then three redos) reach deep stacks.
            let length = random.chance(0.4) ? Int.random(in: 2...6, using: &random) : 1
            return (0..<length).map { _ in make() }
        }
        func tagTrip() -> [HistoryOperation] {
            // Tag, move on, come back: a jump of several steps to a tag.
            let name = tag()
            let away = (0..<Int.random(in: 2...5, using: &random)).map { _ in HistoryOperation.append(edit()) }
            return [.tag(name)] + away + [.undoToTag(name)] + (random.chance(0.6) ? [.redoToTag(tag())] : [])
        }

        let weighted: [(weight: Int, make: () -> [HistoryOperation])] = [
            (28, { run { .append(edit()) } }),
            (4, { [.appendTagged(edit(), tag())] }),
            (4, { [.appendUnchanged] }),
            (6, { run { .appendGrouped(edit()) } }),
            (3, { [.undoUnappendedEdit(edit())] }),
            (10, { run { .undo } }),
            (8, { run { .redo } }),
            (4, { [.undoSteps(stepCount())] }),
            (3, { [.redoSteps(stepCount())] }),
            (8, { [.tag(tag())] }),
            (6, { [.undoToTag(tag(includingUnknown: true))] }),
            (5, { [.redoToTag(tag(includingUnknown: true))] }),
            (2, tagTrip),
            (4, { [.pushScope] }),
            (4, { [.popScope] }),
            (2, { [.discardScope] }),
            (2, { [.undoScope] }),
            (2, { [.redoScope] }),
            (4, { [.transaction((0..<Int.random(in: 1...3, using: &random)).map { _ in edit() })] }),
            (2, { [.setLimit([nil, nil, 0, 1, 3, 8].randomElement(using: &random)!)] }),
            (1, { [.removeAll] }),
            (4, { [.setCursorWithoutTracking(Int.random(in: 0...1_000, using: &random))] }),
            (3, { [.appendWithHover(edit(), Int.random(in: 0...1_000, using: &random))] }),
            (3, { [.hover(Int.random(in: 0...1_000, using: &random))] }),
            (5, { [.moveToVersion(Int.random(in: -1...50, using: &random))] }),
            (3, { [.moveToTag(tag(includingUnknown: true))] }),
            (3, { [.moveEarlier(Int.random(in: -12...12, using: &random))] }),
            (2, { [.moveToEnd(oldest: random.chance(0.5))] }),
            (2, { [.stopGrouping] }),
            // A burst cut by stopGrouping, so the group it ends is open.
            (2, { [.appendGrouped(edit()), .appendGrouped(edit()), .stopGrouping, .appendGrouped(edit())] }),
            (3, { [.saveAndLoad] }),
            (4, { [.saveToStoreAndReopen] }),
        ]
        let total = weighted.reduce(0) { $0 + $1.weight }
        var operations: [HistoryOperation] = []
        while operations.count < count {
            var roll = Int.random(in: 0..<total, using: &random)
            let entry = weighted.first { entry in
                defer { roll -= entry.weight }
                return roll < entry.weight
            }!
            operations += entry.make().prefix(count - operations.count)
        }
        return operations
    }
}
