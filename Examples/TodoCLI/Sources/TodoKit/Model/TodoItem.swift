import Foundation
import Revertible

/// One entry of the todo list.
///
/// The `id` is made by the command layer, never by the reducer, so replaying the same
/// actions always rebuilds the same list (see ``TodoAction``).
public struct TodoItem: Identifiable, Versionable, Codable, Hashable, Sendable {
    public let id: UUID
    public var title: String
    public var isDone: Bool

    public init(id: UUID, title: String, isDone: Bool = false) {
        self.id = id
        self.title = title
        self.isDone = isDone
    }

    public func addReversions(into reverter: inout some Reverter<TodoItem>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.isDone)
    }

    // Short keys: the list is the part of the file every `todo list` decodes.
    enum CodingKeys: String, CodingKey {
        case id
        case title
        case isDone = "done"
    }

    // Written out to parse the id with the fast parser (see `UUID(parsing:)`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let idText = try container.decode(String.self, forKey: .id)
        guard let id = UUID(parsing: idText) else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "Not a UUID: \(idText)")
        }
        self.id = id
        title = try container.decode(String.self, forKey: .title)
        isDone = try container.decode(Bool.self, forKey: .isDone)
    }
}
