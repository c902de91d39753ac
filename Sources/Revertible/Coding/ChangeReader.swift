/// Where a saved change's objects (a node, and the edits, entries and positions inside one)
/// are read from: a `Decoder` (``DecoderChangeReader``), or a parsed JSON text directly
/// (``JSONChangeReader``), which skips `Codable`'s boxed containers and the metadata of their
/// generic code.
///
/// Each kind's reading is written once, over ``ChangeFields``, so both ways read the same
/// fields in the same order and refuse the same content with the same errors at the same
/// coding paths. The keys are generic so that one reader serves every object of a change,
/// whatever keys it has.
protocol ChangeReader {
    var codingPath: [any CodingKey] { get }

    func contains(_ key: some CodingKey) -> Bool

    /// The value under `key`, through its own `Decodable` conformance (or as the reader
    /// reads the common leaf types itself, to the same value).
    func decode<Value: Decodable>(_ type: Value.Type, forKey key: some CodingKey) throws -> Value

    func string(forKey key: some CodingKey) throws -> String

    func integer(forKey key: some CodingKey) throws -> Int

    /// The `Bool` under `key`, or `nil` when it is absent or `null`.
    func boolIfPresent(forKey key: some CodingKey) throws -> Bool?

    /// The object under `key`, which must be there.
    func object(forKey key: some CodingKey) throws -> Self

    /// Each object of the array under `key`, in order, read by `read`.
    func objects<Element>(forKey key: some CodingKey, _ read: (Self) throws -> Element) throws -> [Element]

    /// The change under `key`, a change of `Root`.
    func node<Root>(_ root: Root.Type, forKey key: some CodingKey) throws -> DecodedNode<Root>

    /// The changes of the array under `key`, changes of `Root`.
    func nodes<Root>(_ root: Root.Type, forKey key: some CodingKey) throws -> [DecodedNode<Root>]
}
