import Foundation
import Revertible
/// Parses command lines by hand: `todo [options] <command> [arguments]`.
///
/// The options of the whole run (`--file`, `--history-limit`, `--keep-going`) come before the
/// command word; everything after it is the command's: the words of a title (`add`, `edit`)
/// are taken as typed, dashes and all (`todo add buy milk -h` adds "buy milk -h"), and other
/// commands take only their own options (`--json`, `--open`, ...). A run's option after the
/// command word is refused, never applied: `todo --file a.db add pay --file b.db` must not
/// write to `b.db`. `--` ends the options. A word starting with `-` is an option, unless it
/// is a lone `-` or a negative number (which then fails as an item number, not as a flag).
public enum CommandParser {

    /// Where the words come from: the process arguments, or a line of the shell or a script,
    /// where the file and the history limit are already fixed.
    public enum Context: Sendable {
        case arguments
        case line
    }

    /// The options of the whole run, which only the process arguments may give (never a line
    /// of the shell or a script, where the file, the server and the author are already fixed).
    public static let runOptions: Set<String> = ["--file", "--history-limit", "--keep-going", "--database", "--as"]

    /// The commands only one context takes: `quit` and `exit` end a shell or a script, and
    /// `watch` runs only as a process's command. The one list the fuzz harness reads, so that
    /// it compares a line with the same words as arguments only where both take them.
    public static let commandsOfOneContext: Set<String> = ["quit", "exit", "watch"]

    /// The run options that take a value (`--file PATH` or `--file=PATH`).
    static let runOptionsWithValues: Set<String> = ["--file", "--history-limit", "--database", "--as"]

    /// Parses the process arguments, without the program name.
    public static func parseArguments(_ arguments: [String]) throws(TodoError) -> Invocation {
        let scanned = try scan(arguments, context: .arguments)
        var invocation = Invocation(file: scanned.file, historyLimit: scanned.historyLimit, keepGoing: scanned.keepGoing)
        invocation.database = scanned.database
        invocation.author = scanned.author
        if invocation.file != nil, invocation.database != nil {
            throw .usage("give either --file (an SQLite file) or --database (a PostgreSQL server), not both")
        }
        invocation.command = try command(from: scanned, context: .arguments)
        if invocation.keepGoing, invocation.command != nil {
            throw .usage("--keep-going applies only to scripts read from standard input (todo --keep-going < script)")
        }
        return invocation
    }

    /// Parses one line of the shell or a script, already split into words; `nil` for a blank
    /// line.
    public static func parseLine(_ words: [String]) throws(TodoError) -> Command? {
        try command(from: scan(words, context: .line), context: .line)
    }

    /// The options and positional words of a command line.
    struct Scanned {
        var file: String?
        var historyLimit: Int?
        var keepGoing = false
        var database: String?
        var author: String?
        var json = false
        var strict = false
        var ids = false
        var mine = false
        var filters: [ListFilter] = []
        var help = false
        /// `watch --for SECONDS` and `watch --count N`.
        var watchSeconds: Double?
        var watchCount: Int?
        var words: [String] = []
        /// The command-specific options given, for "is not an option of" errors.
        var commandOptions: [String] = []
    }

    static func scan(_ arguments: [String], context: Context) throws(TodoError) -> Scanned {
        var scanned = Scanned()
        var index = 0
        func value(of option: String, inline: String?) throws(TodoError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw .usage("\(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            defer { index += 1 }
            if argument == "--" {
                scanned.words += arguments[(index + 1)...]
                break
            }
            guard isOption(argument) else {
                scanned.words.append(argument)
                if scanned.words.count == 1, titleCommands.contains(argument) {
                    // A title is text: nothing in it is an option. A leading `--` is still
                    // dropped, as it was when options could follow the command word.
                    var rest = arguments[(index + 1)...]
                    if argument == "add", rest.first == "--" { rest = rest.dropFirst() }
                    if argument == "edit", rest.dropFirst().first == "--" { rest.remove(at: rest.startIndex + 1) }
                    scanned.words += rest
                    break
                }
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let inline = parts.count > 1 ? String(parts[1]) : nil
            if inline != nil, !runOptionsWithValues.contains(name), !watchOptions.contains(name) {
                throw .usage("\(shown(name)) takes no value")
            }
            switch name {
            case _ where runOptions.contains(name):
                guard context == .arguments else {
                    throw .usage("\(name) can only be given on the command line, not in the shell or a script")
                }
                if let command = scanned.words.first {
                    throw .usage("\(name) must come before the command word (todo \(name)\(name == "--keep-going" ? "" : " ...") \(shown(command)) ...)")
                }
                if name == "--keep-going" {
                    scanned.keepGoing = true
                } else if name == "--database" {
                    let address = try value(of: name, inline: inline)
                    guard !address.isEmpty else { throw .usage("--database needs a server address (postgresql://user@host/dbname)") }
                    scanned.database = address
                } else if name == "--as" {
                    let author = try value(of: name, inline: inline)
                    scanned.author = try checkAuthor(author)
                } else if name == "--file" {
                    let path = try value(of: name, inline: inline)
                    guard !path.isEmpty else { throw .usage("--file needs a path") }
                    scanned.file = path
                } else {
                    let text = try value(of: name, inline: inline)
                    guard let limit = Int(text), limit >= 0 else {
                        throw .usage("--history-limit needs a whole number of steps, got \"\(shown(text))\"")
                    }
                    scanned.historyLimit = limit
                }
            case "--json":
                scanned.json = true
                scanned.commandOptions.append(name)
            case "--strict":
                scanned.strict = true
                scanned.commandOptions.append(name)
            case "--ids":
                scanned.ids = true
                scanned.commandOptions.append(name)
            case "--mine":
                scanned.mine = true
                scanned.commandOptions.append(name)
            case "--all", "--open", "--done":
                scanned.filters.append(name == "--all" ? .all : name == "--open" ? .open : .done)
                scanned.commandOptions.append(name)
            case "--help", "-h":
                scanned.help = true
            case _ where watchOptions.contains(name):
                try scanWatchOption(name, value(of: name, inline: inline), into: &scanned)
            default:
                throw .usage("unknown option \"\(shown(name))\"")
            }
        }
        return scanned
    }

    /// The commands whose arguments end in a title, taken word for word.
    static let titleCommands: Set<String> = ["add", "edit"]

    /// Whether `word` is written as an option.
    static func isOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word != "-" else { return false }
        return Int(word) == nil
    }

    /// The command named by the first word, with its arguments checked.
    static func command(from scanned: Scanned, context: Context) throws(TodoError) -> Command? {
        if scanned.help { return .help }
        guard let name = scanned.words.first else {
            if let option = scanned.commandOptions.first {
                throw .usage("\(option) needs a command, as in \"todo list \(option)\"")
            }
            return nil
        }
        let arguments = Array(scanned.words.dropFirst())
        let command: Command
        switch name {
        case "add":
            guard !arguments.isEmpty else { throw .usage("add needs a title: add <title...>") }
            command = .add(title: try title(from: arguments))
        case "list", "ls":
            try expectCount(arguments, 0, name)
            guard scanned.filters.count <= 1 else { throw .usage("give at most one of --all, --open and --done") }
            command = .list(scanned.filters.first ?? .all, json: scanned.json, ids: scanned.ids)
        case "done", "undone", "rm", "remove":
            try expectCount(arguments, 1, name, usage: "\(name) <n>|<id>")
            let position = try reference(arguments[0])
            command = name == "done" ? .done(position: position)
                : name == "undone" ? .undone(position: position) : .remove(position: position)
        case "edit":
            guard arguments.count >= 2 else { throw .usage("edit needs an item number and a title: edit <n> <title...>") }
            command = .edit(position: try reference(arguments[0]), title: try title(from: Array(arguments.dropFirst())))
        case "move", "mv":
            try expectCount(arguments, 2, name, usage: "move <n> <to>")
            command = .move(position: try reference(arguments[0]), to: try position(arguments[1]))
        case "clear":
            try expectCount(arguments, 0, name)
            command = .clear
        case "undo", "redo":
            guard arguments.count <= 1 else { throw .usage("\(name) takes at most one argument: \(name) [<steps>|<tag>]") }
            let target = try arguments.first.map(historyTarget) ?? .steps(1)
            command = name == "undo"
                ? .undo(target, strict: scanned.strict, json: scanned.json)
                : .redo(target, strict: scanned.strict, json: scanned.json)
        case "goto":
            try expectCount(arguments, 1, name, usage: "goto <version>|<tag>")
            command = .goto(try version(arguments[0]))
        case "earlier", "later":
            guard arguments.count <= 1 else { throw .usage("\(name) takes at most one argument: \(name) [<n>|<duration>]") }
            command = .goto(try chronologicalMove(arguments.first ?? "1", earlier: name == "earlier"))
        case "tag":
            try expectCount(arguments, 1, name, usage: "tag <name>")
            command = .tag(name: try tagName(arguments[0]))
        case "history":
            try expectCount(arguments, 0, name)
            command = .history(json: scanned.json, mine: scanned.mine)
        case "begin":
            try expectCount(arguments, 0, name)
            command = .begin
        case "commit":
            try expectCount(arguments, 0, name)
            command = .commit
        case "rollback":
            try expectCount(arguments, 0, name)
            command = .rollback
        case "check":
            try expectCount(arguments, 0, name)
            command = .check
        case "export":
            try expectCount(arguments, 0, name)
            guard scanned.json else { throw .usage("export needs a format: export --json") }
            command = .export
        case "import":
            guard scanned.json else { throw .usage("import needs a format: import --json <file>") }
            try expectCount(arguments, 1, name, usage: "import --json <file>")
            command = .importJSON(path: arguments[0])
        case "help":
            command = .help
        case "watch":
            try expectCount(arguments, 0, name)
            guard context == .arguments else {
                throw .usage("watch runs as a command of its own (todo watch); the shell already shows others' changes before each prompt")
            }
            command = .watch(seconds: scanned.watchSeconds, count: scanned.watchCount)
        case "quit", "exit":
            // The process arguments are one command already; there is nothing to leave.
            guard context == .line else { throw .usage("unknown command \"\(shown(name))\"") }
            try expectCount(arguments, 0, name)
            command = .quit
        default:
            throw .usage("unknown command \"\(shown(name))\"")
        }
        try checkOptions(scanned.commandOptions, for: command, name: name)
        return command
    }

    /// Throws for a command option given to a command that has no such option.
    static func checkOptions(_ options: [String], for command: Command, name: String) throws(TodoError) {
        for option in options {
            switch (option, command) {
            case ("--json", .list), ("--json", .history), ("--json", .export), ("--json", .importJSON): continue
            case ("--json", .undo), ("--json", .redo): continue
            case ("--all", .list), ("--open", .list), ("--done", .list): continue
            case ("--strict", .undo), ("--strict", .redo), ("--mine", .history), ("--ids", .list): continue
            case ("--for", .watch), ("--count", .watch): continue
            default: throw .usage("\(option) is not an option of \(name)")
            }
        }
    }

    static func expectCount(_ arguments: [String], _ count: Int, _ name: String, usage: String? = nil) throws(TodoError) {
        guard arguments.count != count else { return }
        if count == 0 { throw .usage("\(name) takes no arguments") }
        throw .usage("\(arguments.count < count ? "missing" : "too many") arguments: \(usage ?? name)")
    }

    /// A title made of `words`: joined by single spaces, with runs of whitespace (newlines
    /// included) collapsed, so every title fits on one line of `todo list`.
    ///
    /// Whitespace is found per Unicode scalar, not per `Character`: a space followed by a
    /// combining mark is one `Character`, and counts as whitespace, so splitting by
    /// characters would drop the mark with the space (and normalizing twice could differ).
    static func title(from words: [String]) throws(TodoError) -> String {
        let typed = words.joined(separator: " ")
        try PlainText.checkRawLength(typed, what: "a title")
        let title = typed.unicodeScalars
            .split(whereSeparator: { $0.properties.isWhitespace })
            .map { String(String.UnicodeScalarView($0)) }
            .joined(separator: " ")
        guard !title.isEmpty else { throw .badInput("the title is empty") }
        try PlainText.check(title, what: "a title")
        return title
    }

    /// `word` as an error message shows it: line breaks and other control characters are
    /// escaped (`\n`, `\u{2028}`), so the message stays on the one line `todo` prints it on
    /// and cannot move the terminal's cursor. Everything else is kept as typed.
    static func shown(_ word: String) -> String {
        var text = ""
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                switch scalar.properties.generalCategory {
                case .control, .lineSeparator, .paragraphSeparator:
                    text += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                default:
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text
    }

    /// A 1-based item position; its range is checked against the list later.
    static func position(_ word: String) throws(TodoError) -> Int {
        guard let position = Int(word), position >= 1 else {
            throw .badInput("\"\(shown(word))\" is not an item number (use the position \"todo list\" shows)")
        }
        return position
    }

    /// An item's position, or a prefix of its stable id (at least four hex digits, as
    /// `todo list` shows them; dashes and case do not matter).
    static func reference(_ word: String) throws(TodoError) -> ItemReference {
        let hex = word.lowercased().replacingOccurrences(of: "-", with: "")
        // All digits is a position: an id has a letter (see `ShortID`), except the whole 32
        // digits of a UUID that has none, which no position is long enough to be.
        let allDigits = word.allSatisfy({ $0.isASCII && $0.isNumber })
        guard !allDigits || hex.count == 32, hex.count >= ShortID.minimumLength, hex.count <= 32,
              hex.allSatisfy({ $0.isASCII && $0.isHexDigit }) else {
            return .position(try position(word))
        }
        return .id(hex)
    }

    /// A name for `--as`: one line of printable text.
    ///
    /// `source` is what gave the name (`--as`, or `TODO_USER`), so the message sends the user
    /// to the right place. A name that is there but unusable is bad input (exit 1) whatever
    /// is wrong with it: a line break is one control character among others, refused like
    /// them (only a missing name, a usage error, exits 2).
    /// `name` as the person it names (in Unicode's composed form, NFC, so that "é" typed
    /// either way is one person), or an error for a name that could look like another:
    /// names are shown in `history` and in skip notes, where "alice " or an "аlice" with a
    /// Cyrillic а would print as "alice" while being someone else.
    @discardableResult
    static func checkAuthor(_ name: String, source: String = "--as") throws(TodoError) -> String {
        guard !name.isEmpty else { throw .usage("\(source) needs a name") }
        guard name.count <= 200, !name.contains(where: { $0.isNewline }) else {
            throw .badInput("\(source) needs a name of one line (at most 200 characters)")
        }
        let what = "the name given by \(source)"
        try PlainText.check(name, what: what)
        let normalized = name.precomposedStringWithCanonicalMapping
        if let first = normalized.unicodeScalars.first, let last = normalized.unicodeScalars.last,
           first.properties.isWhitespace || last.properties.isWhitespace {
            throw .badInput("\(what) cannot start or end with a space: it would print like the name without it")
        }
        for scalar in normalized.unicodeScalars {
            if scalar.properties.isWhitespace, scalar != " " {
                throw .badInput("\(what) cannot contain a space other than an ordinary one (found \(PersonName.code(scalar))): it would print like a name with an ordinary space")
            }
            if scalar.properties.generalCategory == .format || scalar.properties.isDefaultIgnorableCodePoint {
                throw .badInput("\(what) cannot contain invisible characters (found \(PersonName.code(scalar))): it would print like the name without them")
            }
        }
        let scripts = PersonName.lookAlikeScripts(in: normalized)
        if scripts.count > 1 {
            throw .badInput("\(what) mixes letters of the \(scripts.joined(separator: " and ")) scripts: it could print like another person's name; use one script")
        }
        return normalized
    }

    /// A number of steps, or a tag name.
    static func historyTarget(_ word: String) throws(TodoError) -> HistoryDestination {
        if let steps = Int(word) {
            guard steps >= 1 else { throw .badInput("the number of steps must be at least 1, got \(steps)") }
            return .steps(steps)
        }
        // All digits but too large for a count: still a count, never a tag (tag names cannot
        // be numbers), so the message speaks of steps.
        let digits = word.first == "-" ? word.dropFirst() : Substring(word)
        if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw .badInput(word.first == "-"
                ? "the number of steps must be at least 1, got \(shown(word))"
                : "the number of steps \(shown(word)) is too large: no history holds that many")
        }
        return .tag(HistoryTag(word))
    }

    /// A version as `todo history` shows it (`v12`, or `12`), or a tag.
    static func version(_ word: String) throws(TodoError) -> HistoryDestination {
        let digits = word.hasPrefix("v") ? word.dropFirst() : Substring(word)
        if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let number = UInt64(digits) else {
                // Too large for any version: there is no such version, whatever it looks like.
                throw .badInput("there is no version \(shown(word)) (\"todo history\" shows them)")
            }
            return .version(HistoryVersion(number))
        }
        return .tag(HistoryTag(try tagName(word)))
    }

    /// A number of versions, or a span of time: a whole number followed by `s`, `m`, `h` or
    /// `d` (`10m` is ten minutes).
    static func chronologicalMove(_ word: String, earlier: Bool) throws(TodoError) -> HistoryDestination {
        if let count = Int(word) {
            guard count >= 1 else { throw .badInput("the number of versions must be at least 1, got \(count)") }
            return earlier ? .earlier(count) : .later(count)
        }
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        guard let unit = word.last.flatMap({ units[$0] }), let amount = Int64(word.dropLast()), amount >= 1,
              case let (seconds, false) = amount.multipliedReportingOverflow(by: unit) else {
            throw .badInput("\"\(shown(word))\" is neither a number of versions nor a duration like 30s, 10m, 2h or 1d")
        }
        return earlier ? .earlierBy(.seconds(seconds)) : .laterBy(.seconds(seconds))
    }

    /// A tag name: not a number, since `undo 3` means three steps.
    static func tagName(_ word: String) throws(TodoError) -> String {
        guard !word.isEmpty, !word.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw .badInput("a tag name cannot be empty or contain spaces")
        }
        guard Int(word) == nil else {
            throw .badInput("a tag name cannot be a number: undo and redo read a number as a count of steps")
        }
        guard !(word.hasPrefix("v") && word.count > 1 && word.dropFirst().allSatisfy(\.isNumber)) else {
            throw .badInput("a tag name cannot look like a version (\"goto \(word)\" goes to version \(word))")
        }
        try PlainText.check(word, what: "a tag name")
        return word
    }
}
