import Testing
import TodoKit

@Suite("Parsing the command line")
struct CommandParserTests {

    func parse(_ arguments: String...) throws -> Invocation {
        try CommandParser.parseArguments(arguments)
    }

    func parse(_ arguments: [String]) throws -> Invocation {
        try CommandParser.parseArguments(arguments)
    }

    func kind(_ arguments: String...) -> TodoError.Kind? {
        do {
            _ = try CommandParser.parseArguments(arguments)
            return nil
        } catch {
            return error.kind
        }
    }

    @Test("Every command and its arguments")
    func commands() throws {
        #expect(try parse("add", "buy", "milk").command == .add(title: "buy milk"))
        #expect(try parse("add", " a \t b\n").command == .add(title: "a b"))
        #expect(try parse("list").command == .list(.all, json: false))
        #expect(try parse("ls", "--open", "--json").command == .list(.open, json: true))
        #expect(try parse("list", "--done").command == .list(.done, json: false))
        #expect(try parse("done", "3").command == .done(position: 3))
        #expect(try parse("undone", "1").command == .undone(position: 1))
        #expect(try parse("edit", "2", "oat", "milk").command == .edit(position: 2, title: "oat milk"))
        #expect(try parse("rm", "4").command == .remove(position: 4))
        #expect(try parse("move", "4", "1").command == .move(position: 4, to: 1))
        #expect(try parse("clear").command == .clear)
        #expect(try parse("undo").command == .undo(.steps(1)))
        #expect(try parse("undo", "3").command == .undo(.steps(3)))
        #expect(try parse("redo", "before-party").command == .redo(.tag("before-party")))
        #expect(try parse("tag", "beta").command == .tag(name: "beta"))
        #expect(try parse("history", "--json").command == .history(json: true))
        #expect(try parse("begin").command == .begin)
        #expect(try parse("commit").command == .commit)
        #expect(try parse("rollback").command == .rollback)
        #expect(try parse("help").command == .help)
        #expect(try parse("-h").command == .help)
        #expect(try parse().command == nil)
    }

    @Test("Options before the command word, with a value after a space or an equals sign; -- ends them")
    func options() throws {
        #expect(try parse("--file", "/tmp/x.json", "list") == Invocation(file: "/tmp/x.json", command: .list(.all, json: false)))
        #expect(try parse("--file=/tmp/x.json", "list") == Invocation(file: "/tmp/x.json", command: .list(.all, json: false)))
        #expect(try parse("--history-limit", "7", "undo") == Invocation(historyLimit: 7, command: .undo(.steps(1))))
        #expect(try parse("--keep-going") == Invocation(keepGoing: true))
        #expect(try parse("add", "--", "--json", "-x").command == .add(title: "--json -x"))
        #expect(try parse("add", "-", "5").command == .add(title: "- 5"))
    }

    /// Issue 27, item 18: options were read after the command word too, so `todo add buy milk
    /// -h` showed the help, and `todo --file a.db add pay --file b.db` added "pay" to `b.db`.
    @Test("Options end at the command word: a title is taken as typed, a run's option after the command is refused")
    func optionsEndAtTheCommandWord() throws {
        #expect(try parse("add", "buy", "milk", "-h").command == .add(title: "buy milk -h"))
        #expect(try parse("add", "pay", "--file", "b.db") == Invocation(command: .add(title: "pay --file b.db")))
        #expect(try parse("--file", "a.db", "add", "pay", "--file", "b.db") == Invocation(file: "a.db", command: .add(title: "pay --file b.db")))
        #expect(try parse("add", "--json", "x").command == .add(title: "--json x"))
        #expect(try parse("edit", "2", "--help", "me").command == .edit(position: 2, title: "--help me"))
        #expect(try parse("edit", "2", "--", "-x").command == .edit(position: 2, title: "-x"))
        #expect(try CommandParser.parseLine(["add", "a", "--keep-going"]) == .add(title: "a --keep-going"))
        #expect(try parse("list", "--open", "--json").command == .list(.open, json: true))
        for arguments in [["--file", "a.db", "list", "--file", "b.db"], ["undo", "--history-limit", "3"], ["list", "--keep-going"]] {
            #expect(throws: TodoError.self, "\(arguments)") { try CommandParser.parseArguments(arguments) }
            #expect(kind(arguments) == .usage)
        }
        let error = #expect(throws: TodoError.self) { try CommandParser.parseArguments(["list", "--file", "b.db"]) }
        #expect(error?.message == "--file must come before the command word (todo --file ... list ...)")
    }

    func kind(_ arguments: [String]) -> TodoError.Kind? {
        do {
            _ = try CommandParser.parseArguments(arguments)
            return nil
        } catch {
            return error.kind
        }
    }

    @Test("Usage errors and bad input are told apart")
    func errors() {
        #expect(kind("frob") == .usage)
        #expect(kind("list", "--frob") == .usage)
        #expect(kind("done") == .usage)
        #expect(kind("done", "1", "2") == .usage)
        #expect(kind("move", "1") == .usage)
        #expect(kind("--history-limit", "x") == .usage)
        #expect(kind("--file") == .usage)
        #expect(kind("--file=", "list") == .usage)
        #expect(kind("--json") == .usage)
        #expect(kind("list", "--file=/tmp/x.json") == .usage)
        #expect(kind("list", "--all", "--open") == .usage)
        #expect(kind("--keep-going", "add", "x") == .usage)
        #expect(kind("quit") == .usage)

        #expect(kind("add") == .usage)
        #expect(kind("add", " ") == .badInput)
        #expect(kind("done", "x") == .badInput)
        #expect(kind("done", "0") == .badInput)
        #expect(kind("done", "-3") == .badInput)
        #expect(kind("undo", "0") == .badInput)
        #expect(kind("tag", "12") == .badInput)
        #expect(kind("tag", "two words") == .badInput)
    }

    /// Found by `Fuzz/run fuzz-todo-parser`: the input `\0ed\x8ct--fed\x8ctlist\nundo 0\ntag 12-ile=milk`
    /// (one argument holding newlines) gave `unknown command "ed\u{FFFD}t--f…list` and then two
    /// more lines, which `todo` printed on three lines of stderr.
    @Test("Error messages stay on one line whatever the words echoed in them hold")
    func oneLineErrors() throws {
        func message(_ parse: () throws(TodoError) -> Any?) -> String? {
            do {
                _ = try parse()
                return nil
            } catch {
                return error.message
            }
        }
        let breaks = ["\n", "\r", "\r\n", "\u{2028}", "\u{2029}", "\u{85}", "\u{B}", "\u{C}", "\u{1B}"]
        let breakScalars = Set(breaks.joined().unicodeScalars)
        for lineBreak in breaks {
            let invalid: [[String]] = [
                ["list\(lineBreak)undo"],
                ["--js\(lineBreak)on"],
                ["--json\(lineBreak)=1", "list"],
                ["--history-limit", "1\(lineBreak)2", "undo"],
                ["done", "1\(lineBreak)2"],
                ["list", "--frob\(lineBreak)"],
                // Found by a 10-minute run of fuzz-todo-parser: `todo later $'eddbuy k"\nadd eggs'`.
                ["later", "eddbuy k\(lineBreak)add eggs"],
                ["earlier", "1\(lineBreak)m"],
            ]
            for words in invalid {
                let text = try #require(message { () throws(TodoError) in try CommandParser.parseArguments(words) }, "\(words) parsed")
                #expect(!text.unicodeScalars.contains(where: breakScalars.contains), "\(words): \(text.debugDescription)")
            }
            let text = try #require(message { () throws(TodoError) in try CommandParser.parseLine(["exit\(lineBreak)"]) })
            #expect(!text.unicodeScalars.contains(where: breakScalars.contains), "\(text.debugDescription)")
        }
        // Escaped, not dropped: the message still says what was typed.
        #expect(message { () throws(TodoError) in try CommandParser.parseArguments(["frob\nzap"]) } == #"unknown command "frob\nzap""#)
        #expect(message { () throws(TodoError) in try CommandParser.parseArguments(["done", "1\u{2028}"]) } == #""1\u{2028}" is not an item number (use the position "todo list" shows)"#)
    }

    @Test("Shell lines: quit, and no options that belong to the whole run")
    func lines() throws {
        #expect(try CommandParser.parseLine(["quit"]) == .quit)
        #expect(try CommandParser.parseLine(["exit"]) == .quit)
        #expect(try CommandParser.parseLine([]) == nil)
        #expect(throws: TodoError.self) { try CommandParser.parseLine(["--file", "x", "list"]) }
        #expect(throws: TodoError.self) { try CommandParser.parseLine(["--keep-going"]) }
    }

    @Test("Splitting lines into words, shell style")
    func tokenizer() throws {
        #expect(try LineTokenizer.words(of: "add buy milk") == ["add", "buy", "milk"])
        #expect(try LineTokenizer.words(of: #"  add   "buy  milk"  "#) == ["add", "buy  milk"])
        #expect(try LineTokenizer.words(of: #"edit 2 'say "hi"'"#) == ["edit", "2", #"say "hi""#])
        #expect(try LineTokenizer.words(of: #"add it\'s "a \"b\"""#) == ["add", "it's", #"a "b""#])
        #expect(try LineTokenizer.words(of: "add a#b # comment") == ["add", "a#b"])
        #expect(try LineTokenizer.words(of: "   # only a comment") == [])
        #expect(try LineTokenizer.words(of: #"add """#) == ["add", ""])
        #expect(try LineTokenizer.words(of: "") == [])
        #expect(throws: TodoError.self) { try LineTokenizer.words(of: #"add "open"#) }
    }

    /// Found by `Fuzz/run fuzz-todo-parser`: the word `\u{301}` (a lone combining accent), put
    /// in quotes, no longer tokenized: the opening quote and the accent make one `Character`,
    /// which is not a quote, so the closing quote was read as an opening one ("unterminated
    /// quote"). Quotes, backslashes and spaces are read per Unicode scalar, as a shell reads
    /// bytes.
    /// Found by `Fuzz/run fuzz-todo-parser`: titles were split into words per `Character`, and
    /// a space followed by a combining mark is one `Character` that counts as whitespace, so
    /// `add "a \u{301}b"` dropped the accent, and normalizing a title twice could change it
    /// (a newline before the mark became a space that then swallowed it).
    @Test("Titles keep combining marks after spaces; normalizing a title twice changes nothing")
    func combiningMarksInTitles() throws {
        #expect(try parse("add", "a \u{301}b").command == .add(title: "a \u{301}b"))
        #expect(try parse("add", "a\n\u{301}b").command == .add(title: "a \u{301}b"))
        #expect(try parse("add", "a", "\u{301}").command == .add(title: "a \u{301}"))
        #expect(try parse("edit", "1", " \u{301}\u{2028}x ").command == .edit(position: 1, title: "\u{301} x"))
        for words in [["a\n\u{301}b", "\r\n\u{308}"], ["\u{85}\u{301}", "x\u{A0}\u{301}y"], [" \u{301} ", "\t"]] {
            guard case let .add(title)? = try parse(["add"] + words).command else {
                Issue.record("\(words) is not an add")
                continue
            }
            #expect(try parse("add", title).command == .add(title: title), "\(words)")
        }
    }

    @Test("Quotes and backslashes next to combining marks still quote")
    func combiningMarks() throws {
        #expect(try LineTokenizer.words(of: "add '\u{301}'") == ["add", "\u{301}"])
        #expect(try LineTokenizer.words(of: "add \"\u{301}x\" y") == ["add", "\u{301}x", "y"])
        #expect(try LineTokenizer.words(of: "add \\\u{301} z") == ["add", "\u{301}", "z"])
        #expect(try LineTokenizer.words(of: "add x \u{301}") == ["add", "x", "\u{301}"])
        #expect(try LineTokenizer.words(of: "add e\u{301}\r\nx") == ["add", "e\u{301}", "x"])
        #expect(try LineTokenizer.words(of: "add '\u{1F1EB}\u{1F1F7}'\u{301}") == ["add", "\u{1F1EB}\u{1F1F7}\u{301}"])
    }
}
