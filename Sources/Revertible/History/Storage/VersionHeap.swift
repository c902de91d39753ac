/// A min-heap of versions: the order in which the history limit drops leaves, oldest first,
/// when removing one can make its parent a leaf too.
struct VersionHeap {
    private var versions: [HistoryVersion] = []

    mutating func insert(_ version: HistoryVersion) {
        versions.append(version)
        var child = versions.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard versions[child] < versions[parent] else { break }
            versions.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the oldest version, or `nil` when the heap is empty.
    mutating func popMin() -> HistoryVersion? {
        guard let first = versions.first else { return nil }
        let last = versions.removeLast()
        guard !versions.isEmpty else { return first }
        versions[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < versions.count, versions[left] < versions[smallest] { smallest = left }
            if right < versions.count, versions[right] < versions[smallest] { smallest = right }
            guard smallest != parent else { return first }
            versions.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
