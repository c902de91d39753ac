// The StaticState README's examples, statement for statement, with each
// comment about the result turned into an expectation. `MyView` and its
// states are declared in ReadmeExamplesTests.swift, as the README shows them.
import StateMachine
import Testing

@MainActor
@Suite("Setting, reading and resetting a state")
struct StateAssignmentTests {
    @Test("Assigning `state` directly keeps the last value assigned")
    func assigningStateDirectly() {
        let aView = MyView()

        aView.state = MyView.Disabled(opacity: 0.3)
        aView.state = MyView.Normal()
        aView.state = MyView.Highlighted(color: 1)

        #expect((aView.state as? MyView.Highlighted)?.color == 1)
    }

    @Test("`state` is nil until set, and belongs to its object")
    func stateBelongsToItsObject() {
        var aView = MyView()
        #expect(aView.state == nil)

        aView.state = MyView.Normal()
        #expect(aView.state is MyView.Normal)

        aView = MyView()
        #expect(aView.state == nil)

        aView.state = MyView.Disabled(opacity: 0.3)
        #expect((aView.state as? MyView.Disabled)?.opacity == 0.3)

        aView.state = nil
        #expect(aView.state == nil)
    }

    @Test("The helper functions")
    func helperFunctions() {
        let aView = MyView()

        aView.set(MyView.Normal())
        #expect(aView.state is MyView.Normal)

        aView.set(MyView.Disabled(opacity: 0.3))
        #expect((aView.state as? MyView.Disabled)?.opacity == 0.3)

        try? aView.update(MyView.Disabled.self){ $0.opacity += 0.2 }
        #expect((aView.state as? MyView.Disabled)?.opacity == 0.5)

        var found: MyView.Disabled?
        if
            let d = try? aView.currentState() as? MyView.Disabled
        {
            found = d
        }
        #expect(found?.opacity == 0.5)

        aView.resetCurrentState()
        #expect(aView.state == nil)
    }

    @Test("The same state can be set again and again")
    func settingTheSameStateAgain() {
        let aView = MyView()

        aView.set(MyView.Highlighted(color: 1))
        aView.set(MyView.Highlighted(color: 2))
        aView.set(MyView.Highlighted(color: 3))

        #expect(aView.currentState(as: MyView.Highlighted.self)?.color == 3)
    }
}
