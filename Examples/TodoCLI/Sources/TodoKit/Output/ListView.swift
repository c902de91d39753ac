import Foundation

/// How `todo list` shows the list: one line per item, `[x]` or `[ ]`, the item's position in
/// the full list (so `list --open` shows the numbers other commands take), with `ids` its
/// short stable id (``ShortID``), and its title.
enum ListView {

    static func text(_ list: TodoList, filter: ListFilter, style: Style, ids showIDs: Bool = false) -> String {
        let width = String(list.items.count).count
        let ids = showIDs ? ShortID.ids(for: list.items) : []
        let idWidth = ids.map(\.count).max() ?? 0
        var text = ""
        var shown = 0
        for (index, item) in list.items.enumerated() where filter.includes(item) {
            let title = PlainText.escaping(item.title)
            let number = String(index + 1)
            var position = String(repeating: " ", count: width - number.count) + number
            if showIDs { position += " " + ids[index] + String(repeating: " ", count: idWidth - ids[index].count) }
            if item.isDone {
                text += "\(style.green("[x]")) \(style.dim(position)) \(style.dim(title))\n"
            } else {
                text += "[ ] \(style.dim(position)) \(title)\n"
            }
            shown += 1
        }
        guard shown == 0 else { return text }
        switch filter {
        case .all: return "No items. Add one with: todo add <title>\n"
        case .open: return "No open items.\n"
        case .done: return "No done items.\n"
        }
    }

    /// One entry of `todo list --json`.
    struct Entry: Encodable {
        var position: Int
        var id: UUID
        /// The short id commands take (``ShortID``).
        var shortID: String
        var title: String
        var done: Bool
    }

    static func json(_ list: TodoList, filter: ListFilter) -> String {
        let ids = ShortID.ids(for: list.items)
        let entries = list.items.enumerated().compactMap { index, item in
            filter.includes(item) ? Entry(position: index + 1, id: item.id, shortID: ids[index], title: item.title, done: item.isDone) : nil
        }
        return encodeJSON(entries)
    }
}

/// `value` as pretty-printed JSON with a final newline, for `--json` output.
func encodeJSON(_ value: some Encodable) -> String {
    encodeJSON(value, using: jsonOutputEncoder())
}

/// The encoder of every `--json` output: pretty-printed, keys sorted, slashes as they are.
func jsonOutputEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return encoder
}

/// `value` as ``encodeJSON(_:)`` writes it, with an encoder from ``jsonOutputEncoder()``
/// made once for many values (each version of a streamed `history --json`).
func encodeJSON(_ value: some Encodable, using encoder: JSONEncoder) -> String {
    // The output types hold only strings, numbers, booleans and UUIDs: encoding cannot fail.
    let bytes = try! encoder.encode(value)
    // Empty arrays and objects as `[]` and `{}`, not the encoder's `[\n\n]`. A raw newline
    // never occurs inside a JSON string, so only empty containers match. One pass over the
    // bytes: a regular expression over the text took most of `history --json`'s time at
    // 10,000 steps.
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + 1)
    var index = bytes.startIndex
    while index < bytes.endIndex {
        let byte = bytes[index]
        output.append(byte)
        index += 1
        guard byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{"), index < bytes.endIndex, bytes[index] == 0x0A else { continue }
        let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
        var end = index
        while end < bytes.endIndex, bytes[end] == 0x0A || bytes[end] == 0x20 || bytes[end] == 0x09 || bytes[end] == 0x0D { end += 1 }
        if end < bytes.endIndex, bytes[end] == close {
            output.append(close)
            index = end + 1
        }
    }
    output.append(0x0A)
    return String(decoding: output, as: UTF8.self)
}
