import Foundation
import Testing
@testable import TodoKit

/// The progress line of long work (issue 35, beyond the fixes): its text, and that it is
/// never written where standard error is not a terminal.
@Suite("The progress line of long work")
struct ProgressLineTests {
    @Test("The text groups thousands and counts items")
    func text() {
        #expect(ProgressLine.text(label: "importing", done: 40_000, total: 100_000) == "importing: 40,000 of 100,000 items")
        #expect(ProgressLine.text(label: "writing", done: 0, total: 1) == "writing: 0 of 1 item")
        #expect(ProgressLine.grouped(999) == "999")
        #expect(ProgressLine.grouped(1_000) == "1,000")
        #expect(ProgressLine.grouped(1_234_567) == "1,234,567")
    }

    @Test("Nothing is written when standard error is not a terminal, however long the work")
    func silentOffATerminal() {
        let written = TestLock("")
        let line = ProgressLine(label: "importing", isTerminal: false) { text in written.withLock { $0 += text } }
        line.startTicking()
        usleep(1_300_000)
        line.update(done: 1, total: 2)
        line.finish()
        #expect(written.withLock { $0 }.isEmpty)
    }

    @Test("On a terminal, nothing in the first second; then the line in place, blanked at the end")
    func shownAfterASecond() {
        let written = TestLock("")
        let line = ProgressLine(label: "importing", isTerminal: true) { text in written.withLock { $0 += text } }
        line.update(done: 1, total: 100_000)
        #expect(written.withLock { $0 }.isEmpty)
        usleep(1_100_000)
        line.update(done: 40_000, total: 100_000)
        #expect(written.withLock { $0 } == "\rimporting: 40,000 of 100,000 items")
        line.finish()
        line.update(done: 50_000, total: 100_000)
        let text = written.withLock { $0 }
        #expect(text.hasSuffix("\r" + String(repeating: " ", count: 34) + "\r"))
        #expect(!text.contains("\n"))
    }

    @Test("Before anything is counted, the ticker shows the label alone after a second")
    func tickerBeforeCounts() {
        let written = TestLock("")
        let line = ProgressLine(label: "importing", isTerminal: true) { text in written.withLock { $0 += text } }
        line.startTicking()
        usleep(1_400_000)
        line.finish()
        let text = written.withLock { $0 }
        #expect(text.hasPrefix("\rimporting…"), "\(text)")
        #expect(text.hasSuffix("\r"))
    }

    @Test("An import on a server with standard error in a file writes no progress there", .enabled(if: ThrowawayPostgres.isAvailable, ThrowawayPostgres.skipReason))
    func importWithErrorsInAFile() throws {
        let todo = try Sandbox()
        todo.environment["TODO_DATABASE"] = try ThrowawayPostgres.newDatabase()
        let path = todo.directory.appendingPathComponent("list.json").path
        try Data(ExportDocument(TodoList(items: (1...3_000).map { TodoItem(id: UUID(), title: "item \($0)") })).json().utf8).write(to: URL(fileURLWithPath: path))
        let result = try todo.run(["--as", "ann", "import", "--json", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(!result.stderr.contains("importing"))
        #expect(!result.stdout.contains("\r"))
    }
}
