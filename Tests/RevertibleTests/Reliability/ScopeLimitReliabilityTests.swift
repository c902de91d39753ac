import Testing
import Revertible
import TestSupport

/// Scopes under a history limit, on a controller, held to ``ReferenceHistory`` step by step:
/// the sequences the reducer's randomized suite found (issue 26), and the rule that a scope
/// never costs anything older than its own start (issue 27).
@Suite("Reliability: scopes under a history limit")
struct ScopeLimitReliabilityTests {

    /// The store suite's shelf, as a plain value: items, counts, a note and a name.
    struct Shelf: Versionable, Equatable, Sendable {
        struct Item: Identifiable, Versionable, Equatable, Sendable {
            let id: Int
            var title: String
            var done = false

            func addReversions(into reverter: inout some Reverter<Item>) {
                reverter.appendReversion(at: \.title)
                reverter.appendReversion(at: \.done)
            }
        }

        var items: [Item]
        var counts: [String: Int] = [:]
        var note: String?
        var name: String

        func addReversions(into reverter: inout some Reverter<Shelf>) {
            reverter.appendReversion(at: \.items)
            reverter.appendReversion(at: \.counts)
            reverter.appendReversion(at: \.note)
            reverter.appendReversion(at: \.name)
        }
    }

    /// An edit, with positions taken modulo the count as the store suite's reducer does, or a
    /// scope command.
    enum Operation {
        case edit((inout Shelf) -> Void)
        case push, pop, abandon, undo

        static func insert(_ id: Int, _ title: String, at index: Int) -> Operation {
            .edit { $0.items.insert(Shelf.Item(id: id, title: title), at: index % ($0.items.count + 1)) }
        }
        static func remove(at index: Int) -> Operation {
            .edit { if !$0.items.isEmpty { $0.items.remove(at: index % $0.items.count) } }
        }
        static func rename(at index: Int, _ title: String) -> Operation {
            .edit { if !$0.items.isEmpty { $0.items[index % $0.items.count].title = title } }
        }
        static func toggle(at index: Int) -> Operation {
            .edit { if !$0.items.isEmpty { $0.items[index % $0.items.count].done.toggle() } }
        }
        static func count(_ key: String, _ value: Int?) -> Operation { .edit { $0.counts[key] = value } }
        static func note(_ note: String?) -> Operation { .edit { $0.note = note } }
        static func name(_ name: String) -> Operation { .edit { $0.name = name } }
    }

    /// Runs `operations` on a controller (direct, in place) and on the model; after each, the
    /// controller must throw nothing and show the model's value, scope level and counts.
    func run(_ operations: [Operation], from initial: Shelf, limit: Int) throws {
        var value = initial
        let controller = VersioningController(value, historyLimit: limit)
        var model = ReferenceHistory(initial, limit: limit)
        for (index, operation) in operations.enumerated() {
            switch operation {
            case let .edit(edit):
                edit(&value)
                controller.append(value)
                model.record(value, opensGroup: false)
            case .push:
                controller.pushNewScope()
                model.pushScope()
            case .pop:
                try controller.popCurrentScope()
                model.popScope()
            case .abandon:
                try controller.undoAndPopCurrentScope(&value)
                model.discardScope()
            case .undo:
                try controller.undo(&value)
                model.undo()
            }
            #expect(value == model.current, "operation \(index + 1)")
            #expect(controller.scopeLevel == model.scopeLevel, "operation \(index + 1)")
            #expect(controller.undoCount == model.undoCount && controller.redoCount == model.redoCount, "operation \(index + 1)")
        }
    }

    /// The store suite's seed 1236 (limit 8), shrunk to 22 operations, on a controller; see
    /// `UndoableReliabilityTests.seed1236` for what went wrong. Either order of the two
    /// spellings of `"é"` failed, with a wrong version at `\Shelf.name` on the last pop.
    @Test("Abandoning a scope the limit folded keeps the scope below poppable (seed 1236)", arguments: [
        ("\u{E9}", "e\u{301}"), ("e\u{301}", "\u{E9}"),
    ])
    func seed1236(first: String, second: String) throws {
        let initial = Shelf(items: [.init(id: -1, title: "start 0"), .init(id: -2, title: "start 1")], counts: ["x": 1], name: "shelf")
        try run([
            .push, .count("y", 0), .name(first), .insert(15, "long title here", at: 4),
            .push, .name(""), .rename(at: 0, "😀"), .name(second), .count("y", nil),
            .remove(at: 0), .rename(at: 3, "milk"), .remove(at: 2), .note("milk"),
            .push, .toggle(at: 1), .push, .toggle(at: 4), .pop,
            .remove(at: 5), .pop, .abandon, .pop,
        ], from: initial, limit: 8)
    }

    @Test("A scope's folded start restores a re-spelled string exactly", arguments: [
        ("\u{E9}", "e\u{301}"), ("e\u{301}", "\u{E9}"),
    ])
    func foldedStartKeepsSpelling(before: String, inside: String) throws {
        try run([
            .name(before), .push, .name("x"), .name(inside), .count("y", 1), .note("n"), .abandon, .undo,
        ], from: Shelf(items: [], name: "shelf"), limit: 1)
    }

    /// The fold above, with a kept step that changes the re-spelled string again: that step
    /// was made from the other spelling, so it is made again from the start's.
    @Test("A kept step over a re-spelled string still undoes after the fold", arguments: [
        ("\u{E9}", "e\u{301}"), ("e\u{301}", "\u{E9}"),
    ])
    func keptStepOverReSpelling(before: String, inside: String) throws {
        try run([
            .name(before), .push, .name("x"), .name(inside), .count("y", 1), .name("zz"),
            .undo, .undo, .abandon, .undo,
        ], from: Shelf(items: [], name: "shelf"), limit: 2)
        try run([
            .name(before), .push, .name("x"), .name(inside), .count("y", 1), .name("zz"), .pop, .undo,
        ], from: Shelf(items: [], name: "shelf"), limit: 2)
    }

    /// Issue 27, item 1, in the engine: the first step of a scope pushed the one step before
    /// it out of a history limited to 1.
    @Test("A scope under a limit of 1 keeps the step before it until it ends, then the limit applies")
    func scopeKeepsTheStepBeforeIt() throws {
        var value = Shelf(items: [], name: "list")
        let controller = VersioningController(value, historyLimit: 1)
        value.items.append(.init(id: 1, title: "milk"))
        controller.append(value)
        controller.pushNewScope()
        for (id, title) in [(2, "eggs"), (3, "tea")] {
            value.items.append(.init(id: id, title: title))
            controller.append(value)
        }
        #expect(controller.undoCount == 1)
        #expect(controller.steps(inScopeLevel: 0)?.undo.count == 1)
        try controller.undoAndPopCurrentScope(&value)
        #expect(value.items.map(\.id) == [1] && controller.hasUndo)
        try controller.undo(&value)
        #expect(value.items.isEmpty)

        // Lowering the limit inside a scope trims only the scope; the scope below is trimmed
        // when it ends.
        controller.historyLimit = nil
        for id in 4...6 {
            value.items.append(.init(id: id, title: "item"))
            controller.append(value)
        }
        controller.pushNewScope()
        value.name = "renamed"
        controller.append(value)
        value.note = "noted"
        controller.append(value)
        controller.historyLimit = 1
        #expect(controller.undoCount == 1)
        #expect(controller.steps(inScopeLevel: 0)?.undo.count == 3)
        try controller.popCurrentScope()
        #expect(controller.undoCount == 1 && controller.tree().count == 1)
        try controller.undo(&value)
        #expect(value.name == "list" && value.note == nil && value.items.count == 3)
    }
}
