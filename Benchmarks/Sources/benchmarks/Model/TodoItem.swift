import Foundation
import Revertible

/// One todo, shaped like the design's benchmark item: a UUID, a ~30-character title, a done
/// flag and ~200 characters of notes.
struct TodoItem: Identifiable, Versionable, Hashable, Codable {
    let id: UUID
    var title: String
    var isDone: Bool
    var notes: String

    func addReversions(into reverter: inout some Reverter<TodoItem>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.isDone)
        reverter.appendReversion(at: \.notes)
    }
}
