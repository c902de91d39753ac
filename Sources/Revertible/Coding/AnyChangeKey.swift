/// Any key of a saved change's objects, so that one reader type, not one per key type, reads
/// them all (code generic over the key ran unspecialized, looking up generic metadata at run
/// time). It reads and describes itself as the key it stands for, so errors name that key.
struct AnyChangeKey: CodingKey, CustomStringConvertible, CustomDebugStringConvertible {
    let base: any CodingKey

    init(_ key: some CodingKey) {
        base = key
    }

    init?(stringValue: String) {
        base = JSONMemberKey(stringValue)
    }

    init?(intValue: Int) {
        base = JSONIndexKey(index: intValue)
    }

    var stringValue: String { base.stringValue }
    var intValue: Int? { base.intValue }
    var description: String { base.description }
    var debugDescription: String { base.debugDescription }
}
