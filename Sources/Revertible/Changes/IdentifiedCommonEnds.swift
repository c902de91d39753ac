/// The common prefix and suffix, by id, of two arrays of identifiable values, and the
/// positions in them whose elements changed.
///
/// `changed` holds `(old, new)` index pairs, the prefix's ascending, then the suffix's from
/// the end. `@usableFromInline`, not public: only inlinable library code makes one.
@usableFromInline
struct IdentifiedCommonEnds {
    @usableFromInline let prefix: Int
    @usableFromInline let suffix: Int
    @usableFromInline let changed: [(old: Int, new: Int)]

    @inlinable
    init(prefix: Int, suffix: Int, changed: [(old: Int, new: Int)]) {
        self.prefix = prefix
        self.suffix = suffix
        self.changed = changed
    }
}

/// Walks the common ends of `old` and `new` by id, or returns `nil` when they share storage
/// (and are therefore equal).
///
/// Inlinable so that it is specialized for the caller's element type: this walk touches every
/// element of the array on every append, and unspecialized, each element read copies the
/// element (a retain and a release of each reference in it) and calls `id` and `==` through
/// witness tables.
@inlinable
func identifiedCommonEnds<Element: Identifiable & Equatable>(_ old: [Element], _ new: [Element]) -> IdentifiedCommonEnds? {
    let sharesStorage = old.count == new.count && old.withUnsafeBufferPointer { mine in
        new.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
    }
    guard !sharesStorage else { return nil }
    var changed: [(old: Int, new: Int)] = []
    let shorter = min(old.count, new.count)
    var prefix = 0
    while prefix < shorter, old[prefix].id == new[prefix].id {
        if old[prefix] != new[prefix] {
            changed.append((prefix, prefix))
        }
        prefix += 1
    }
    var suffix = 0
    while suffix < shorter - prefix, old[old.count - 1 - suffix].id == new[new.count - 1 - suffix].id {
        if old[old.count - 1 - suffix] != new[new.count - 1 - suffix] {
            changed.append((old.count - 1 - suffix, new.count - 1 - suffix))
        }
        suffix += 1
    }
    return IdentifiedCommonEnds(prefix: prefix, suffix: suffix, changed: changed)
}
