/// The versions one version leads to, in the order redo prefers (the last is followed).
///
/// Nearly every version leads to one other: held inline then, not in an array of its own, so
/// a recorded step costs no allocation here (an `Array` of one is 48 bytes on the heap, as
/// much as a tenth of what a step keeps).
@usableFromInline
struct HistoryVersionList: RandomAccessCollection, RangeReplaceableCollection, ExpressibleByArrayLiteral, Equatable, Sendable {

    private enum Storage: Equatable, Sendable {
        case one(HistoryVersion)
        case many([HistoryVersion])
    }

    private var storage: Storage

    @usableFromInline
    init() {
        storage = .many([])
    }

    init(_ versions: [HistoryVersion]) {
        storage = versions.count == 1 ? .one(versions[0]) : .many(versions)
    }

    @usableFromInline
    init<S: Sequence<HistoryVersion>>(_ versions: S) {
        self.init(Array(versions))
    }

    @usableFromInline
    init(arrayLiteral versions: HistoryVersion...) {
        self.init(versions)
    }

    /// Whether the list needs no array: it holds one version, or none.
    var isInline: Bool {
        switch storage {
        case .one: true
        case let .many(versions): versions.isEmpty
        }
    }

    @usableFromInline
    var startIndex: Int { 0 }

    @usableFromInline
    var endIndex: Int {
        switch storage {
        case .one: 1
        case let .many(versions): versions.count
        }
    }

    @usableFromInline
    subscript(position: Int) -> HistoryVersion {
        switch storage {
        case let .one(version):
            precondition(position == 0, "HistoryVersionList index out of range")
            return version
        case let .many(versions):
            return versions[position]
        }
    }

    @usableFromInline
    mutating func append(_ version: HistoryVersion) {
        switch storage {
        case let .one(first): storage = .many([first, version])
        case let .many(versions) where versions.isEmpty: storage = .one(version)
        case var .many(versions):
            storage = .many([])
            versions.append(version)
            storage = .many(versions)
        }
    }

    @usableFromInline
    mutating func replaceSubrange<C: Collection<HistoryVersion>>(_ subrange: Range<Int>, with newElements: C) {
        var versions = Array(self)
        versions.replaceSubrange(subrange, with: newElements)
        self = HistoryVersionList(versions)
    }

    @usableFromInline
    static func == (lhs: HistoryVersionList, rhs: HistoryVersionList) -> Bool {
        lhs.elementsEqual(rhs)
    }
}
