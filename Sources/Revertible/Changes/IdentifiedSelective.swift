/// Selective application of a change to identifiable elements (an array's or a tree's), shared
/// by ``IdentifiedArrayChange`` and ``TreeArrayChange``.
///
/// Every element is its own location, found by its id wherever it is now, so another writer's
/// inserts, removals and moves elsewhere are no conflict:
///
/// - an edit applies inside the element with its id (selectively, so its own properties are
///   locations too); an element gone is a conflict;
/// - an element the change put there (undo removes it) is removed only if it still equals what
///   was put there; otherwise it is a conflict (and `.overwrite` removes it anyway); gone is a
///   conflict with nothing to do;
/// - an element the change took away (undo re-inserts it) comes back at its old position
///   among the elements that remain, unless an element with its id exists again: a conflict
///   (`.overwrite` writes the old element over it, where it is);
/// - a moved element is moved back to its old position, best effort (its position is no
///   location: a moved element another writer removed is no conflict, and nothing to do).
///
/// When ids repeat (in the change or in the value), identity cannot be trusted: the structure
/// is then one location, applied whole when the positions still fit.
enum IdentifiedSelective<Element: Identifiable & Versionable> {

    typealias Structure = IdentifiedArrayStructure<Element>

    /// Applies `edits` and `structure` to `elements` as described above.
    ///
    /// - Parameters:
    ///   - locate: the position of the element with an id in `elements` as they are when
    ///     called (edits never move elements, so positions found before the structure is
    ///     written stay valid).
    ///   - rewrite: removes the ascending positions given, then places the elements at the
    ///     ascending positions of the result.
    static func apply<Elements: MutableCollection & RandomAccessCollection>(
        edits: some Sequence<IdentifiedArrayEdit<Element>>,
        structure: Structure?,
        to elements: inout Elements,
        _ direction: ReversionDirection,
        onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict],
        locate: (Elements, Element.ID) -> Int?,
        rewrite: (inout Elements, [Int], [(index: Int, element: Element)]) -> Void,
        strictStructure: (Elements) -> Bool
    ) where Elements.Element == Element, Elements.Index == Int {
        let backward = direction == .backward
        for edit in edits {
            let expectedIndex = elements.startIndex + (backward ? edit.newIndex : edit.oldIndex)
            let index = nearby(edit.id, around: expectedIndex, in: elements) ?? locate(elements, edit.id)
            let place = LocationName.subscript("id: \(LocationName.argument(edit.id))")
            guard let index else {
                conflicts.append(NodeConflict(location: place, expected: nil, found: nil))
                continue
            }
            var inner: [NodeConflict] = []
            edit.node.applySelectively(to: &elements[index], direction, onConflict: policy, conflicts: &inner)
            conflicts += inner.map { $0.inside(place) }
        }
        guard let structure else { return }
        let (current, target) = backward ? (structure.new, structure.old) : (structure.old, structure.new)

        guard idsAreUnique(current, target) else {
            if strictStructure(elements) {
                let placing = target.map { index, source in
                    switch source {
                    case let .stored(element): (index: index, element: element)
                    case let .moved(from, _): (index: index, element: elements[elements.startIndex + from])
                    }
                }
                rewrite(&elements, current.map { $0.index }, placing)
            } else {
                conflicts.append(NodeConflict(location: .root))
            }
            return
        }

        var removing: [Int] = []
        // Elements this move takes out by id: one it also puts back (stored on both sides, as
        // steps recorded before such elements became moves were) is no "exists again".
        var removedIDs = Set<Element.ID>()
        // Stored on both sides but not taken out (another writer changed it): it stays where it is.
        var keptIDs = Set<Element.ID>()
        for (_, source) in current {
            guard case let .stored(expected) = source else { continue }
            let place = LocationName.subscript("id: \(LocationName.argument(expected.id))")
            guard let index = locate(elements, expected.id) else {
                conflicts.append(NodeConflict(location: place, expected: describe(expected), found: nil))
                continue
            }
            if !matchesStored(elements[index], expected) {
                conflicts.append(NodeConflict(location: place, expected: describe(expected), found: describe(elements[index])))
                guard policy == .overwrite else { keptIDs.insert(expected.id); continue }
            }
            removing.append(index)
            removedIDs.insert(expected.id)
        }
        var placing: [(index: Int, element: Element)] = []
        for (index, source) in target {
            switch source {
            case let .moved(_, id):
                // An element another writer removed has no place to go back to; its value,
                // the location, is not the move's.
                guard let found = locate(elements, id) else { continue }
                removing.append(found)
                placing.append((index, elements[found]))
            case let .stored(element):
                if keptIDs.contains(element.id) { continue }
                if !removedIDs.contains(element.id), let found = locate(elements, element.id) {
                    let place = LocationName.subscript("id: \(LocationName.argument(element.id))")
                    conflicts.append(NodeConflict(location: place, expected: nil, found: describe(elements[found])))
                    if policy == .overwrite {
                        elements[found] = element
                    }
                    continue
                }
                placing.append((index, element))
            }
        }
        // Distinct ids are at distinct positions; a value whose ids repeat could still name
        // one position twice.
        removing = Array(Set(removing)).sorted()
        // Each element lands at its old position counted among what remains, or at the end
        // when fewer remain than before.
        let remaining = elements.count - removing.count
        for position in placing.indices {
            placing[position].index = min(placing[position].index, remaining + position)
        }
        rewrite(&elements, removing, placing)
    }

    /// The position of the element with `id` within a few places of `expected`: another
    /// writer's insert or removal shifts an element by as many places, and finding it there
    /// saves building an index of every id (O(*n*)) for each step undone.
    private static func nearby<Elements: RandomAccessCollection>(
        _ id: Element.ID, around expected: Int, in elements: Elements
    ) -> Int? where Elements.Element == Element, Elements.Index == Int {
        for distance in 0...8 {
            for index in distance == 0 ? [expected] : [expected - distance, expected + distance]
            where elements.indices.contains(index) && elements[index].id == id {
                return index
            }
        }
        return nil
    }

    /// Whether no id occurs twice among the elements the structure stores or moves, but for
    /// an element stored once on each side (taken out and put back, see ``apply``).
    private static func idsAreUnique(
        _ current: [(index: Int, source: IdentifiedArraySource<Element>)],
        _ target: [(index: Int, source: IdentifiedArraySource<Element>)]
    ) -> Bool {
        var stored = Set<Element.ID>()
        for (_, source) in current {
            guard case let .stored(element) = source else { continue }
            guard stored.insert(element.id).inserted else { return false }
        }
        var seen = Set<Element.ID>()
        for (_, source) in target {
            switch source {
            case let .stored(element):
                guard seen.insert(element.id).inserted else { return false }
            case let .moved(_, id):
                guard seen.insert(id).inserted, !stored.contains(id) else { return false }
            }
        }
        return true
    }
}

/// How a conflict shows a value: as it prints, cut short when long, so that a conflict in a
/// large value does not carry the value whole.
func describe(_ value: some Any) -> String {
    let text = String(describing: value)
    let limit = 200
    guard text.utf8.count > limit else { return text }
    return String(text.prefix(limit)) + "…"
}

/// How a conflict shows the run a change expected: as the whole value when the run was all
/// of it, else marked as a part (`…run…`).
func describe(run: some Any, isWhole: Bool) -> String {
    isWhole ? describe(run) : "…" + describe(run) + "…"
}
