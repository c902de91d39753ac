import Foundation
import Revertible
import TestSupport

/// Runs a sequence of operations on a fresh controller (in one tracking mode) and on
/// ``ReferenceHistory`` side by side, and compares everything a client can observe after each
/// operation. A failing sequence can be shrunk to a short one that still fails.
struct ModelBasedRun {
    let mode: TrackingMode
    let initial: Board
    /// Whether the controller debounces (1 s, on a manual clock), so that grouped appends join
    /// the previous step: they come 10 ms after the previous operation, other appends 10 s
    /// after. Operations that record nothing take no time at all, so it is they, not the
    /// clock, that must close the group.
    let debounces: Bool

    typealias Failure = ModelFailure

    func firstFailure(of operations: [HistoryOperation]) -> Failure? {
        firstFailure(of: operations, client: mode.makeClient(tracking: initial))
    }

    private func firstFailure(of operations: [HistoryOperation], client: some ControllerClient) -> Failure? {
        let clock = TestClock()
        if debounces { client.controller.withDebouncing(clock: clock, interval: .seconds(1)) }
        var model = ReferenceHistory(board: initial)
        let store = StepStoreInUse()
        // The last refusal stays in `error` until a command succeeds.
        var expectedError: ReferenceHistory<Board>.Refusal?
        for (index, operation) in operations.enumerated() {
            clock.advance(by: operation.recordsAfter)
            let isTransaction = if case .transaction = operation { true } else { false }
            let refusal = model.apply(
                operation,
                editing: isTransaction ? client.transactionInput : client.board,
                undoRecordsUnappendedEdits: client.undoRecordsUnappendedEdits,
                grouping: debounces
            )
            var thrown: HistoryError?
            do {
                try perform(operation, on: client, model: model, store: store)
            } catch let error as HistoryError {
                thrown = error
            } catch {
                return Failure(index: index, message: "\(operation) failed: \(error)", kind: "archive")
            }
            if let misuse = model.misuse {
                return Failure(index: index, message: "the test used the model wrongly: \(misuse)", kind: "model")
            }
            // The untracked changes here write only what no step writes, so no step can meet
            // a wrong version: such an error is a bug, though it is no refusal.
            if let error = thrown ?? client.controller.error, error.refusal == nil {
                return Failure(index: index, message: "\(operation) failed: \(error), where the model refuses nothing", kind: "wrongVersion")
            }
            if thrown?.refusal != refusal {
                let expected = refusal.map { "a refusal (\($0))" } ?? "no refusal"
                return Failure(index: index, message: "expected \(expected), the controller threw \(thrown.map { "\($0)" } ?? "nothing")", kind: "refusal")
            }
            if operation.isCommand { expectedError = refusal }
            if client.controller.error?.refusal != expectedError {
                return Failure(index: index, message: "error is \(String(describing: client.controller.error)), expected \(String(describing: expectedError))", kind: "error")
            }
            // The history checks itself in debug builds, but not one read from a store.
            if store.holdsHistory { client.controller._historyInvariantCheck() }
            if let (kind, message) = mismatch(between: client, and: model) {
                return Failure(index: index, message: message, kind: kind)
            }
        }
        return nil
    }

    /// Does `operation` the way the client would; the model's side is
    /// ``ReferenceHistory/apply(_:editing:undoRecordsUnappendedEdits:)``.
    private func perform(_ operation: HistoryOperation, on client: some ControllerClient, model: ReferenceHistory<Board>, store: StepStoreInUse) throws {
        let controller = client.controller
        switch operation {
        case let .append(edit): client.append(edit.applied(to: client.board))
        case let .appendTagged(edit, tag): client.append(edit.applied(to: client.board), tag: tag)
        case .appendUnchanged: client.append(client.board)
        case let .appendGrouped(edit): client.append(edit.applied(to: client.board))
        case let .undoUnappendedEdit(edit):
            client.editWithoutAppending(edit.applied(to: client.board))
            try client.undo()
        case .undo: try client.undo()
        case .redo: try client.redo()
        case let .undoSteps(count): try client.undo(steps: count)
        case let .redoSteps(count): try client.redo(steps: count)
        case let .tag(tag): controller.tag(tag.value)
        case let .undoToTag(tag): try client.undo(to: tag)
        case let .redoToTag(tag): try client.redo(to: tag)
        case .pushScope: controller.pushNewScope()
        case .popScope: try client.popCurrentScope()
        case .discardScope: try client.undoAndPopCurrentScope()
        case .undoScope: try client.undoCurrentScope()
        case .redoScope: try client.redoCurrentScope()
        case let .transaction(edits):
            client.transaction { board in
                for edit in edits { board = edit.applied(to: board) }
            }
        case let .setLimit(limit): controller.historyLimit = limit
        case .removeAll: controller.removeAllVersions()
        case let .setCursorWithoutTracking(cursor):
            var board = client.board
            board.cursor = cursor
            client.setWithoutTracking(board)
        case let .appendWithHover(edit, hover):
            var board = edit.applied(to: client.board)
            board.hover(hover, zooming: true)
            client.append(board)
        case let .hover(hover):
            var board = client.board
            board.hover(hover)
            client.append(board)
        case let .moveToVersion(place):
            try client.move(to: .version(HistoryVersion(UInt64(model.versionID(atPlace: place)))))
        case let .moveToTag(tag): try client.move(to: .tag(HistoryTag(tag.value)))
        case let .moveEarlier(count): try client.move(to: count >= 0 ? .earlier(count) : .later(-count))
        case let .moveToEnd(oldest): try client.move(to: oldest ? .oldest : .newest)
        case .stopGrouping: controller.stopGrouping()
        case .saveToStoreAndReopen:
            // A store holds one history: after a whole restore, the history starts a new one.
            if !store.holdsHistory { store.value = EncodedHistoryStepStore() }
            try controller.saveHistory(to: store.value)
            try controller.openHistory(from: store.value)
            store.holdsHistory = true
        case .saveAndLoad:
            store.holdsHistory = false
            let saved = try JSONEncoder().encode(controller.archive)
            try controller.restoreHistory(from: JSONDecoder().decode(HistoryArchive<Board>.self, from: saved))
        }
    }

    /// Everything a client can observe, compared with the model: the first difference found.
    private func mismatch(between client: some ControllerClient, and model: ReferenceHistory<Board>) -> (kind: String, message: String)? {
        let controller = client.controller
        if client.board != model.current {
            return ("value", "the client's board differs from the model's in \(differingFields(client.board, model.current))")
        }
        if controller.currentVersion != model.current {
            return ("value", "currentVersion differs from the model's in \(differingFields(controller.currentVersion, model.current))")
        }
        let observed = HistoryObservation(controller)
        if let difference = observed.firstDifference(from: HistoryObservation(model)) { return difference }
        // Step times never go backwards, whatever the clock and however often it was reloaded.
        let times = controller.tree().map(\.time)
        if times != times.sorted() {
            return ("time", "step times go backwards, in the order steps were made: \(times)")
        }
        return nil
    }

}

/// The store a run's controller saves to and reads from, once an operation opened it there.
private final class StepStoreInUse {
    var value = EncodedHistoryStepStore<Board>()
    /// Whether the controller's history is the one `value` holds (a whole restore makes a
    /// history the store does not hold).
    var holdsHistory = false
}

/// The names of the top-level fields where two boards differ.
func differingFields(_ lhs: Board, _ rhs: Board) -> String {
    let fields: [(String, (Board) -> AnyHashable)] = [
        ("name", { $0.name }), ("items", { $0.items }), ("labels", { $0.labels }), ("lookup", { $0.lookup }),
        ("mode", { $0.mode }), ("note", { $0.note }), ("rating", { $0.rating }), ("pinned", { $0.pinned }),
        ("body", { $0.body }), ("blob", { $0.blob }), ("scores", { $0.scores }),
        ("cursor", { $0.cursor }), ("hover", { $0.hover }), ("view", { $0.view }),
    ]
    return fields.filter { $0.1(lhs) != $0.1(rhs) }.map(\.0).joined(separator: ", ")
}

private extension HistoryOperation {
    /// Whether the operation is a command (it sets or clears `error`), not a recording.
    var isCommand: Bool {
        switch self {
        case .append, .appendUnchanged, .appendGrouped, .transaction, .setLimit,
             .setCursorWithoutTracking, .appendWithHover, .hover:
            false
        default:
            true
        }
    }

    /// How long after the previous operation this one comes, on the debouncing clock.
    var recordsAfter: Duration {
        switch self {
        case .appendGrouped: .milliseconds(10)
        // These record the client's board (an unappended edit is recorded before the undo).
        case .append, .appendTagged, .appendUnchanged, .undoUnappendedEdit, .appendWithHover, .hover: .seconds(10)
        // Right after the previous change, so that joining its burst would be wrong.
        case .transaction, .setCursorWithoutTracking: .milliseconds(10)
        default: .zero
        }
    }
}
