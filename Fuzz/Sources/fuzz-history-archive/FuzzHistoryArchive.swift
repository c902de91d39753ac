// fuzz-history-archive: a saved history, decoded from the bytes, then walked everywhere.
//
// The bytes are JSON, `{"present": …, "history": …}`, the form `UndoableState` saves. Each
// input is loaded two ways:
//
// 1. as an `UndoableState<Model>` (`JSONDecoder`), then undone and redone through the
//    `Undoable` reducer;
// 2. as a present `Model` and a `HistoryArchive<Model>`, restored into a
//    `VersioningController` with `restoreHistory(from:)` (once without a history limit and
//    once with one of 3, which trims what it loads).
//
// Loading may fail, with `DecodingError` or `HistoryArchiveError`. Loading checks the
// structure and the steps next to the present; every other step is checked where a command
// first reads or applies it (issue 37). So a history that loads is walked in every scope:
// undo all the way, redo all the way, a move to every version `tree()` lists and to every
// tag, then back to the version it was loaded at, then out of the scope
// (`undoAndPopCurrentScope`) to walk the one below. A copy ends every scope with
// `popCurrentScope` instead, then undoes and redoes to both ends of the outermost scope.
// When `HistoryArchive.validate(present:)` accepts the input, every one of these must
// succeed (issue 29: fully usable); when it refuses it, each may instead be refused with
// `HistoryError.unreadableStep` (the damage, found where it is read), and the walk goes on
// where it can. A step that does not apply (`wrongVersion`, `stepNotSquashed`) is a violation
// either way: loading, or the command that met it as damage, must have refused it. Every
// loop is bounded. Beyond that:
// - a move back to the version the history was loaded at gives exactly the present it was
//   loaded with;
// - a refused command (a move of too many steps, say, or one that met a damaged step)
//   changes neither the present nor the current version;
// - `undoCount` and `redoCount` match `steps()`; every version `tree()` lists is unique;
// - a loaded history saves again, and, when `validate(present:)` accepts the input, that
//   loads again, equal (`UndoableState`'s `==`).
//
// Both loads share the bytes, so an input that reaches deep in one reaches deep in the other.
// Each input is also read by the library's own JSON reader, through `Decoder` and as
// `HistoryArchive(json:)` reads an archive, which must read exactly what `JSONDecoder` reads
// (`compareReaders`, `compareArchiveReaders`).
//
// Seeds: real saved histories (scopes, tags, branches, a limit, long lists), written by this
// very executable when FUZZ_WRITE_SEEDS names a directory (see `writeSeeds`):
//
//     FUZZ_WRITE_SEEDS=Fuzz/Corpus/fuzz-history-archive Fuzz/.build/release/fuzz-history-archive -runs=0
import Foundation
import Revertible
import UndoableReducer

func violation(_ message: String) -> Never {
    fatalError(message)
}

/// An element of the list: ids from a small range, so a damaged archive easily names one
/// that is missing or repeated.
struct Card: Identifiable, Versionable, Hashable, Codable, Sendable {
    var id: UInt8
    var title: String
    var done: Bool
    var tags: Set<UInt8>

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.done)
        reverter.appendReversion(at: \.tags)
    }
}

/// A small model with one property of each kind of reversion that can be saved.
struct Model: Versionable, Equatable, Codable, Sendable {
    var name = ""
    var count = 0
    var labels: Set<UInt8> = []
    var limits: [String: Int] = [:]
    var note: String?
    var pinned: Card?
    var scores: [UInt8] = []
    var cards: [Card] = []

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.name)
        reverter.appendReversion(at: \.count)
        reverter.appendReversion(at: \.labels)
        reverter.appendReversion(at: \.limits)
        reverter.appendReversion(at: \.note)
        reverter.appendReversion(at: \.pinned)
        reverter.appendReversion(at: \.scores)
        reverter.appendReversion(at: \.cards)
    }
}

/// What a saved `UndoableState<Model>` holds, read as its two parts.
struct Saved: Decodable {
    var present: Model
    var history: HistoryArchive<Model>
}

// MARK: - Walking a history

/// The operations a walk needs, on either kind of loaded history.
protocol Walkable {
    var present: Model { get }
    var currentVersionID: HistoryVersion { get }
    var scopeLevel: Int { get }
    var undoCount: Int { get }
    var redoCount: Int { get }
    var hasUndo: Bool { get }
    var hasRedo: Bool { get }
    func tree() -> [HistoryStep]
    func steps() -> (undo: [HistoryStep], redo: [HistoryStep])
    /// Runs a command; the error if it was refused (the history's error set).
    mutating func perform(_ command: Command) -> HistoryError?
}

enum Command {
    case undo(HistoryDestination)
    case redo(HistoryDestination)
    case move(HistoryDestination)
    case undoAndPopCurrentScope
    case popCurrentScope
}

/// Runs `command` and checks that a refusal changed nothing, and that no step of the loaded
/// history fails to apply but as damage: loading checked the steps next to the present, and
/// a command that meets a damaged step refuses it as such.
///
/// - Returns: Whether the command succeeded, and whether it was refused for a damaged step.
@discardableResult
func perform(_ command: Command, on history: inout some Walkable) -> (succeeded: Bool, damage: Bool) {
    let present = history.present
    let version = history.currentVersionID
    let undoCount = history.undoCount
    guard let error = history.perform(command) else { return (true, false) }
    var damage = false
    switch error {
    case .stepRefused(.wrongVersion, _):
        violation("\(command) was refused on a history that loaded: \(error)")
    case .unreadableStep:
        damage = true
    default:
        break
    }
    if history.present != present { violation("\(command) was refused but changed the present") }
    if history.currentVersionID != version { violation("\(command) was refused but moved from \(version) to \(history.currentVersionID)") }
    if damage, history.undoCount != undoCount { violation("\(command) was refused but changed the undo count") }
    return (false, damage)
}

/// Runs `command`, which must succeed on a history that loaded, unless `damaged` (the input
/// failed `validate(present:)`) and it met a damaged step.
///
/// - Returns: Whether it succeeded.
@discardableResult
func require(_ command: Command, on history: inout some Walkable, damaged: Bool) -> Bool {
    let (succeeded, damage) = perform(command, on: &history)
    if !succeeded, !(damaged && damage) { violation("\(command) was refused on a history that loaded") }
    return succeeded
}

/// Walks every scope of `history`, innermost first, as the header says; with `damaged`, a
/// command refused for a damaged step ends that part of the walk.
func walk(_ history: inout some Walkable, damaged: Bool) {
    var scopes = 0
    while true {
        scopes += 1
        if scopes > 64 { violation("more than 64 scopes walked") }
        let loadedVersion = history.currentVersionID
        let loadedPresent = history.present
        // `steps()` stops short of a damaged step, which the counts, by depth, pass over.
        if !damaged { checkCounts(history) }

        var undos = 0
        while history.hasUndo, require(.undo(.steps(1)), on: &history, damaged: damaged) {
            undos += 1
            if undos > 100_000 { violation("undo never ends") }
        }
        var redos = 0
        while history.hasRedo, require(.redo(.steps(1)), on: &history, damaged: damaged) {
            redos += 1
            if redos > 100_000 { violation("redo never ends") }
        }
        // `steps()` stops short of a damaged step, which the counts, by depth, pass over.
        if !damaged { checkCounts(history) }

        let tree = history.tree()
        if Set(tree.map(\.version)).count != tree.count { violation("tree() lists a version twice: \(tree.map(\.version))") }
        if tree.count > 100_000 { violation("tree() lists \(tree.count) versions") }
        for step in tree {
            if require(.move(.version(step.version)), on: &history, damaged: damaged), history.currentVersionID != step.version {
                violation("a move to \(step.version) ended at \(history.currentVersionID)")
            }
            for tag in step.tags.prefix(4) {
                require(.move(.tag(tag)), on: &history, damaged: damaged)
            }
        }
        perform(.move(.earlier(Int.max)), on: &history)
        perform(.move(.later(Int.max)), on: &history)
        require(.undo(.steps(history.undoCount)), on: &history, damaged: damaged)
        require(.redo(.steps(history.redoCount)), on: &history, damaged: damaged)

        if require(.move(.version(loadedVersion)), on: &history, damaged: damaged) {
            if history.currentVersionID != loadedVersion { violation("a move back to \(loadedVersion) ended at \(history.currentVersionID)") }
            if history.present != loadedPresent {
                violation("back at \(loadedVersion), the present is \(history.present), not \(loadedPresent)")
            }
        }
        guard history.scopeLevel > 0 else { return }
        let level = history.scopeLevel
        guard require(.undoAndPopCurrentScope, on: &history, damaged: damaged) else { return }
        if history.scopeLevel != level - 1 { violation("undoAndPopCurrentScope left scope \(level) for \(history.scopeLevel)") }
    }
}

/// Ends every scope of `history` by popping it, then undoes and redoes the outermost scope
/// to both ends: each must succeed, unless `damaged` and it met a damaged step.
func popEveryScope(_ history: inout some Walkable, damaged: Bool) {
    var pops = 0
    while history.scopeLevel > 0 {
        let level = history.scopeLevel
        guard require(.popCurrentScope, on: &history, damaged: damaged) else { return }
        if history.scopeLevel != level - 1 { violation("popCurrentScope left scope \(level) for \(history.scopeLevel)") }
        pops += 1
        if pops > 64 { violation("more than 64 scopes popped") }
    }
    if require(.undo(.steps(history.undoCount)), on: &history, damaged: damaged), history.hasUndo {
        violation("undo to the start left \(history.undoCount) steps")
    }
    if require(.redo(.steps(history.redoCount)), on: &history, damaged: damaged), history.hasRedo {
        violation("redo to the end left \(history.redoCount) steps")
    }
}

func checkCounts(_ history: some Walkable) {
    let steps = history.steps()
    if steps.undo.count != history.undoCount || steps.redo.count != history.redoCount {
        violation("steps() has \(steps.undo.count) undo and \(steps.redo.count) redo, the counts say \(history.undoCount) and \(history.redoCount)")
    }
    if history.hasUndo != (history.undoCount > 0) || history.hasRedo != (history.redoCount > 0) {
        violation("hasUndo/hasRedo disagree with the counts")
    }
}

/// An `UndoableState` run by the `Undoable` reducer.
struct ReducerHistory: Walkable {
    enum Edit: Sendable { case rename(String) }
    var state: UndoableState<Model>
    let reducer = Undoable(Reduce<Model, Edit> { model, edit in
        switch edit { case let .rename(name): model.name = name }
        return .none
    })

    var present: Model { state.present }
    var currentVersionID: HistoryVersion { state.currentVersionID }
    var scopeLevel: Int { state.scopeLevel }
    var undoCount: Int { state.undoCount }
    var redoCount: Int { state.redoCount }
    var hasUndo: Bool { state.hasUndo }
    var hasRedo: Bool { state.hasRedo }
    func tree() -> [HistoryStep] { state.tree() }
    func steps() -> (undo: [HistoryStep], redo: [HistoryStep]) { state.steps() }

    mutating func perform(_ command: Command) -> HistoryError? {
        let action: UndoableAction<Edit> = switch command {
        case let .undo(target): .undo(to: target)
        case let .redo(target): .redo(to: target)
        case let .move(destination): .move(to: destination)
        case .undoAndPopCurrentScope: .undoAndPopCurrentScope
        case .popCurrentScope: .popCurrentScope
        }
        _ = reducer.reduce(into: &state, action: action)
        return state.error
    }
}

/// A `VersioningController` that restored the history.
struct ControllerHistory: Walkable {
    let controller: ValueVersioningController<Model>

    var present: Model { controller.currentVersion }
    var currentVersionID: HistoryVersion { controller.currentVersionID }
    var scopeLevel: Int { controller.scopeLevel }
    var undoCount: Int { controller.undoCount }
    var redoCount: Int { controller.redoCount }
    var hasUndo: Bool { controller.hasUndo }
    var hasRedo: Bool { controller.hasRedo }
    func tree() -> [HistoryStep] { controller.tree() }
    func steps() -> (undo: [HistoryStep], redo: [HistoryStep]) { controller.steps() }

    mutating func perform(_ command: Command) -> HistoryError? {
        do {
            switch command {
            case let .undo(target): _ = try controller.undo(to: target)
            case let .redo(target): _ = try controller.redo(to: target)
            case let .move(destination): _ = try controller.move(to: destination)
            case .undoAndPopCurrentScope: _ = try controller.undoAndPopCurrentScope()
            case .popCurrentScope: try controller.popCurrentScope()
            }
            return nil
        } catch {
            return error
        }
    }
}

// MARK: - The library's JSON reader

/// The library's own JSON reader (behind `HistoryArchive(json:)`) against `JSONDecoder`: what
/// `JSONDecoder` reads it reads, to the same present and archive; what `JSONDecoder` refuses it
/// refuses. It may refuse more only as not JSON: it checks every string and number as it
/// parses, where `JSONDecoder` checks only those something decodes.
func compareReaders(_ data: Data, saved: Saved?) {
    let read: Saved
    do {
        read = try JSONDocumentDecoding.decode(Saved.self, from: [UInt8](data))
    } catch {
        guard saved != nil else { return }
        if case let .dataCorrupted(context)? = error as? DecodingError, context.underlyingError is JSONSyntaxError { return }
        violation("JSONDecoder read the input, the library's JSON reader refused it: \(error)")
    }
    guard let saved else { violation("JSONDecoder refused the input, the library's JSON reader read it") }
    if read.present != saved.present { violation("the library's JSON reader read another present") }
    // By checksum, which counts a set's members in any order: two equal sets may encode them
    // in different orders (their hash seeds differ).
    guard let readArchive = try? HistoryArchiveChecksum.of(read.history), let savedArchive = try? HistoryArchiveChecksum.of(saved.history) else {
        violation("a read archive does not save")
    }
    if readArchive != savedArchive { violation("the library's JSON reader read another archive") }
}

/// The history alone, read by `JSONDecoder` as `HistoryArchive(json:)` reads it, with the
/// present left unread.
struct SavedHistory: Decodable {
    var history: HistoryArchive<Model>
}

/// `HistoryArchive(json:)`'s reading (the archive's own shapes straight from the parsed text,
/// not through `Decoder`) against `JSONDecoder`'s, of the history alone: the same archive, or
/// both refuse it (the reader may refuse more only as not JSON, as above).
func compareArchiveReaders(_ data: Data) {
    let saved = try? JSONDecoder().decode(SavedHistory.self, from: data).history
    let read: HistoryArchive<Model>
    do {
        read = try JSONDocumentDecoding.decodeArchive(HistoryArchive<Model>.self, underKey: "history", from: [UInt8](data))
    } catch {
        guard saved != nil else { return }
        if case let .dataCorrupted(context)? = error as? DecodingError, context.underlyingError is JSONSyntaxError { return }
        violation("JSONDecoder read the history, HistoryArchive(json:)'s reader refused it: \(error)")
    }
    guard let saved else { violation("JSONDecoder refused the history, HistoryArchive(json:)'s reader read it") }
    guard let readSum = try? HistoryArchiveChecksum.of(read), let savedSum = try? HistoryArchiveChecksum.of(saved) else {
        violation("a read archive does not save")
    }
    if readSum != savedSum { violation("HistoryArchive(json:)'s reader read another archive") }
}

// MARK: - The entry point

func fuzz(_ data: Data) {
    // Whether the input holds damage that a loaded history finds only where it reads it.
    let saved = try? JSONDecoder().decode(Saved.self, from: data)
    compareReaders(data, saved: saved)
    compareArchiveReaders(data)
    let damaged = saved.map { (try? $0.history.validate(present: $0.present)) == nil } ?? true

    // 1. As an `UndoableState`.
    if let state = try? JSONDecoder().decode(UndoableState<Model>.self, from: data) {
        if state.error != nil { violation("a loaded state has an error") }
        // It saves again, and, whole, that loads again, equal.
        let encoded: Data
        do { encoded = try JSONEncoder().encode(state) } catch { violation("a loaded state does not save: \(error)") }
        if !damaged {
            do {
                let reloaded = try JSONDecoder().decode(UndoableState<Model>.self, from: encoded)
                if reloaded != state { violation("a loaded state saved and loaded again differs") }
            } catch {
                violation("a loaded state, saved, does not load again: \(error)")
            }
        }
        var history = ReducerHistory(state: state)
        walk(&history, damaged: damaged)
        var popping = ReducerHistory(state: state)
        popEveryScope(&popping, damaged: damaged)
    }

    // 2. As a present and an archive, restored into controllers.
    guard let saved else { return }
    for limit in [nil, 3] as [Int?] {
        let controller = ValueVersioningController<Model>(saved.present, historyLimit: limit)
        do {
            try controller.restoreHistory(from: saved.history)
        } catch {
            // Refused: the controller is as it was.
            if controller.hasUndo || controller.hasRedo || controller.currentVersion != saved.present {
                violation("a refused archive changed the controller")
            }
            continue
        }
        if controller.error != nil { violation("a restored controller has an error") }
        var history = ControllerHistory(controller: controller)
        guard !damaged else {
            // A damaged step leaves a saved copy short of it: only the walk applies.
            walk(&history, damaged: true)
            let popped = ValueVersioningController<Model>(saved.present, historyLimit: limit)
            guard (try? popped.restoreHistory(from: saved.history)) != nil else { violation("a restored archive did not restore again") }
            var popping = ControllerHistory(controller: popped)
            popEveryScope(&popping, damaged: true)
            continue
        }
        // Its archive saves and restores again, onto the same present.
        let again = ValueVersioningController<Model>(controller.currentVersion)
        do {
            let archive = try JSONDecoder().decode(HistoryArchive<Model>.self, from: JSONEncoder().encode(controller.archive))
            try again.restoreHistory(from: archive)
        } catch {
            violation("a restored history, saved, does not restore again: \(error)")
        }
        if again.tree().map(\.version) != controller.tree().map(\.version) || again.currentVersionID != controller.currentVersionID {
            violation("a restored history saved and restored again differs")
        }
        walk(&history, damaged: false)
        var popping = ControllerHistory(controller: again)
        popEveryScope(&popping, damaged: false)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz(Data(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    if let directory = ProcessInfo.processInfo.environment["FUZZ_WRITE_SEEDS"] {
        writeSeeds(to: directory)
        exit(0)
    }
    return 0
}
