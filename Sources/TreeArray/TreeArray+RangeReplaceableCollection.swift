extension TreeArray: RangeReplaceableCollection {

    /// Inserts `newElement` at position `i` (`0 ... count`).
    ///
    /// - Complexity: O(log *n*).
    @inlinable
    public mutating func insert(_ newElement: Element, at i: Int) {
        precondition(i >= 0 && i <= root.count, "TreeArray insertion index out of range")
        let journaled = journal(.inserted(at: i))
        defer { journaled?.retake(self) }
        journaled?.keepIfShared(&self)
        var identities = takeIdentities()
        makeRootUnique(growing: true)
        var (inserted, sibling) = root.insert(newElement, at: i, between: 0, and: .max, identities: &identities)
        if !inserted {
            // No room for a key anywhere below the root: spread all keys over the whole range.
            precondition(root.relabel(between: 0, and: .max, minimum: 2, identities: &identities), "TreeArray is out of order keys")
            (inserted, sibling) = root.insert(newElement, at: i, between: 0, and: .max, identities: &identities)
        }
        if let sibling {
            root = Node.branch(height: root.height + 1, children: [root, sibling])
        }
        putIdentities(identities)
        _debugInvariantCheck()
    }

    /// Adds `newElement` at the end.
    ///
    /// - Complexity: O(log *n*).
    @inlinable
    public mutating func append(_ newElement: Element) {
        insert(newElement, at: root.count)
    }

    /// Adds the elements of `newElements` at the end.
    ///
    /// - Complexity: O(*m* log *n*), where *m* is the number of new elements.
    @inlinable
    public mutating func append<S: Sequence<Element>>(contentsOf newElements: S) {
        if isEmpty {
            self = TreeArray(newElements)
            return
        }
        for element in newElements {
            append(element)
        }
    }

    /// Removes and returns the element at position `i`.
    ///
    /// - Complexity: O(log *n*).
    @inlinable @discardableResult
    public mutating func remove(at i: Int) -> Element {
        precondition(i >= 0 && i < root.count, "TreeArray index out of range")
        let journaled = journal(.removed(at: i, old: self[i]))
        defer { journaled?.retake(self) }
        journaled?.keepIfShared(&self)
        var identities = takeIdentities()
        makeRootUnique()
        let (removed, key) = root.remove(at: i)
        collapseRoot()
        identities?.remove(removed, key: key)
        putIdentities(identities)
        _debugInvariantCheck()
        return removed
    }

    /// Removes every element.
    ///
    /// - Complexity: O(1) (the old storage is released, which is O(*n*) if nothing else
    ///   shares it).
    @inlinable
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        root = Node.emptyLeaf(slots: 0)
    }

    /// Replaces the elements in `subrange` with `newElements`.
    ///
    /// - Complexity: O((*k* + *m*) log *n*) when the removed count *k* and the inserted count
    ///   *m* are small against *n*; otherwise O(*n* + *m*) (the tree is rebuilt).
    @inlinable
    public mutating func replaceSubrange<C: Collection<Element>>(_ subrange: Range<Int>, with newElements: C) {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= root.count, "TreeArray range out of bounds")
        let inserted = newElements.count
        let changed = subrange.count + inserted
        if changed <= 64 || changed.multipliedReportingOverflow(by: 16).partialValue < root.count {
            for _ in subrange {
                remove(at: subrange.lowerBound)
            }
            var position = subrange.lowerBound
            for element in newElements {
                insert(element, at: position)
                position += 1
            }
            return
        }
        var all = ContiguousArray<Element>()
        all.reserveCapacity(root.count - subrange.count + inserted)
        all.append(contentsOf: self[..<subrange.lowerBound])
        all.append(contentsOf: newElements)
        all.append(contentsOf: self[subrange.upperBound...])
        self = TreeArray(all)
    }
}
