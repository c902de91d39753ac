/// A 64-bit checksum of what a value encodes, the same in every process: it feeds an
/// `Encoder` of its own, so it sees the values, not the bytes of any one format.
///
/// A saved step keeps the checksum of its content; the history that first reads the decoded
/// step computes it again (not decoding, which would pay it for every step of a long archive,
/// read or not). Damage a decoder accepts (a changed letter in a saved old value, which no check of the
/// chain can see, because the step still applies) then shows as a different checksum.
///
/// The members of a `Set` and the entries of a `Dictionary` count in any order (their order
/// changes from one process to the next), and so do a keyed container's keys; everything else
/// counts in the order it is encoded. Values are FNV-1a hashed and combined with a
/// SplitMix64-style mix: a checksum against accidental damage, not a defence against forgery.
///
/// `package`, so that the fuzz targets compare two decoded values whatever order their sets
/// encode their members in (their encodings alone differ from one instance to the next).
package struct HistoryArchiveChecksum {

    /// The checksum of `value`'s encoding.
    package static func of(_ value: some Encodable) throws -> UInt64 {
        let root = ChecksumNode()
        try value.encode(to: ChecksumEncoder(node: root))
        return root.digest
    }
}

/// Whether a value's encoding lists its elements in an order that means nothing.
private protocol UnorderedEncodable {
    /// Whether the elements come as key and value, in pairs (a `Dictionary` whose keys are
    /// neither strings nor integers encodes so).
    static var encodesPairs: Bool { get }
}

extension Set: UnorderedEncodable {
    static var encodesPairs: Bool { false }
}

extension Dictionary: UnorderedEncodable {
    static var encodesPairs: Bool { true }
}

/// One encoded value: a leaf, or a container of others.
private final class ChecksumNode {
    enum Order { case ordered, unordered, unorderedPairs }

    var leaf: UInt64?
    var keyed: [(key: String, node: ChecksumNode)] = []
    var items: [ChecksumNode] = []
    var order = Order.ordered
    var isKeyed = false

    var digest: UInt64 {
        if let leaf { return mix(leaf ^ 0x6c65_6166) }
        if isKeyed {
            // Keys in any order: a dictionary of strings encodes its entries in hash order.
            var sum: UInt64 = 0x6b65_7965_64
            for (key, node) in keyed {
                sum &+= mix(fnv(Array(key.utf8)) &+ 0x9e37_79b9 &* node.digest)
            }
            return mix(sum)
        }
        switch order {
        case .ordered:
            var state: UInt64 = 0x6c69_7374
            for item in items {
                state = mix(state ^ item.digest)
            }
            return mix(state &+ UInt64(items.count))
        case .unordered:
            var sum: UInt64 = 0x7365_74
            for item in items {
                sum &+= mix(item.digest)
            }
            return mix(sum &+ UInt64(items.count))
        case .unorderedPairs:
            var sum: UInt64 = 0x6469_6374
            var index = 0
            while index < items.count {
                let key = items[index].digest
                let value = index + 1 < items.count ? items[index + 1].digest : 0
                sum &+= mix(key &+ 0x9e37_79b9 &* value)
                index += 2
            }
            return mix(sum &+ UInt64(items.count))
        }
    }

    func setLeaf(kind: UInt8, bytes: some Sequence<UInt8>) {
        leaf = fnv([kind] + Array(bytes))
    }
}

private func fnv(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return hash
}

private func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9e37_79b9_7f4a_7c15
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
}

private func littleEndianBytes(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
}

private struct ChecksumEncoder: Encoder {
    let node: ChecksumNode
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.isKeyed = true
        return KeyedEncodingContainer(KeyedChecksumContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedChecksumContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleChecksumContainer(node: node, codingPath: codingPath)
    }
}

private struct SingleChecksumContainer: SingleValueEncodingContainer {
    let node: ChecksumNode
    var codingPath: [any CodingKey]

    mutating func encodeNil() { node.setLeaf(kind: 0, bytes: []) }
    mutating func encode(_ value: Bool) { node.setLeaf(kind: 1, bytes: [value ? 1 : 0]) }
    mutating func encode(_ value: String) { node.setLeaf(kind: 2, bytes: value.utf8) }
    mutating func encode(_ value: Double) { node.setLeaf(kind: 3, bytes: littleEndianBytes(value.bitPattern)) }
    mutating func encode(_ value: Float) { node.setLeaf(kind: 4, bytes: littleEndianBytes(UInt64(value.bitPattern))) }
    mutating func encode(_ value: Int) { signed(Int64(value)) }
    mutating func encode(_ value: Int8) { signed(Int64(value)) }
    mutating func encode(_ value: Int16) { signed(Int64(value)) }
    mutating func encode(_ value: Int32) { signed(Int64(value)) }
    mutating func encode(_ value: Int64) { signed(value) }
    mutating func encode(_ value: UInt) { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16) { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32) { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64) { unsigned(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let unordered = T.self as? any UnorderedEncodable.Type {
            node.order = unordered.encodesPairs ? .unorderedPairs : .unordered
        }
        try value.encode(to: ChecksumEncoder(node: node, codingPath: codingPath))
    }

    private func signed(_ value: Int64) { node.setLeaf(kind: 5, bytes: littleEndianBytes(UInt64(bitPattern: value))) }
    private func unsigned(_ value: UInt64) { node.setLeaf(kind: 6, bytes: littleEndianBytes(value)) }
}

private struct KeyedChecksumContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: ChecksumNode
    var codingPath: [any CodingKey]

    private func leaf(_ key: Key) -> SingleChecksumContainer {
        let child = ChecksumNode()
        node.keyed.append((key.stringValue, child))
        return SingleChecksumContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func encodeNil(forKey key: Key) { var leaf = leaf(key); leaf.encodeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) { var leaf = leaf(key); leaf.encode(value) }
    mutating func encode(_ value: String, forKey key: Key) { var leaf = leaf(key); leaf.encode(value) }
    mutating func encode(_ value: Double, forKey key: Key) { var leaf = leaf(key); leaf.encode(value) }
    mutating func encode(_ value: Float, forKey key: Key) { var leaf = leaf(key); leaf.encode(value) }
    mutating func encode(_ value: Int, forKey key: Key) { var leaf = leaf(key); leaf.encode(value) }
    mutating func encode(_ value: Int8, forKey key: Key) { var leaf = leaf(key); leaf.encode(value) }
    mutating func encode(_ value: Int16, forKey key: Key) { var leaf = leaf(key); leaf.encode(value) }
    mutating func encode(_ value: Int32, forKey key: Key) { var leaf = leaf(key); leaf.encode(value) }
    mutating func encode(_ value: Int64, forKey key: Key) { var leaf = leaf(key); leaf.encode(value) }
    mutating func encode(_ value: UInt, forKey key: Key) { var leaf = leaf(key); leaf.encode(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) { var leaf = leaf(key); leaf.encode(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) { var leaf = leaf(key); leaf.encode(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) { var leaf = leaf(key); leaf.encode(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) { var leaf = leaf(key); leaf.encode(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { var leaf = leaf(key); try leaf.encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = ChecksumNode()
        node.keyed.append((key.stringValue, child))
        return ChecksumEncoder(node: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = ChecksumNode()
        node.keyed.append((key.stringValue, child))
        return UnkeyedChecksumContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let child = ChecksumNode()
        node.keyed.append(("super", child))
        return ChecksumEncoder(node: child, codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = ChecksumNode()
        node.keyed.append((key.stringValue, child))
        return ChecksumEncoder(node: child, codingPath: codingPath + [key])
    }
}

private struct UnkeyedChecksumContainer: UnkeyedEncodingContainer {
    let node: ChecksumNode
    var codingPath: [any CodingKey]
    var count: Int { node.items.count }

    private func leaf() -> SingleChecksumContainer {
        let child = ChecksumNode()
        node.items.append(child)
        return SingleChecksumContainer(node: child, codingPath: codingPath)
    }

    mutating func encodeNil() { var leaf = leaf(); leaf.encodeNil() }
    mutating func encode(_ value: Bool) { var leaf = leaf(); leaf.encode(value) }
    mutating func encode(_ value: String) { var leaf = leaf(); leaf.encode(value) }
    mutating func encode(_ value: Double) { var leaf = leaf(); leaf.encode(value) }
    mutating func encode(_ value: Float) { var leaf = leaf(); leaf.encode(value) }
    mutating func encode(_ value: Int) { var leaf = leaf(); leaf.encode(value) }
    mutating func encode(_ value: Int8) { var leaf = leaf(); leaf.encode(value) }
    mutating func encode(_ value: Int16) { var leaf = leaf(); leaf.encode(value) }
    mutating func encode(_ value: Int32) { var leaf = leaf(); leaf.encode(value) }
    mutating func encode(_ value: Int64) { var leaf = leaf(); leaf.encode(value) }
    mutating func encode(_ value: UInt) { var leaf = leaf(); leaf.encode(value) }
    mutating func encode(_ value: UInt8) { var leaf = leaf(); leaf.encode(value) }
    mutating func encode(_ value: UInt16) { var leaf = leaf(); leaf.encode(value) }
    mutating func encode(_ value: UInt32) { var leaf = leaf(); leaf.encode(value) }
    mutating func encode(_ value: UInt64) { var leaf = leaf(); leaf.encode(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { var leaf = leaf(); try leaf.encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = ChecksumNode()
        node.items.append(child)
        return ChecksumEncoder(node: child, codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = ChecksumNode()
        node.items.append(child)
        return UnkeyedChecksumContainer(node: child, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        let child = ChecksumNode()
        node.items.append(child)
        return ChecksumEncoder(node: child, codingPath: codingPath)
    }
}
