// The seeds of fuzz-history-archive: real saved histories, made through the public API and
// written as `UndoableState` writes them. Regenerate with
//
//     FUZZ_WRITE_SEEDS=Fuzz/Corpus/fuzz-history-archive Fuzz/.build/release/fuzz-history-archive -runs=0
import Foundation
import Revertible
import UndoableReducer

enum SeedEdit: Sendable {
    case rename(String)
    case count(Int)
    case label(UInt8)
    case limit(String, Int?)
    case note(String?)
    case pin(Card?)
    case score(UInt8)
    case add(Card)
    case remove(Int)
    case retitle(Int, String)
    case toggle(Int)
    case move(Int, Int)
}

let seedReducer = Reduce<Model, SeedEdit> { model, edit in
    switch edit {
    case let .rename(name): model.name = name
    case let .count(count): model.count = count
    case let .label(label): model.labels.formSymmetricDifference([label])
    case let .limit(key, value): model.limits[key] = value
    case let .note(note): model.note = note
    case let .pin(card): model.pinned = card
    case let .score(score): model.scores.append(score)
    case let .add(card): model.cards.append(card)
    case let .remove(index): if model.cards.indices.contains(index) { model.cards.remove(at: index) }
    case let .retitle(index, title): if model.cards.indices.contains(index) { model.cards[index].title = title }
    case let .toggle(index): if model.cards.indices.contains(index) { model.cards[index].done.toggle() }
    case let .move(from, to):
        if model.cards.indices.contains(from), model.cards.indices.contains(to) { model.cards.insert(model.cards.remove(at: from), at: to) }
    }
    return .none
}

func card(_ id: UInt8, _ title: String, done: Bool = false, tags: Set<UInt8> = []) -> Card {
    Card(id: id, title: title, done: done, tags: tags)
}

/// Each seed: a name and the actions that make it, from an empty model.
func seedScripts() -> [(String, [UndoableAction<SeedEdit>], Int?)] {
    let a: UndoableAction<SeedEdit> = .action(.add(card(1, "milk")))
    let b: UndoableAction<SeedEdit> = .action(.add(card(2, "bread", tags: [1, 2])))
    return [
        ("empty", [], nil),
        ("one-step", [.action(.rename("list"))], nil),
        ("every-property", [
            .action(.rename("groceries")), .action(.count(3)), .action(.label(7)), .action(.limit("max", 5)),
            .action(.note("é\u{301} 🇫🇷 \"q\"")), .action(.pin(card(9, "pinned"))), .action(.score(2)), a, b,
            .action(.retitle(0, "oat milk")), .action(.toggle(1)), .action(.move(1, 0)), .action(.remove(0)),
            .action(.limit("max", nil)), .action(.note(nil)), .action(.pin(nil)),
        ], nil),
        ("undone-half", [a, b, .action(.toggle(0)), .action(.rename("x")), .undo, .undo], nil),
        ("branches", [
            a, b, .undo, .action(.add(card(3, "eggs"))), .undo, .action(.add(card(4, "tea"))), .undo,
            .undo, .action(.rename("other branch")), .action(.count(-1)), .undo(to: .steps(2)),
        ], nil),
        ("tags", [
            a, .tag("saved"), b, .tag(HistoryTag(1)), .action(.toggle(0)), .tag("before import"),
            .action(.remove(1)), .undo(to: "saved"),
        ], nil),
        ("scopes", [
            a, .pushNewScope, b, .action(.retitle(1, "rye")), .pushNewScope, .action(.toggle(0)), .tag("inner"),
            .action(.count(42)), .undo,
        ], nil),
        ("scope-popped", [a, .pushNewScope, b, .action(.toggle(1)), .popCurrentScope, .action(.rename("after")), .undo], nil),
        ("limit", (0..<12).map { .action(.add(card(UInt8($0), "item \($0)"))) } + [.undo, .undo], 5),
        ("limit-scopes", [a, b, .pushNewScope] + (0..<8).map { .action(.count($0)) } + [.tag("t"), .undo], 3),
        ("moves", [
            a, b, .action(.toggle(0)), .undo, .action(.rename("n")), .move(to: .earlier(2)), .move(to: .later(1)),
        ], nil),
        ("long-list", (0..<24).map { .action(.add(card(UInt8($0 % 20), String(repeating: "x", count: $0 % 5)))) }
            + [.action(.move(0, 23)), .action(.remove(12)), .undo(to: .steps(3))], nil),
    ]
}

func writeSeeds(to directory: String) {
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for (name, actions, limit) in seedScripts() {
        // Labels on some seeds, so labelled and unlabelled steps are both seen.
        let labelled = name.count % 2 == 0
        let options = UndoableOptions<SeedEdit>(historyLimit: limit, label: { labelled ? String("\($0)".prefix(while: { $0 != "(" })) : nil })
        let reducer = Undoable(seedReducer, options: options)
        var state = UndoableState(Model())
        for action in actions {
            _ = reducer.reduce(into: &state, action: action)
            if let error = state.error { violation("seed \(name): \(action) failed: \(error)") }
        }
        do {
            let data = try encoder.encode(state)
            try data.write(to: URL(fileURLWithPath: directory).appendingPathComponent("\(name).json"))
            print("\(name).json: \(data.count) bytes, \(state.undoCount) undo, \(state.redoCount) redo, scope \(state.scopeLevel)")
        } catch {
            violation("seed \(name): \(error)")
        }
    }
}
