/// A key of a terminal, as ``KeyDecoder`` reads it from the bytes the terminal sends.
public enum EditorKey: Equatable, Sendable {
    /// A printable character, to insert.
    case character(Character)
    case enter, backspace, delete, left, right, up, down, home, end
    /// Ctrl-C: abandon the line.
    case cancel
    /// Ctrl-D: leave on an empty line, else delete the character under the cursor.
    case endOfInput
    /// Ctrl-K and Ctrl-U: delete to the end, or to the start, of the line.
    case deleteToEnd, deleteToStart
    /// Anything else (other control characters, escape sequences this editor does not
    /// know): ignored, so that no control character reaches a command.
    case ignored
}

/// Turns the bytes a terminal sends in raw mode into keys: UTF-8 characters, control
/// characters, and the escape sequences of the arrow, Home, End and Delete keys (`ESC [ A`,
/// `ESC O A`, `ESC [ 3 ~`, ...). Bytes of an unfinished sequence are kept for the next call.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// The keys `byte` completes (none while a sequence is unfinished).
    public mutating func feed(_ byte: UInt8) -> [EditorKey] {
        if pending.isEmpty {
            switch byte {
            case 0x1B, 0xC0...0xFF:
                pending = [byte]
                return []
            case 0x0D, 0x0A: return [.enter]
            case 0x7F, 0x08: return [.backspace]
            case 0x01: return [.home]
            case 0x05: return [.end]
            case 0x02: return [.left]
            case 0x06: return [.right]
            case 0x10: return [.up]
            case 0x0E: return [.down]
            case 0x03: return [.cancel]
            case 0x04: return [.endOfInput]
            case 0x0B: return [.deleteToEnd]
            case 0x15: return [.deleteToStart]
            case 0x20...0x7E: return [.character(Character(Unicode.Scalar(byte)))]
            default: return [.ignored]
            }
        }
        pending.append(byte)
        if pending[0] == 0x1B { return escapeSequence() }
        return utf8Character()
    }

    /// An escape sequence, once complete.
    private mutating func escapeSequence() -> [EditorKey] {
        guard pending.count >= 2 else { return [] }
        let introducer = pending[1]
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
            pending = []
            return [.ignored]  // Alt with a key
        }
        guard pending.count >= 3 else { return [] }
        let final = pending[pending.count - 1]
        // Parameters and intermediates (digits, ';') until a final byte in 0x40...0x7E.
        guard (0x40...0x7E).contains(final) else {
            if pending.count > 16 { pending = []; return [.ignored] }
            return []
        }
        let parameters = String(decoding: pending[2 ..< pending.count - 1], as: UTF8.self)
        pending = []
        switch (Character(Unicode.Scalar(final)), parameters) {
        case ("A", _): return [.up]
        case ("B", _): return [.down]
        case ("C", _): return [.right]
        case ("D", _): return [.left]
        case ("H", _): return [.home]
        case ("F", _): return [.end]
        case ("~", "1"), ("~", "7"): return [.home]
        case ("~", "4"), ("~", "8"): return [.end]
        case ("~", "3"): return [.delete]
        default: return [.ignored]
        }
    }

    /// A multi-byte UTF-8 character, once complete; an invalid sequence is ignored.
    private mutating func utf8Character() -> [EditorKey] {
        let lead = pending[0]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard pending.count == length || !(0x80...0xBF).contains(pending[pending.count - 1]) else { return [] }
        defer { pending = [] }
        guard pending.count == length,
              let character = String(validating: pending, as: UTF8.self)?.first,
              !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return [.ignored] }
        return [.character(character)]
    }
}

/// The line being edited at a terminal prompt, with the lines entered before: a value that
/// keys change, so that editing can be tested without a terminal.
///
/// Left and right move the cursor, up and down go through the earlier lines (the line being
/// typed is kept and comes back below the newest), backspace and Delete delete, Ctrl-A and
/// Ctrl-E go to the start and the end, Ctrl-K and Ctrl-U delete to the end and the start,
/// Ctrl-C abandons the line and Ctrl-D on an empty line leaves.
public struct LineEditor: Sendable {
    /// What a key did.
    public enum Outcome: Equatable, Sendable {
        /// The line is still being edited.
        case editing
        /// Enter: the line, to run.
        case line(String)
        /// Ctrl-C: the line is abandoned.
        case cancelled
        /// Ctrl-D on an empty line.
        case endOfInput
    }

    /// The line as typed so far.
    public private(set) var text: [Character] = []
    /// Where the next character goes: 0 is before the first.
    public private(set) var cursor = 0
    /// The lines entered, oldest first.
    public private(set) var history: [String] = []
    /// The most lines `history` keeps.
    public let historyLimit: Int
    /// Which line of `history` is shown; `history.count` for the line being typed.
    private var shown = 0
    /// The line being typed, kept while earlier ones are shown.
    private var draft: [Character] = []

    public init(historyLimit: Int = 500) {
        self.historyLimit = historyLimit
    }

    /// Starts a new, empty line.
    public mutating func startLine() {
        text = []
        cursor = 0
        draft = []
        shown = history.count
    }

    /// Applies `key` and says what it did.
    public mutating func handle(_ key: EditorKey) -> Outcome {
        switch key {
        case let .character(character):
            text.insert(character, at: cursor)
            cursor += 1
        case .enter:
            let line = String(text)
            remember(line)
            startLine()
            return .line(line)
        case .backspace:
            if cursor > 0 {
                cursor -= 1
                text.remove(at: cursor)
            }
        case .delete:
            if cursor < text.count { text.remove(at: cursor) }
        case .left:
            cursor = max(0, cursor - 1)
        case .right:
            cursor = min(text.count, cursor + 1)
        case .home:
            cursor = 0
        case .end:
            cursor = text.count
        case .up:
            show(shown - 1)
        case .down:
            show(shown + 1)
        case .deleteToEnd:
            text.removeSubrange(cursor...)
        case .deleteToStart:
            text.removeSubrange(..<cursor)
            cursor = 0
        case .cancel:
            startLine()
            return .cancelled
        case .endOfInput:
            if text.isEmpty { return .endOfInput }
            if cursor < text.count { text.remove(at: cursor) }
        case .ignored:
            break
        }
        return .editing
    }

    /// What to write to redraw the line after `prompt`: back to the start of the row, the
    /// prompt and the text, the rest of the row cleared, the cursor moved back into place.
    /// The cursor moves back by display columns, not characters: a CJK character or an
    /// emoji takes two, a combining mark none.
    public func render(prompt: String) -> String {
        let back = text[cursor...].reduce(0) { $0 + Self.columns(of: $1) }
        return "\r" + prompt + String(text) + "\u{1B}[K" + (back > 0 ? "\u{1B}[\(back)D" : "")
    }

    /// The columns a terminal gives `character`: 2 for East Asian wide and full-width
    /// characters and for emoji shown as emoji, 0 for a lone mark or format character, else 1.
    static func columns(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let properties = first.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if properties.isEmojiPresentation
            || (properties.isEmoji && character.unicodeScalars.contains("\u{FE0F}")) {
            return 2
        }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// Shows line `index` of the history, or the draft past the newest.
    private mutating func show(_ index: Int) {
        guard index >= 0, index <= history.count, index != shown else { return }
        if shown == history.count { draft = text }
        shown = index
        text = index == history.count ? draft : Array(history[index])
        cursor = text.count
    }

    /// Adds `line` to the history, unless it is blank or repeats the newest.
    private mutating func remember(_ line: String) {
        guard !line.allSatisfy(\.isWhitespace), history.last != line else { return }
        history.append(line)
        if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
    }
}
