import Observation
import Revertible

/// A client of a `VersioningController`, using it in one tracking mode with that mode's call
/// shapes, and holding the board the way such a client would.
protocol ControllerClient: AnyObject {
    associatedtype Root
    var controller: VersioningController<Root, Board, HistoryError> { get }
    /// The board as the client sees it.
    var board: Board { get }
    /// Whether an undo hands the client's board to the controller, so an edit the client did not
    /// append is recorded before it is undone. The returning direct `undo()` does not: it works
    /// on the controller's current version.
    var undoRecordsUnappendedEdits: Bool { get }

    /// The board `setWithTransaction` hands its body: the controller's current version, or the
    /// root object's. Equal to ``board``, but maybe spelled differently (see
    /// ``ReferenceHistory/apply(_:editing:undoRecordsUnappendedEdits:grouping:)``).
    var transactionInput: Board { get }

    func append(_ board: Board)
    func append(_ board: Board, tag: TestTag)
    /// Changes the client's board without telling the controller.
    func editWithoutAppending(_ board: Board)
    func undo() throws
    func redo() throws
    func undo(steps: Int) throws
    func redo(steps: Int) throws
    func undo(to tag: TestTag) throws
    func redo(to tag: TestTag) throws
    func undoCurrentScope() throws
    func redoCurrentScope() throws
    func popCurrentScope() throws
    func undoAndPopCurrentScope() throws
    func transaction(_ body: (inout Board) -> Void)
    /// Makes `board` the client's board and the controller's current version, without a step.
    func setWithoutTracking(_ board: Board)
    func move(to destination: HistoryDestination) throws
}

/// The tracking modes, each with its own client.
enum TrackingMode: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `VersioningController(board)`; `undo(&board)`, `redo(&board)`.
    case directInPlace
    /// `VersioningController(board)`; `board = try controller.undo()`.
    case directReturning
    /// `VersioningController(on: holder, at: \.board)` on a struct; `append(root:)`,
    /// `undo(root:)`.
    case valueKeyPath
    /// `VersioningController(on: model, at: \.board)` on a class; `appendCurrentVersion()`,
    /// `undo()` writing the model.
    case objectKeyPath
    /// `VersioningController(observing: model, at: \.board)` on an `@Observable` class: every
    /// change of the model is recorded on its own.
    case observing

    var description: String { rawValue }

    /// The modes where the client can change the tracked value without the controller
    /// recording it, so a wrong version can be set up: all but `observing`, which records
    /// every change.
    static let recordingOnRequest: [TrackingMode] = allCases.filter { $0 != .observing }

    func makeClient(tracking board: Board) -> any ControllerClient {
        switch self {
        case .directInPlace: DirectClient(board, inPlace: true)
        case .directReturning: DirectClient(board, inPlace: false)
        case .valueKeyPath: ValueKeyPathClient(board)
        case .objectKeyPath: ObjectRootClient(board, observing: false)
        case .observing: ObjectRootClient(board, observing: true)
        }
    }
}

final class DirectClient: ControllerClient {
    let controller: VersioningController<Board, Board, HistoryError>
    private(set) var board: Board
    private let inPlace: Bool

    init(_ board: Board, inPlace: Bool) {
        self.board = board
        self.inPlace = inPlace
        controller = VersioningController(board)
    }

    var undoRecordsUnappendedEdits: Bool { inPlace }
    var transactionInput: Board { controller.currentVersion }

    func append(_ board: Board) {
        self.board = board
        controller.append(board)
    }

    func append(_ board: Board, tag: TestTag) {
        self.board = board
        controller.append(board, tag: tag.value)
    }

    func editWithoutAppending(_ board: Board) { self.board = board }

    func undo() throws {
        if inPlace { try controller.undo(&board) } else { board = try controller.undo() }
    }

    func redo() throws {
        if inPlace { try controller.redo(&board) } else { board = try controller.redo() }
    }

    func undo(steps: Int) throws { board = try controller.undo(to: .steps(steps)) }
    func redo(steps: Int) throws { board = try controller.redo(to: .steps(steps)) }

    func undo(to tag: TestTag) throws {
        if inPlace { try controller.undo(&board, to: tag.target) } else { board = try controller.undo(to: tag.target) }
    }

    func redo(to tag: TestTag) throws {
        if inPlace { try controller.redo(&board, to: tag.target) } else { board = try controller.redo(to: tag.target) }
    }

    func undoCurrentScope() throws {
        if inPlace { try controller.undoCurrentScope(&board) } else { board = try controller.undoCurrentScope() }
    }

    func redoCurrentScope() throws {
        if inPlace { try controller.redoCurrentScope(&board) } else { board = try controller.redoCurrentScope() }
    }

    func popCurrentScope() throws { try controller.popCurrentScope() }

    func undoAndPopCurrentScope() throws {
        if inPlace { try controller.undoAndPopCurrentScope(&board) } else { board = try controller.undoAndPopCurrentScope() }
    }

    func transaction(_ body: (inout Board) -> Void) { board = controller.setWithTransaction(body) }

    func setWithoutTracking(_ board: Board) {
        self.board = board
        controller.setWithoutTracking(board)
    }

    func move(to destination: HistoryDestination) throws {
        if inPlace { try controller.move(&board, to: destination) } else { board = try controller.move(to: destination) }
    }
}

/// A struct root: only the tracked property counts, and `unrelated` changes with every append.
struct BoardHolder: Sendable {
    var board: Board
    var unrelated = 0
}

final class ValueKeyPathClient: ControllerClient {
    let controller: VersioningController<BoardHolder, Board, HistoryError>
    private var holder: BoardHolder

    init(_ board: Board) {
        holder = BoardHolder(board: board)
        controller = VersioningController(on: holder, at: \.board)
    }

    var board: Board { holder.board }
    var undoRecordsUnappendedEdits: Bool { true }
    var transactionInput: Board { controller.currentVersion }

    func append(_ board: Board) {
        holder.board = board
        holder.unrelated += 1
        controller.append(root: holder)
    }

    func append(_ board: Board, tag: TestTag) {
        holder.board = board
        holder.unrelated += 1
        controller.append(root: holder, tag: tag.value)
    }

    func editWithoutAppending(_ board: Board) { holder.board = board }
    func undo() throws { try controller.undo(root: &holder) }
    func redo() throws { try controller.redo(root: &holder) }
    func undo(steps: Int) throws { try controller.undo(root: &holder, to: .steps(steps)) }
    func redo(steps: Int) throws { try controller.redo(root: &holder, to: .steps(steps)) }
    func undo(to tag: TestTag) throws { try controller.undo(&holder.board, to: tag.target) }
    func redo(to tag: TestTag) throws { try controller.redo(&holder.board, to: tag.target) }
    func undoCurrentScope() throws { try controller.undoCurrentScope(root: &holder) }
    func redoCurrentScope() throws { try controller.redoCurrentScope(&holder.board) }
    func popCurrentScope() throws { try controller.popCurrentScope() }
    func undoAndPopCurrentScope() throws { try controller.undoAndPopCurrentScope(root: &holder) }
    func transaction(_ body: (inout Board) -> Void) { holder.board = controller.setWithTransaction(body) }

    func setWithoutTracking(_ board: Board) {
        holder.board = board
        controller.setWithoutTracking(board)
    }

    func move(to destination: HistoryDestination) throws { try controller.move(root: &holder, to: destination) }
}

/// A class root the controller reads and writes itself; `@Observable`, so the same model
/// serves the observing mode.
@Observable
final class BoardModel {
    var board: Board
    var unrelated = 0

    init(board: Board) {
        self.board = board
    }
}

/// A client of a controller with an object root: either it appends the model's board
/// (`VersioningController(on:at:)`), or the controller observes the model and records every
/// change itself (`VersioningController(observing:at:)`).
final class ObjectRootClient: ControllerClient {
    let controller: VersioningController<BoardModel, Board, HistoryError>
    private let model: BoardModel
    private let observing: Bool

    init(_ board: Board, observing: Bool) {
        model = BoardModel(board: board)
        self.observing = observing
        controller = observing
            ? VersioningController(observing: model, at: \.board)
            : VersioningController(on: model, at: \.board)
    }

    var board: Board { model.board }
    var undoRecordsUnappendedEdits: Bool { true }
    var transactionInput: Board { model.board }

    func append(_ board: Board) {
        model.board = board
        model.unrelated += 1
        if !observing { controller.appendCurrentVersion() }
    }

    func append(_ board: Board, tag: TestTag) {
        model.board = board
        if observing { controller.tag(tag.value) } else { controller.appendCurrentVersion(tag: tag.value) }
    }

    func editWithoutAppending(_ board: Board) { model.board = board }
    func undo() throws { try controller.undo() }
    func redo() throws { try controller.redo() }
    func undo(steps: Int) throws { try controller.undo(to: .steps(steps)) }
    func redo(steps: Int) throws { try controller.redo(to: .steps(steps)) }
    func undo(to tag: TestTag) throws { try controller.undo(to: tag.target) }
    func redo(to tag: TestTag) throws { try controller.redo(to: tag.target) }
    func undoCurrentScope() throws { try controller.undoCurrentScope() }
    func redoCurrentScope() throws { try controller.redoCurrentScope() }
    func popCurrentScope() throws { try controller.popCurrentScope() }
    func undoAndPopCurrentScope() throws { try controller.undoAndPopCurrentScope() }
    func transaction(_ body: (inout Board) -> Void) { controller.setWithTransaction(body) }
    func setWithoutTracking(_ board: Board) { controller.setWithoutTracking(board) }
    func move(to destination: HistoryDestination) throws { try controller.move(to: destination) }
}

extension ControllerClient {
    func pushNewScope() { controller.pushNewScope() }
    func tag(_ tag: TestTag) { controller.tag(tag.value) }
}

extension ControllerClient {
    func location(of tag: String) -> HistoryTagLocation { controller.location(of: tag) }
}
