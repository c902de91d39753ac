import Foundation
import Testing
import Revertible

/// Refusals name their location as Swift writes it, never as an address.
@Suite("Readable locations in errors")
struct ReadableLocationTests {

    struct Shape: Identifiable, Versionable, Codable {
        let id: Int
        var color: String
        var size = 1.0

        func addReversions(into reverter: inout some Reverter<Shape>) {
            reverter.appendReversion(at: \.color)
            reverter.appendReversion(at: \.size)
        }
    }

    struct Drawing: Versionable, Codable {
        var shapes: [Shape] = (0..<10).map { Shape(id: $0, color: "red") }
        var layers: TreeArray<Shape> = TreeArray((0..<10).map { Shape(id: $0, color: "red") })
        var counts: [String: Int] = ["apples": 1, "pears": 2]
        var selection: Shape? = Shape(id: 99, color: "red")

        func addReversions(into reverter: inout some Reverter<Drawing>) {
            reverter.appendReversion(at: \.shapes)
            reverter.appendReversion(at: \.layers)
            reverter.appendReversion(at: \.counts)
            reverter.appendReversion(at: \.selection)
        }
    }

    /// The error of reverting `edit` on a drawing that `conflict` changed first.
    func refusal(_ edit: (inout Drawing) -> Void, conflict: (inout Drawing) -> Void) throws -> ReversionError {
        let original = Drawing()
        var edited = original
        edit(&edited)
        let reversion = try #require(edited.reversion(to: original))
        conflict(&edited)
        let before = edited
        do {
            try reversion.revert(&edited)
        } catch {
            #expect(edited.shapes == before.shapes && edited.counts == before.counts)
            return error
        }
        Issue.record("The reversion was not refused")
        return .attemptingToRevertWrongVersion
    }

    func expectReadable(_ error: ReversionError, _ keyPath: String) {
        #expect(error.keyPath == keyPath)
        #expect(error.description.contains(keyPath))
        #expect(!error.description.contains("computed"))
        #expect(error.localizedDescription == error.description)
    }

    @Test("An element of an identifiable array is named by id")
    func arrayElement() throws {
        let error = try refusal({ $0.shapes[7].color = "blue" }, conflict: { $0.shapes[7].color = "green" })
        expectReadable(error, #"\Drawing.shapes[id: 7].color"#)
    }

    @Test("An element of a TreeArray is named by id")
    func treeElement() throws {
        let error = try refusal({ $0.layers[7].color = "blue" }, conflict: { $0.layers[7].color = "green" })
        expectReadable(error, #"\Drawing.layers[id: 7].color"#)
    }

    @Test("A dictionary entry is named by its key")
    func dictionaryEntry() throws {
        let error = try refusal({ $0.counts["apples"] = 5 }, conflict: { $0.counts["apples"] = 6 })
        expectReadable(error, #"\Drawing.counts["apples"]"#)
    }

    @Test("A location inside an optional is named through it")
    func optionalValue() throws {
        let error = try refusal({ $0.selection?.color = "blue" }, conflict: { $0.selection?.color = "green" })
        expectReadable(error, #"\Drawing.selection!.color"#)
    }

    @Test("A controller's refusal and a reversion's description are readable")
    func controllerRefusal() throws {
        var drawing = Drawing()
        let controller = ValueVersioningController(drawing)
        drawing.shapes[3].size = 2
        controller.append(drawing)
        drawing.shapes[3].size = 3
        controller.setWithoutTracking(drawing)
        #expect { try controller.undo(onConflict: .refuse) } throws: { ($0 as? HistoryError)?.isConflict == true }
        let error = try #require(controller.error)
        #expect(error.description.contains(#"\Drawing.shapes[id: 3].size"#))
        expectReadable(try #require(error.reversionError), #"\Drawing.shapes[id: 3].size"#)

        var other = Drawing()
        other.shapes[2].color = "blue"
        let reversion = try #require(other.reversion(to: Drawing()))
        #expect(!String(reflecting: reversion).contains("computed"))
    }
}

@Suite("Error descriptions")
struct ErrorDescriptionTests {

    @Test("Every refusal reason reads as a sentence, and as a localized description")
    func reasons() {
        let reversionErrors: [ReversionError] = [
            .attemptingToRevertWrongVersion,
            .conflict([ReversionConflict(location: #"\Note.title"#, expected: "a", found: "b")]),
        ]
        let historyErrors: [HistoryError] = [
            .stepsOutOfRange(requested: 3, available: 1),
            .stepsOutOfRange(requested: -1, available: 1),
            .unknownTag("saved"),
            .tagOutOfReach("saved", .ahead(steps: 1)),
            .noScopeToPop,
            .unknownVersion(HistoryVersion(4)),
            .versionOutOfReach(HistoryVersion(4)),
        ] + reversionErrors.map { .stepRefused($0) }
        for error in reversionErrors {
            #expect(error.description.hasSuffix("nothing was changed."))
            #expect((error as any Error).localizedDescription == error.description)
        }
        for error in historyErrors {
            #expect(error.description.hasSuffix("nothing was changed."))
            #expect((error as any Error).localizedDescription == error.description)
        }
        #expect(HistoryError.unknownTag(HistoryTag(7)).description.contains("“7”"))
        // A step's refusal reads as the reversion's own sentence, with the step of the move.
        let conflict = ReversionError.conflict([ReversionConflict(location: #"\Note.title"#, expected: "a", found: "b")])
        #expect(conflict.keyPath == #"\Note.title"#)
        #expect(HistoryError.stepRefused(conflict).description == conflict.description)
        let atStep = HistoryError.stepRefused(conflict, step: 2)
        #expect(atStep.description.contains(#"(at step 2 of the move): \Note.title (expected a, found b)"#))
        #expect(atStep == .stepRefused(conflict) && atStep.reversionError == conflict)
        if case .stepRefused(_, step: 2) = atStep {} else { Issue.record("expected step 2 to be kept: \(atStep)") }
    }
}
