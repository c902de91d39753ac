import Foundation
import Revertible
import Testing
import UndoableReducer

/// Issue 22, bug 2: a reducer history with a limit of 2, saved inside an open scope whose
/// start the limit trimmed, did not load again ("the present is not the version the history
/// stands at: the step to v3 does not apply at \Heading.title"). The scope re-spelled a
/// string in a canonically equivalent form, which the fold of its oldest steps into its start
/// did not keep (fixed with issue 26), and loading compared bytes, not equality (bug 5).
@Suite("Undoable: a trimmed open scope saves and loads")
struct UndoableTrimmedScopeArchiveTests {

    struct Heading: Versionable, Codable, Sendable, Equatable {
        var title: String
        var count: Int

        func addReversions(into reverter: inout some Reverter<Heading>) {
            reverter.appendReversion(at: \.title)
            reverter.appendReversion(at: \.count)
        }
    }

    enum Edit: Sendable {
        case count
        case respell
        case extend
    }

    static let composed = "\u{E9}"
    static let decomposed = "e\u{301}"

    let reducer = Reduce<Heading, Edit> { state, edit in
        switch edit {
        case .count: state.count += 1
        case .respell: state.title = state.title == composed ? decomposed : composed
        case .extend: state.title += "x"
        }
        return .none
    }.undoable(UndoableOptions(historyLimit: 2))

    @Test("Saved with a limit of 2 inside a trimmed scope that re-spelled a string, the history loads and the scope still ends")
    func trimmedScopeWithRespelling() throws {
        var state = UndoableState(Heading(title: Self.composed, count: 0))
        for action: UndoableAction<Edit> in [.action(.count), .pushNewScope, .action(.extend), .action(.respell), .action(.respell), .action(.respell)] {
            _ = reducer.reduce(into: &state, action: action)
        }
        #expect(state.scopeLevel == 1)
        var loaded = try UndoableState(present: state.present, archive: state.archive)
        #expect(loaded.scopeLevel == 1 && loaded.undoCount == state.undoCount)
        let decoded = try JSONDecoder().decode(UndoableState<Heading>.self, from: JSONEncoder().encode(state))
        #expect(decoded.present == state.present)
        _ = reducer.reduce(into: &loaded, action: .undoAndPopCurrentScope)
        #expect(loaded.error == nil)
        #expect(loaded.scopeLevel == 0)
        #expect(loaded.present == Heading(title: Self.composed, count: 1))
    }
}
