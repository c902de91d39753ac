/// The steps of one scope, by the version each leads to: a dictionary's interface over one
/// contiguous array sorted by version.
///
/// A `Dictionary` keeps at most 3/4 of its buckets full and stores keys apart from values, so a
/// step cost it twice the record's size and more (about 120 bytes of the 520 a one-element
/// edit kept). Versions are made in increasing order and a scope only ever adds versions newer
/// than all it holds (archives are loaded oldest first), so appending keeps the array sorted.
/// A lookup tries the slot at the version's offset from the oldest (right for versions made
/// in a row), then the newest, and otherwise searches by bisection.
///
/// A table over a store (see ``HistoryStepStore``) holds only the steps that changed since the
/// store was last written, and tombstones for the versions it dropped: every other lookup
/// reads through to the store's ``HistoryStepSource``. An in-memory table has no source, and
/// pays one `nil` test on a lookup that misses.
@usableFromInline
struct HistoryStepTable<Value, Annotation> {
    @usableFromInline
    typealias Step = RecordedStep<Value, Annotation>

    /// The steps from `head` on, oldest first. Slots before `head` were dropped by the limit
    /// and hold a copy of a kept step (sharing its storage, so they keep nothing alive of their
    /// own) until the array is compacted: dropping the oldest step then costs no shift of all
    /// the others. (Internal, not private, only so that clients can inline the lookup.)
    @usableFromInline var entries: ContiguousArray<Step> = []
    @usableFromInline var head = 0
    /// The oldest step's version, kept apart so that a lookup in a run of versions made in a
    /// row reads one step, not three.
    @usableFromInline var oldest = HistoryVersion(0)
    /// Where the steps not in `entries` are read from; `nil` for a table kept whole in memory.
    var source: HistoryStepSource<Value, Annotation>?
    /// The scope this table belongs to, which `source` filters by.
    var level = 0
    /// With a source: the saved versions this table dropped, which it no longer reads.
    var removed: Set<HistoryVersion> = []
    /// With a source: how many steps the table holds, saved and new.
    @usableFromInline var sourcedCount = 0

    init() {}

    @inlinable
    var count: Int { sourceIsNil ? entries.count - head : sourcedCount }

    /// Whether the table is kept whole in memory (a function, so that the inlinable code
    /// above need not see the source's type).
    @usableFromInline
    var sourceIsNil: Bool { source == nil }

    /// The saved step leading to `version`, if the table has a source and did not drop it.
    @usableFromInline
    func savedStep(_ version: HistoryVersion) -> Step? {
        guard let source, !removed.contains(version) else { return nil }
        return source.step(version, inScope: level)
    }

    @usableFromInline
    var isEmpty: Bool { count == 0 }

    /// The version of `entries[index]`. Reading a step's field in this code, generic over the
    /// value, costs about a copy of the step, so lookups read as few as they can.
    @inlinable
    func version(at index: Int) -> HistoryVersion {
        entries[index].version
    }

    /// The position of `version` in `entries`, or where it would be inserted.
    @inlinable
    func position(of version: HistoryVersion) -> (index: Int, found: Bool) {
        guard head < entries.count else { return (entries.count, false) }
        if version >= oldest {
            let offset = version.rawValue - oldest.rawValue
            if offset < UInt64(entries.count - head), self.version(at: head + Int(offset)) == version {
                return (head + Int(offset), true)
            }
        }
        let newest = self.version(at: entries.count - 1)
        if newest == version { return (entries.count - 1, true) }
        if newest < version { return (entries.count, false) }
        if version < oldest { return (head, false) }
        var low = head
        var high = entries.count - 1
        while low < high {
            let middle = low + (high - low) / 2
            if self.version(at: middle) < version { low = middle + 1 } else { high = middle }
        }
        return (low, self.version(at: low) == version)
    }

    @usableFromInline
    subscript(version: HistoryVersion) -> Step? {
        @inlinable get {
            let (index, found) = position(of: version)
            return found ? entries[index] : savedStep(version)
        }
        set {
            let (index, found) = position(of: version)
            if let source {
                // A version made since the store was written was never saved there: not read.
                let existed = found || source.mayHold(version) && savedStep(version) != nil
                if newValue == nil, existed {
                    removed.insert(version)
                    sourcedCount -= 1
                } else if newValue != nil, !existed {
                    sourcedCount += 1
                }
            }
            switch (newValue, found) {
            case let (step?, true): entries[index] = step
            case let (step?, false):
                entries.insert(step, at: index)
                if index == head { oldest = version }
            case (nil, true): remove(at: index)
            case (nil, false): break
            }
        }
    }

    /// Adds `step`, or replaces the step of its version.
    ///
    /// A new step's version is newer than every other (versions only grow), so it goes at the
    /// end without a search, and without wrapping it in an `Optional` for the subscript: in
    /// this generic code each costs a metadata lookup or a copy through one.
    @inlinable
    mutating func insert(_ step: Step) {
        guard sourceIsNil else {
            self[step.version] = step
            return
        }
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
            oldest = step.version
            entries.append(step)
        } else if version(at: entries.count - 1) < step.version {
            entries.append(step)
        } else {
            self[step.version] = step
        }
    }

    /// The step leading to `version` if the table holds it in memory; the source is not read.
    func heldStep(_ version: HistoryVersion) -> Step? {
        let (index, found) = position(of: version)
        return found ? entries[index] : nil
    }

    /// The depth of the step leading to `version`, without copying the step out.
    @inlinable
    func depth(of version: HistoryVersion) -> Int? {
        let (index, found) = position(of: version)
        return found ? entries[index].depth : savedStep(version)?.depth
    }

    /// Calls `body` on the step leading to `version`, in place; `nil` when there is none.
    mutating func modify<R>(_ version: HistoryVersion, _ body: (inout Step) -> R) -> R? {
        var (index, found) = position(of: version)
        if !found, let saved = savedStep(version) {
            // Held from now on, to be written back.
            self[version] = saved
            (index, found) = position(of: version)
        }
        guard found else { return nil }
        return body(&entries[index])
    }

    @discardableResult
    mutating func removeValue(forKey version: HistoryVersion) -> Step? {
        guard sourceIsNil else {
            let step = self[version]
            if step != nil { self[version] = nil }
            return step
        }
        let (index, found) = position(of: version)
        guard found else { return nil }
        let step = entries[index]
        remove(at: index)
        return step
    }

    private mutating func remove(at index: Int) {
        guard index == head, entries.count - head > 1 else {
            entries.remove(at: index)
            if entries.count == head { entries.removeAll(); head = 0 } else if index == head { oldest = entries[head].version }
            return
        }
        entries[head] = entries[head + 1]
        head += 1
        oldest = entries[head].version
        // Compacting once half the array is dropped slots keeps dropping amortized O(1).
        if head >= 16, head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }

    /// Removes the steps of `versions` in one pass.
    ///
    /// - Complexity: O(n), for n steps in the table.
    mutating func removeAll(_ versions: Set<HistoryVersion>) {
        guard !versions.isEmpty else { return }
        guard sourceIsNil else {
            for version in versions { self[version] = nil }
            return
        }
        var kept = ContiguousArray<Step>()
        kept.reserveCapacity(count - min(versions.count, count))
        for step in entries[head...] where !versions.contains(step.version) {
            kept.append(step)
        }
        entries = kept
        head = 0
        if let first = entries.first { oldest = first.version }
    }

    /// The versions, oldest first. With a source, every saved step is read.
    var keys: [HistoryVersion] {
        guard let source else { return entries[head...].map(\.version) }
        let held = entries[head...].map(\.version)
        let saved = source.savedVersions(inScope: level).filter {
            !removed.contains($0) && !position(of: $0).found && source.step($0, inScope: level) != nil
        }
        return (held + saved).sorted()
    }

    /// The steps, oldest first. With a source, every saved step is read.
    var values: [Step] {
        guard source != nil else { return Array(entries[head...]) }
        return keys.compactMap { self[$0] }
    }

    /// The steps held in memory, oldest first: with a source, those changed or added since
    /// the store was last written, which is what saving writes.
    var heldSteps: ArraySlice<Step> { entries[head...] }
}

extension HistoryStepTable: Sendable where Value: Sendable, Annotation: Sendable {}
