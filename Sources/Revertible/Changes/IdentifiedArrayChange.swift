/// The changes of an array of identifiable values, by identity: elements inserted, removed and
/// moved, and edits inside elements that kept their identity.
///
/// Only inserted and removed elements are stored whole; a move stores two indices and an id,
/// an edit stores the element's own (usually tiny) reversion. Reverting reproduces the exact
/// previous order, whatever permutation happened.
final class IdentifiedArrayChange<Root, Element: Identifiable & Versionable>: ReversionNode {

    typealias Edit = IdentifiedArrayEdit<Element>
    typealias Source = IdentifiedArraySource<Element>
    typealias Structure = IdentifiedArrayStructure<Element>

    let keyPath: WritableKeyPath<Root, [Element]>
    let edits: [Edit]
    let structure: Structure?
    let oldCount: Int
    let newCount: Int

    init(at keyPath: WritableKeyPath<Root, [Element]>, edits: [Edit], structure: Structure?, oldCount: Int, newCount: Int) {
        self.keyPath = keyPath
        self.edits = edits
        self.structure = structure
        self.oldCount = oldCount
        self.newCount = newCount
    }

    func canApply(to value: Root, _ direction: ReversionDirection) -> Bool {
        let array = value[keyPath: keyPath]
        guard array.count == (direction == .backward ? newCount : oldCount) else { return false }
        for edit in edits {
            let element = array[direction == .backward ? edit.newIndex : edit.oldIndex]
            guard element.id == edit.id, edit.node.canApply(to: element, direction) else { return false }
        }
        guard let structure else { return true }
        return (direction == .backward ? structure.new : structure.old).allSatisfy { index, source in
            switch source {
            case let .stored(expected): matchesStored(array[index], expected)
            case let .moved(_, id): array[index].id == id
            }
        }
    }

    func bringsBackOnlyAbsentIDs(in value: Root, _ direction: ReversionDirection) -> Bool {
        guard let structure else { return true }
        let (current, target) = direction == .backward ? (structure.new, structure.old) : (structure.old, structure.new)
        return Self.placesNoPresentID(target, in: value[keyPath: keyPath], removing: current)
    }

    /// Whether the elements `target` brings back from storage are absent from what stays of
    /// `array`. Reads the array only when the change brings elements back.
    private static func placesNoPresentID(
        _ target: [(index: Int, source: Source)], in array: [Element], removing current: [(index: Int, source: Source)]
    ) -> Bool {
        var returning = Set<Element.ID>()
        for (_, source) in target {
            if case let .stored(element) = source { returning.insert(element.id) }
        }
        guard !returning.isEmpty else { return true }
        let removed = Set(current.map { $0.index })
        for (index, element) in array.enumerated() where returning.contains(element.id) && !removed.contains(index) {
            return false
        }
        return true
    }

    /// Edits first, at the indices of the current side, so a moved element carries its edit
    /// with it; then one rebuild of the changed span.
    func apply(to value: inout Root, _ direction: ReversionDirection) -> Bool {
        let edits = edits
        let structure = structure
        return Self.apply(edits: edits, structure: structure, to: &value[keyPath: keyPath], direction)
    }

    private static func apply(edits: [Edit], structure: Structure?, to array: inout [Element], _ direction: ReversionDirection) -> Bool {
        for edit in edits {
            _ = edit.node.apply(to: &array[direction == .backward ? edit.newIndex : edit.oldIndex], direction)
        }
        guard let structure else { return true }
        let (current, target) = direction == .backward ? (structure.new, structure.old) : (structure.old, structure.new)
        let placing = target.map { index, source in
            switch source {
            case let .stored(element): (index, element)
            case let .moved(from, _): (index, array[from])
            }
        }
        rebuild(&array, removing: current.map { $0.index }, placing: placing)
        return true
    }

    /// Each element is a location found by its id (see ``IdentifiedSelective``), so other
    /// writers' inserts, removals and moves elsewhere in the array are no conflict.
    func applySelectively(
        to value: inout Root, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    ) {
        var inner: [NodeConflict] = []
        var positions: [Element.ID: Int]?
        IdentifiedSelective.apply(
            edits: edits, structure: structure, to: &value[keyPath: keyPath], direction, onConflict: policy, conflicts: &inner,
            locate: { array, id in
                if positions == nil {
                    var table: [Element.ID: Int] = [:]
                    table.reserveCapacity(array.count)
                    for (index, element) in array.enumerated() where table[element.id] == nil {
                        table[element.id] = index
                    }
                    positions = table
                }
                return positions![id]
            },
            rewrite: { array, removing, placing in
                positions = nil
                rebuild(&array, removing: removing, placing: placing)
            },
            strictStructure: { array in
                guard let structure = self.structure else { return true }
                let current = direction == .backward ? structure.new : structure.old
                return array.count == (direction == .backward ? self.newCount : self.oldCount) && current.allSatisfy { index, source in
                    switch source {
                    case let .stored(expected): matchesStored(array[index], expected)
                    case let .moved(_, id): array[index].id == id
                    }
                }
            }
        )
        let place = LocationName(keyPath)
        conflicts += inner.map { $0.inside(place) }
    }

    func rerooted<Parent>(at parentPath: WritableKeyPath<Parent, Root>) -> (any ReversionNode<Parent>)? {
        guard isAtSelf(keyPath), let path = parentPath as? WritableKeyPath<Parent, [Element]> else { return nil }
        return IdentifiedArrayChange<Parent, Element>(at: path, edits: edits, structure: structure, oldCount: oldCount, newCount: newCount)
    }

    func refusedLocation(in value: Root, _ direction: ReversionDirection) -> LocationName? {
        let element = LocationName.refusedElement(
            of: edits, in: value[keyPath: keyPath], expectedCount: direction == .backward ? newCount : oldCount, direction
        )
        return LocationName(keyPath) + element
    }

    func appendKeyPaths(to paths: inout [PartialKeyPath<Root>]) {
        for edit in edits {
            let element: WritableKeyPath<Root, Element> = keyPath.appending(path: \[Element].[edit.newIndex])
            var childPaths: [PartialKeyPath<Element>] = []
            edit.node.appendKeyPaths(to: &childPaths)
            for childPath in childPaths {
                if let path = element.appending(path: childPath) as? PartialKeyPath<Root> {
                    paths.append(path)
                }
            }
        }
        if structure != nil {
            paths.append(keyPath)
        }
    }
}

extension IdentifiedArrayChange {

    /// Compares by identity. The common prefix and suffix of equal ids are walked once (by
    /// `ends`, or here when the caller did not), recording in-place edits; only the window
    /// between them is matched through a dictionary, with the longest increasing subsequence
    /// deciding which common elements stay put and which moved.
    static func make(
        at keyPath: WritableKeyPath<Root, [Element]>,
        from old: [Element],
        to new: [Element],
        ends: IdentifiedCommonEnds? = nil
    ) -> IdentifiedArrayChange? {
        var ignored: [IgnoredProperty<[Element]>] = []
        return make(at: keyPath, from: old, to: new, ends: ends, ignored: &ignored)
    }

    /// The change, and in `ignored` the ignored places passed inside the elements compared.
    static func make(
        at keyPath: WritableKeyPath<Root, [Element]>,
        from old: [Element],
        to new: [Element],
        ends: IdentifiedCommonEnds?,
        ignored: inout [IgnoredProperty<[Element]>]
    ) -> IdentifiedArrayChange? {
        guard let ends = ends ?? identifiedCommonEnds(old, new) else { return nil }
        let (prefix, suffix) = (ends.prefix, ends.suffix)
        var edits: [Edit] = []
        for (oldIndex, newIndex) in ends.changed {
            edit(old, oldIndex, new, newIndex, into: &edits, ignored: &ignored)
        }
        let oldWindow = prefix ..< old.count - suffix
        let newWindow = prefix ..< new.count - suffix
        var structure: Structure?
        if !oldWindow.isEmpty || !newWindow.isEmpty {
            structure = matchByIdentity(old: old, oldWindow, new: new, newWindow, edits: &edits, ignored: &ignored)
                ?? replacing(old: old, oldWindow, new: new, newWindow)
        }
        guard structure != nil || !edits.isEmpty else { return nil }
        return IdentifiedArrayChange(at: keyPath, edits: edits, structure: structure, oldCount: old.count, newCount: new.count)
    }

    /// Matches the window's elements by id, or returns `nil` when an id occurs twice on one
    /// side (the array breaks `Identifiable`'s promise, so identity cannot be trusted).
    private static func matchByIdentity(
        old: [Element], _ oldWindow: Range<Int>,
        new: [Element], _ newWindow: Range<Int>,
        edits: inout [Edit],
        ignored: inout [IgnoredProperty<[Element]>]
    ) -> Structure? {
        var oldIndexByID: [Element.ID: Int] = [:]
        oldIndexByID.reserveCapacity(oldWindow.count)
        for index in oldWindow {
            guard oldIndexByID.updateValue(index, forKey: old[index].id) == nil else { return nil }
        }
        var matchedOld = Set<Int>()
        var pairs: [(old: Int, new: Int)] = []
        var newSide: [(index: Int, source: Source)] = []
        for index in newWindow {
            if let oldIndex = oldIndexByID[new[index].id] {
                guard matchedOld.insert(oldIndex).inserted else { return nil }
                pairs.append((oldIndex, index))
            } else {
                newSide.append((index, .stored(new[index])))
            }
        }
        var oldSide: [(index: Int, source: Source)] = oldWindow
            .filter { !matchedOld.contains($0) }
            .map { ($0, .stored(old[$0])) }

        let staying = longestIncreasingSubsequence(pairs.map { $0.old })
        for (position, pair) in pairs.enumerated() {
            if old[pair.old] != new[pair.new] {
                edit(old, pair.old, new, pair.new, into: &edits, ignored: &ignored)
            }
            if !staying.contains(position) {
                let id = new[pair.new].id
                oldSide.append((pair.old, .moved(from: pair.new, id: id)))
                newSide.append((pair.new, .moved(from: pair.old, id: id)))
            }
        }
        oldSide.sort { $0.index < $1.index }
        newSide.sort { $0.index < $1.index }
        return Structure(old: oldSide, new: newSide)
    }

    /// Compares an element that kept its identity (and differs): its edit, if anything
    /// versioned changed, and the ignored places inside it, at its position in `new`.
    private static func edit(
        _ old: [Element], _ oldIndex: Int,
        _ new: [Element], _ newIndex: Int,
        into edits: inout [Edit],
        ignored: inout [IgnoredProperty<[Element]>]
    ) {
        let element = new[newIndex]
        let difference = element.difference(fromSameIdentity: old[oldIndex])
        if !difference.ignored.isEmpty {
            ignored += difference.ignored.atElement(newIndex, id: element.id, of: [Element].self)
        }
        if let node = difference.node {
            edits.append(Edit(oldIndex: oldIndex, newIndex: newIndex, id: element.id, node: node))
        }
    }

    /// The window replaced wholesale: correct for any content, used only when ids repeat.
    private static func replacing(old: [Element], _ oldWindow: Range<Int>, new: [Element], _ newWindow: Range<Int>) -> Structure {
        Structure(
            old: oldWindow.map { ($0, .stored(old[$0])) },
            new: newWindow.map { ($0, .stored(new[$0])) }
        )
    }
}

/// The reversion between two arrays whose common ends a specialized caller already walked
/// (see ``identifiedCommonEnds(_:_:)``), and the ignored places inside the elements compared.
@usableFromInline
func identifiedArrayReversion<Root, Element: Identifiable & Versionable>(
    at keyPath: WritableKeyPath<Root, [Element]>,
    from old: [Element],
    to new: [Element],
    ends: IdentifiedCommonEnds
) -> (reversion: Reversion<Root>?, ignored: [IgnoredProperty<Root>]) {
    var ignored: [IgnoredProperty<[Element]>] = []
    let change = IdentifiedArrayChange.make(at: keyPath, from: old, to: new, ends: ends, ignored: &ignored)
    return (change.map { Reversion(node: $0) }, ignored.rerooted(at: keyPath))
}

/// The positions, in `values`, of one longest strictly increasing subsequence.
@usableFromInline
func longestIncreasingSubsequence(_ values: [Int]) -> Set<Int> {
    // tails[k]: position of the smallest last value of an increasing run of length k + 1.
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: values.count)
    for (position, value) in values.enumerated() {
        var low = 0
        var high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
        }
        if low > 0 { previous[position] = tails[low - 1] }
        if low == tails.count { tails.append(position) } else { tails[low] = position }
    }
    var result = Set<Int>()
    var position = tails.last ?? -1
    while position >= 0 {
        result.insert(position)
        position = previous[position]
    }
    return result
}

/// An element that kept its identity but changed inside.
///
/// `@usableFromInline`, as the other parts of a change below: a tree's comparison makes them
/// in code specialized for the element type (see `TreeArrayDiffer.makeReversion(from:to:)`).
@usableFromInline
struct IdentifiedArrayEdit<Element: Identifiable & Versionable> {
    @usableFromInline let oldIndex: Int
    @usableFromInline let newIndex: Int
    @usableFromInline let id: Element.ID
    @usableFromInline let node: any ReversionNode<Element>

    @inlinable
    init(oldIndex: Int, newIndex: Int, id: Element.ID, node: any ReversionNode<Element>) {
        self.oldIndex = oldIndex
        self.newIndex = newIndex
        self.id = id
        self.node = node
    }
}

/// What fills a position on one side of a structural change.
@usableFromInline
enum IdentifiedArraySource<Element: Identifiable & Versionable> {
    /// An element only this side has (inserted or removed), stored whole.
    case stored(Element)
    /// An element both sides have, found at `index` on the other side.
    case moved(from: Int, id: Element.ID)
}

/// The positions that differ on each side; every other position of the changed window
/// holds the same elements in the same relative order on both sides.
@usableFromInline
struct IdentifiedArrayStructure<Element: Identifiable & Versionable> {
    @usableFromInline let old: [(index: Int, source: IdentifiedArraySource<Element>)]
    @usableFromInline let new: [(index: Int, source: IdentifiedArraySource<Element>)]

    @inlinable
    init(old: [(index: Int, source: IdentifiedArraySource<Element>)], new: [(index: Int, source: IdentifiedArraySource<Element>)]) {
        self.old = old
        self.new = new
    }
}
