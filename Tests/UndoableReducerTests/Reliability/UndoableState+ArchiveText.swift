import Foundation
import Revertible
import UndoableReducer

/// The archive `state` saves, as JSON text with sorted keys: what the journal tests compare,
/// byte for byte, between a journaled and a comparing history.
func archive<State: Codable>(of state: UndoableState<State>) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(state), as: UTF8.self)
}
