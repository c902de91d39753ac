import StateMachine
import Testing

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("Sendable states made off the main actor drive a main-actor object")
    func mainActorObject() async throws {
        let disabled = await Task.detached { MyView.Disabled(opacity: 0.25) }.value

        let alpha = try await MainActor.run {
            let view = MyView()
            view.set(disabled)
            try view.update(MyView.Disabled.self) { $0.opacity *= 2 }
            return view.alpha
        }

        #expect(alpha == 0.5)
    }

    @Test("Errors cross isolation boundaries")
    func errorsAreSendable() async {
        let error = await MainActor.run { () -> StateError? in
            do throws(StateError) {
                try MyView().update(MyView.Normal())
                return nil
            } catch {
                return error
            }
        }

        #expect(error == .wrongState(expected: String(reflecting: MyView.Normal.self), found: nil))
    }
}
