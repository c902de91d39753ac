import TestSupport

extension ReferenceHistory where Value == Board {

    /// A model of a board's history: the cursor (written only without tracking) and the
    /// ignored hovers, at the top and nested in `view`, are untracked.
    init(board: Board) {
        self.init(board, untracked: [UntrackedPart(\.cursor), UntrackedPart(\.hover), UntrackedPart(\.view.hover)])
    }

    /// What `operation` does to the history, by the rules of ``ReferenceHistory``.
    ///
    /// - Parameters:
    ///   - board: The board the client edits: equal to ``current``, but edits work on exact
    ///     bytes (a string's canonically equivalent spellings are equal and edit differently),
    ///     so the model must record the very boards the client records.
    ///   - undoRecordsUnappendedEdits: Whether the client's undo hands its edited board to the
    ///     controller (see ``ControllerClient/undoRecordsUnappendedEdits``).
    ///   - grouping: Whether grouped appends group (the controller debounces); if not, they are
    ///     plain appends.
    /// - Returns: Why the model refuses the operation, if it does.
    @discardableResult
    mutating func apply(_ operation: HistoryOperation, editing board: Board, undoRecordsUnappendedEdits: Bool = true, grouping: Bool = true) -> Refusal? {
        switch operation {
        case let .append(edit): record(edit.applied(to: board))
        case let .appendTagged(edit, tag): record(edit.applied(to: board), tag: tag.anyHashable)
        case .appendUnchanged: record(board)
        case let .appendGrouped(edit): record(edit.applied(to: board), grouped: grouping)
        case let .undoUnappendedEdit(edit):
            if undoRecordsUnappendedEdits { record(edit.applied(to: board)) }
            return undo()
        case .undo: return undo()
        case .redo: return redo()
        case let .undoSteps(count): return undo(steps: count)
        case let .redoSteps(count): return redo(steps: count)
        case let .tag(tag): self.tag(tag.anyHashable)
        case let .undoToTag(tag): return undo(to: tag.anyHashable)
        case let .redoToTag(tag): return redo(to: tag.anyHashable)
        case .pushScope: pushScope()
        case .popScope: return popScope()
        case .discardScope: return discardScope()
        case .undoScope: return undo(steps: undoCount)
        case .redoScope: return redo(steps: redoCount)
        case let .transaction(edits): record(edits.reduce(board) { $1.applied(to: $0) }, opensGroup: false)
        case let .setLimit(limit): self.limit = limit
        case .removeAll: removeAll()
        case let .setCursorWithoutTracking(cursor):
            var board = board
            board.cursor = cursor
            recordWithoutTracking(board)
        case let .appendWithHover(edit, hover):
            var board = edit.applied(to: board)
            board.hover(hover, zooming: true)
            record(board)
        case let .hover(hover):
            var board = board
            board.hover(hover)
            record(board)
        case let .moveToVersion(place): return move(toVersion: versionID(atPlace: place))
        case let .moveToTag(tag): return move(toTag: tag.anyHashable)
        case let .moveEarlier(count): return move(earlierBy: count)
        case let .moveToEnd(oldest): return move(toOldest: oldest)
        case .stopGrouping: stopGrouping()
        case .saveAndLoad, .saveToStoreAndReopen: reload()
        }
        return nil
    }
}
