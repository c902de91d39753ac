/// Elements inserted into and removed from an array of `Equatable` values (a collection
/// difference). Only those elements are stored; the unchanged ones are not copied.
final class ArrayDifferenceChange<Root, Element: Equatable>: ReversionNode {

    let keyPath: WritableKeyPath<Root, [Element]>
    /// Elements of the older version that the newer one lacks, at their index in the older one.
    let removals: [(index: Int, element: Element)]
    /// Elements of the newer version that the older one lacks, at their index in the newer one.
    let insertions: [(index: Int, element: Element)]
    let oldCount: Int
    let newCount: Int

    init(
        at keyPath: WritableKeyPath<Root, [Element]>,
        removals: [(index: Int, element: Element)],
        insertions: [(index: Int, element: Element)],
        oldCount: Int,
        newCount: Int
    ) {
        self.keyPath = keyPath
        self.removals = removals
        self.insertions = insertions
        self.oldCount = oldCount
        self.newCount = newCount
    }

    /// Trims the common prefix and suffix first, so the O(n·d) difference runs only over the
    /// part that changed.
    static func make(at keyPath: WritableKeyPath<Root, [Element]>, from old: [Element], to new: [Element]) -> ArrayDifferenceChange? {
        guard !old.sharesStorage(with: new) else { return nil }
        let (prefix, suffix) = old.commonEnds(with: new, by: ==)
        guard prefix + suffix < max(old.count, new.count) else { return nil }
        let difference = new[prefix ..< new.count - suffix].difference(from: old[prefix ..< old.count - suffix])
        var removals: [(index: Int, element: Element)] = []
        var insertions: [(index: Int, element: Element)] = []
        for change in difference {
            switch change {
            case let .remove(offset, element, _):
                removals.append((prefix + offset, element))
            case let .insert(offset, element, _):
                insertions.append((prefix + offset, element))
            }
        }
        removals.sort { $0.index < $1.index }
        insertions.sort { $0.index < $1.index }
        return ArrayDifferenceChange(at: keyPath, removals: removals, insertions: insertions, oldCount: old.count, newCount: new.count)
    }

    func canApply(to value: Root, _ direction: ReversionDirection) -> Bool {
        let array = value[keyPath: keyPath]
        let (count, present) = direction == .backward ? (newCount, insertions) : (oldCount, removals)
        return array.count == count && present.allSatisfy { matchesStored(array[$0.index], $0.element) }
    }

    func apply(to value: inout Root, _ direction: ReversionDirection) -> Bool {
        let (leaving, returning) = direction == .backward ? (insertions, removals) : (removals, insertions)
        rebuild(&value[keyPath: keyPath], removing: leaving.map { $0.index }, placing: returning)
        return true
    }

    /// A positional array has no identity to find an element by, so the whole array is one
    /// location: the change applies only where the array still has the length the change
    /// left and holds, at each position the change wrote, what it wrote there. Any other
    /// writer's insert or removal (which shifts positions) or a change at one of those
    /// positions is a conflict; a change at another position is not.
    ///
    /// `.overwrite` writes the change's positions anyway when the length still fits (the
    /// elements another writer put there are replaced); with another length, the positions
    /// cannot be told and nothing is written.
    func applySelectively(
        to value: inout Root, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    ) {
        let count = direction == .backward ? newCount : oldCount
        applyAsOneLocation(to: &value, direction, onConflict: policy, conflicts: &conflicts) { value in
            let array = value[keyPath: keyPath]
            let present = direction == .backward ? insertions : removals
            let expected = "\(count) elements" + present.map { ", [\($0.index)]: \(describe($0.element))" }.joined()
            let found = array.count == count
                ? "\(count) elements" + present.map { ", [\($0.index)]: \(describe(array[$0.index]))" }.joined()
                : "\(array.count) elements"
            return NodeConflict(location: LocationName(keyPath), expected: describe(expected), found: describe(found))
        } overwrite: { value in
            if value[keyPath: keyPath].count == count {
                _ = apply(to: &value, direction)
            }
        }
    }

    func rerooted<Parent>(at parentPath: WritableKeyPath<Parent, Root>) -> (any ReversionNode<Parent>)? {
        guard isAtSelf(keyPath), let path = parentPath as? WritableKeyPath<Parent, [Element]> else { return nil }
        return ArrayDifferenceChange<Parent, Element>(
            at: path, removals: removals, insertions: insertions, oldCount: oldCount, newCount: newCount
        )
    }

    func appendKeyPaths(to paths: inout [PartialKeyPath<Root>]) {
        paths.append(keyPath)
    }
}

extension Array {

    /// Whether both arrays are views of the same buffer, so they are equal without comparing
    /// a single element.
    func sharesStorage(with other: [Element]) -> Bool {
        count == other.count && withUnsafeBufferPointer { mine in
            other.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
    }

    /// The lengths of the longest common prefix and of the longest common suffix that does not
    /// overlap it.
    func commonEnds(with other: [Element], by same: (Element, Element) -> Bool) -> (prefix: Int, suffix: Int) {
        let shorter = Swift.min(count, other.count)
        var prefix = 0
        while prefix < shorter, same(self[prefix], other[prefix]) {
            prefix += 1
        }
        var suffix = 0
        while suffix < shorter - prefix, same(self[count - 1 - suffix], other[other.count - 1 - suffix]) {
            suffix += 1
        }
        return (prefix, suffix)
    }
}
