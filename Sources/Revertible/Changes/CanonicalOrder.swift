import Foundation

// A set or a dictionary iterates in an order that depends on how it was built and on the
// process's hash seed, and a saved step writes its members in the order its change lists
// them: without a fixed order, one change saved from two equal collections would differ in
// its bytes (issue 39), and so would the archives of a journaled and a compared history.
// Changes are put in this order when they are made, not when they are saved, so that the
// one save path (`Encodable`, which the checksums use too) writes what a change holds: a
// decoded change keeps the order it was saved in, and an archive saved in any order loads
// and saves again as it was, its checksums included.

/// Puts `items` in an order fixed by their keys alone: the keys' own order when `Key` is
/// `Comparable`, else the bytes of each key's JSON encoding (`JSONEncoder`, sorted keys),
/// compared bytewise. Keys that cannot be encoded keep their order; a change holding them
/// cannot be saved anyway. Equal keys (or keys a non-strict `<` cannot tell apart) keep their
/// order too: the sort is stable.
///
/// - Complexity: O(*n* log *n*) comparisons; nothing for fewer than two items.
func sortCanonically<Item, Key: Hashable>(_ items: inout [Item], byKey key: (Item) -> Key) {
    guard items.count > 1 else { return }
    if let comparable = Key.self as? any Comparable.Type {
        sortByComparableKeys(&items, byKey: key, as: comparable)
        return
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    var encoded: [[UInt8]] = []
    encoded.reserveCapacity(items.count)
    for item in items {
        guard let encodable = key(item) as? any Encodable, let bytes = try? encoder.encode(encodable) else { return }
        encoded.append([UInt8](bytes))
    }
    let order = items.indices.sorted { encoded[$0].lexicographicallyPrecedes(encoded[$1]) }
    items = order.map { items[$0] }
}

private func sortByComparableKeys<Item, Key, Ordered: Comparable>(_ items: inout [Item], byKey key: (Item) -> Key, as _: Ordered.Type) {
    let keys = items.map { key($0) as! Ordered }
    let order = items.indices.sorted { keys[$0] < keys[$1] }
    items = order.map { items[$0] }
}
