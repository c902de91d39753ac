import Foundation

/// The interchange format of `todo export --json` and `todo import --json FILE`: the list,
/// without its history, as plain JSON that other programs can write and read.
///
/// ```json
/// {
///   "format" : "todo-export",
///   "items" : [
///     { "done" : false, "id" : "0F8E6A52-1C5E-4B8B-9B0E-7C1D2E3F4A5B", "title" : "buy milk" }
///   ],
///   "version" : 1
/// }
/// ```
///
/// `items` are in list order. On import, `id` may be left out (a new one is made) and must be
/// unique; `title` must be non-empty plain text (no control characters); `done` defaults to
/// `false`. Unknown keys are ignored, so later versions may add some.
struct ExportDocument: Codable {
    static let formatName = "todo-export"
    static let currentVersion = 1

    var format: String
    var version: Int
    var items: [Item]

    /// One item of the document.
    struct Item: Codable {
        var id: UUID?
        var title: String
        var done: Bool?
    }

    /// The document for `list`.
    init(_ list: TodoList) {
        format = Self.formatName
        version = Self.currentVersion
        items = list.items.map { Item(id: $0.id, title: $0.title, done: $0.isDone) }
    }

    /// The document as `todo export --json` prints it.
    func json() -> String {
        encodeJSON(self)
    }

    /// The items of the document in `data` (read from `path`, for messages), checked.
    static func items(from data: Data, path: String) throws(TodoError) -> [TodoItem] {
        let document: ExportDocument
        do {
            document = try JSONDecoder().decode(ExportDocument.self, from: data)
        } catch {
            throw .badInput("\(path): not a todo export (\(describe(error)))")
        }
        guard document.format == formatName else {
            throw .badInput("\(path): not a todo export (\"format\" is \"\(PlainText.escaping(document.format))\", not \"\(formatName)\")")
        }
        guard document.version <= currentVersion else {
            throw .badInput("\(path): written by a newer todo (export version \(document.version)); upgrade todo")
        }
        var seen: [UUID: Int] = [:]
        var items: [TodoItem] = []
        items.reserveCapacity(document.items.count)
        for (offset, item) in document.items.enumerated() {
            let position = offset + 1
            do {
                try PlainText.checkRawLength(item.title, what: "a title")
            } catch {
                throw .badInput("\(path): item \(position): \(error.message)")
            }
            let title = item.title.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
            guard !title.isEmpty else { throw .badInput("\(path): item \(position) has an empty title") }
            do {
                try PlainText.check(title, what: "a title")
            } catch {
                throw .badInput("\(path): item \(position): \(error.message)")
            }
            let id = item.id ?? UUID()
            if let first = seen[id] {
                throw .badInput("\(path): items \(first) and \(position) share the id \(id.uuidString)")
            }
            seen[id] = position
            items.append(TodoItem(id: id, title: title, isDone: item.done ?? false))
        }
        return items
    }

    /// A decoding error in a few words, with where it happened.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "invalid JSON" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "" : " at \(keys)"
        }
        switch error {
        case let .keyNotFound(key, context): return "missing \"\(key.stringValue)\"\(path(context))"
        case let .typeMismatch(_, context), let .valueNotFound(_, context): return "wrong type\(path(context))"
        case let .dataCorrupted(context): return context.codingPath.isEmpty ? "invalid JSON" : "invalid value\(path(context))"
        @unknown default: return "invalid JSON"
        }
    }
}
