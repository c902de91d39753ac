import Foundation
import Testing
import Revertible

/// Many tasks using one controller at once.
@Suite("Controller concurrency")
struct ControllerConcurrencyTests {

    @Test("Racing appends, undos, redos and scopes keep a valid history chain")
    func racingOperations() async throws {
        let initial = Activity.mock(children: Activity.mock(count: 3))
        let controller = VersioningController(initial)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for step in 0..<200 {
                        switch (task + step) % 7 {
                        case 0, 1, 2:
                            var value = controller.currentVersion
                            value.title = "task \(task) step \(step)"
                            if step % 3 == 0, !value.childActivities.isEmpty { value.childActivities.removeLast() }
                            if step % 5 == 0 { value.childActivities.append(.mock(title: "\(task)-\(step)")) }
                            controller.append(value)
                        case 3: _ = try? controller.undo()
                        case 4: _ = try? controller.redo()
                        case 5: controller.tag(step)
                        default: _ = try? controller.undo(to: .steps(2))
                        }
                    }
                }
            }
        }
        #expect(controller.scopeLevel == 0)
        while controller.hasUndo {
            try controller.undo()
        }
        #expect(controller.currentVersion == initial)
        while controller.hasRedo {
            try controller.redo()
        }
        while controller.hasUndo {
            try controller.undo()
        }
        #expect(controller.currentVersion == initial)
    }

    @Test("Scopes pushed and popped from many tasks never corrupt the history")
    func racingScopes() async throws {
        let initial = Activity.mock()
        let controller = VersioningController(initial)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for step in 0..<100 {
                        controller.pushNewScope()
                        var value = controller.currentVersion
                        value.title += "\(task)"
                        controller.append(value)
                        if step % 2 == 0 { try? controller.popCurrentScope() } else { _ = try? controller.undoAndPopCurrentScope() }
                    }
                }
            }
        }
        while controller.scopeLevel > 0 { try controller.popCurrentScope() }
        while controller.hasUndo { try controller.undo() }
        #expect(controller.currentVersion == initial)
    }
}
