// fuzz-todo-parser: the todo command line (`CommandParser.parseArguments`) and the lines of
// the shell and of scripts (`LineTokenizer.words(of:)`, then `CommandParser.parseLine`).
//
// The first byte picks the mode; the rest is the process arguments, separated by NUL bytes
// (which a real argument cannot contain), or the lines of a script, separated by `\n`.
// Bytes that are not UTF-8 become U+FFFD, as they do when `todo` reads them.
//
// Every input must give a value or a `TodoError`, never a crash or a hang; beyond that:
// - a title is never empty and is already normalized (single spaces, no newlines), so it
//   fits on one line of `todo list`; item numbers and step counts are at least 1; a tag name
//   is neither empty, nor spaced, nor a number; `--history-limit` is not negative;
// - an error message is one line (`todo` prints it after `todo: ` on one line of stderr);
// - the tokenizer undoes quoting: the words of a line, each put in single quotes and
//   joined, tokenize back to the same words;
// - a line and the same words as process arguments parse to the same command or the same
//   error, when they use nothing that only one of the two accepts.
import Revertible
import TodoKit

func violation(_ message: String) -> Never {
    fatalError(message)
}

/// `word` in single quotes, as a POSIX shell reads it: a quote inside is written `'\''`.
/// Built per Unicode scalar, like the tokenizer reads: a quote that Swift joins with a
/// following combining mark into one `Character` is still a quote.
func quoted(_ word: String) -> String {
    var result = String.UnicodeScalarView()
    result.append("'")
    for scalar in word.unicodeScalars {
        if scalar == "'" { result.append(contentsOf: "'\\''".unicodeScalars) } else { result.append(scalar) }
    }
    result.append("'")
    return String(result)
}

func isOneLine(_ text: String) -> Bool {
    !text.unicodeScalars.contains { $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{85}" || $0 == "\u{B}" || $0 == "\u{C}" }
}

func checkTitle(_ title: String, _ words: [String]) {
    if title.isEmpty { violation("empty title from \(words)") }
    let normalized = title.unicodeScalars.split(whereSeparator: { $0.properties.isWhitespace })
        .map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
    if title != normalized { violation("title \(title.debugDescription) is not normalized, from \(words)") }
    if !isOneLine(title) { violation("title \(title.debugDescription) spans lines, from \(words)") }
}

func checkCommand(_ command: Command?, _ words: [String]) {
    switch command {
    case let .add(title)?: checkTitle(title, words)
    case let .edit(.position(position), title)?:
        checkTitle(title, words)
        if position < 1 { violation("edit position \(position) from \(words)") }
    case let .edit(_, title)?:
        checkTitle(title, words)
    case let .done(.position(position))?, let .undone(.position(position))?, let .remove(.position(position))?:
        if position < 1 { violation("position \(position) from \(words)") }
    case let .done(.id(id))?, let .undone(.id(id))?, let .remove(.id(id))?, let .move(.id(id), _)?:
        if id.count < 4 || !id.allSatisfy(\.isHexDigit) { violation("item id \(id.debugDescription) from \(words)") }
    case let .move(.position(position), to)?:
        if position < 1 || to < 1 { violation("move \(position) \(to) from \(words)") }
    case let .undo(target, _, _)?, let .redo(target, _, _)?:
        if target.stepCount.map({ $0 < 1 }) ?? false { violation("\(target) steps from \(words)") }
    case let .tag(name)?:
        if name.isEmpty || name.contains(where: { $0.isWhitespace || $0.isNewline }) || Int(name) != nil {
            violation("tag name \(name.debugDescription) from \(words)")
        }
    default: break
    }
}

func checkError(_ error: TodoError, _ words: [String]) {
    if error.message.isEmpty { violation("empty error message for \(words)") }
    if !isOneLine(error.message) { violation("error message spans lines: \(error.message.debugDescription), for \(words)") }
    if error.kind == .dataFile { violation("the parser gave a data-file error for \(words)") }
}

extension HistoryDestination {
    /// The number of steps, for a target given as steps.
    var stepCount: Int? {
        if case let .steps(count) = self { count } else { nil }
    }
}

func parseArguments(_ words: [String]) -> Result<Invocation, TodoError> {
    let result = Result { () throws(TodoError) in try CommandParser.parseArguments(words) }
    switch result {
    case let .success(invocation):
        checkCommand(invocation.command, words)
        if let limit = invocation.historyLimit, limit < 0 { violation("history limit \(limit) from \(words)") }
        if invocation.file == "" { violation("empty --file from \(words)") }
    case let .failure(error):
        checkError(error, words)
    }
    return result
}

func parseLine(_ line: String) {
    let words: [String]
    do {
        words = try LineTokenizer.words(of: line)
    } catch {
        checkError(error, [line])
        return
    }
    let requoted = words.map(quoted).joined(separator: " ")
    do {
        let again = try LineTokenizer.words(of: requoted)
        if again != words { violation("\(requoted.debugDescription) tokenizes to \(again), not \(words) (from \(line.debugDescription))") }
    } catch {
        violation("\(requoted.debugDescription), the quoted words of \(line.debugDescription), does not tokenize: \(error)")
    }

    let result = Result { () throws(TodoError) in try CommandParser.parseLine(words) }
    switch result {
    case let .success(command): checkCommand(command, words)
    case let .failure(error): checkError(error, words)
    }

    // The same words as process arguments, unless they use what only one context accepts.
    let onlyOneContext = words.contains { word in
        CommandParser.runOptions.contains { word.hasPrefix($0) } || CommandParser.commandsOfOneContext.contains(word)
    }
    guard !onlyOneContext else { return }
    let asArguments = parseArguments(words).map(\.command)
    if asArguments != result {
        violation("line words \(words) parse to \(result), as arguments to \(asArguments)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data + 1, count: size - 1)
    if data[0] & 1 == 0 {
        let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        _ = parseArguments(size == 1 ? [] : arguments)
    } else {
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            parseLine(String(decoding: line, as: UTF8.self))
        }
    }
    return 0
}
