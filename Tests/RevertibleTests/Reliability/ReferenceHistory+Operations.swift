import TestSupport

extension ReferenceHistory where Value == Board {

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
    mutating func apply(_ operation: HistoryOperation, editing board: Board, undoRecordsUnappendedEdits: Bool = true, grouping: Bool = true) {
        switch operation {
        case let .append(edit): record(edit.applied(to: board))
        case let .appendTagged(edit, tag): record(edit.applied(to: board), tag: tag.anyHashable)
        case .appendUnchanged: record(board)
        case let .appendGrouped(edit): record(edit.applied(to: board), grouped: grouping)
        case let .undoUnappendedEdit(edit):
            if undoRecordsUnappendedEdits { record(edit.applied(to: board)) }
            undo()
        case .undo: undo()
        case .redo: redo()
        case let .undoSteps(count): undo(to: .steps(count))
        case let .redoSteps(count): redo(to: .steps(count))
        case let .tag(tag): self.tag(tag.anyHashable)
        case let .undo(to: .tag(tag)): undo(to: tag.anyHashable)
        case let .redo(to: .tag(tag)): redo(to: tag.anyHashable)
        case .pushNewScope: pushScope()
        case .popCurrentScope: popScope()
        case .undoAndPopCurrentScope: discardScope()
        case .undoScope: undo(to: .steps(undoCount))
        case .redoScope: redo(to: .steps(redoCount))
        case let .transaction(edits): record(edits.reduce(board) { $1.applied(to: $0) })
        case let .setLimit(limit): self.limit = limit
        case .removeAll: removeAll()
        }
    }
}
