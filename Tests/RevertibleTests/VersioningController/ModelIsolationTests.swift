import Foundation
import Observation
import Testing
import Revertible

/// The README's model that owns its controller in a `lazy var`.
@MainActor
@Observable
final class LazyDocumentModel {
    var text: String
    @ObservationIgnored lazy var history = VersioningController(observing: self, at: \.text)

    init(text: String) {
        self.text = text
        _ = history
    }
}

/// A controller owned by a `@MainActor` model belongs to the main actor, however it was made.
@Suite("Controller isolation of a model's own controller")
struct ModelIsolationTests {

    @Test("A lazy controller of a main-actor model works on the main actor")
    @MainActor
    func lazyControllerOnMainActor() throws {
        let document = LazyDocumentModel(text: "Hello")
        document.text = "Hello, world"
        try document.history.undo()
        #expect(document.text == "Hello")
        #expect(document.history.hasRedo)
    }

    @Test("A lazy controller of a main-actor model traps when used off the main actor")
    func lazyControllerOffMainActorTraps() async {
        await #expect(processExitsWith: .failure) {
            let history = await MainActor.run {
                let document = LazyDocumentModel(text: "Hello")
                document.text = "Hello, world"
                // Kept alive past this closure, so the controller still has its root.
                _ = Unmanaged.passRetained(document).toOpaque()
                return document.history
            }
            // Off the main actor: the controller would write the model from this thread.
            await Task.detached { _ = try? history.undo() }.value
        }
    }
}
