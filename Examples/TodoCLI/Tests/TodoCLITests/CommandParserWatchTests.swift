import Testing
import TodoKit

/// `todo watch` and its bounds on the command line.
@Suite("Parsing watch")
struct CommandParserWatchTests {
    private func kind(_ arguments: String...) -> TodoError.Kind? {
        do {
            _ = try CommandParser.parseArguments(arguments)
            return nil
        } catch {
            return error.kind
        }
    }

    @Test("watch, with --for and --count, spaced or with =")
    func bounds() throws {
        #expect(try CommandParser.parseArguments(["watch"]).command == .watch())
        #expect(try CommandParser.parseArguments(["watch", "--for", "2.5"]).command == .watch(seconds: 2.5))
        #expect(try CommandParser.parseArguments(["watch", "--count=3", "--for=10"]).command == .watch(seconds: 10, count: 3))
    }

    @Test("Bad bounds, bounds on other commands and watch in the shell are usage errors")
    func refused() {
        #expect(kind("watch", "--for", "soon") == .usage)
        #expect(kind("watch", "--count", "0") == .usage)
        #expect(kind("watch", "extra") == .usage)
        #expect(kind("list", "--count", "3") == .usage)
        #expect(throws: TodoError.self) { try CommandParser.parseLine(["watch"]) }
    }
}
