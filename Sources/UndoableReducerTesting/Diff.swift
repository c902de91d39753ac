/// The lines of `dump(expected)` and `dump(actual)` that differ, each with up to `context`
/// unchanged lines around it: `- ` for an expected line, `+ ` for an actual one, two spaces
/// for context, and `…` where unchanged lines are left out. `nil` when both dump alike.
///
/// ```
///   Counter.State(
/// -   count: 1,
/// +   count: 2,
///     isLoading: false
///   )
/// ```
func dumpDiff(_ expected: Any, _ actual: Any, context: Int = 2) -> String? {
    lineDiff(dump(expected).split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
             dump(actual).split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
             context: context)
}

/// One line of a diff.
enum DiffLine: Equatable {
    case same(String)
    case removed(String)
    case added(String)
}

/// The line diff of `old` and `new`, rendered as `dumpDiff` describes; `nil` when equal.
func lineDiff(_ old: [String], _ new: [String], context: Int = 2) -> String? {
    let lines = diffLines(old, new)
    let changed = lines.indices.filter { if case .same = lines[$0] { false } else { true } }
    guard !changed.isEmpty else { return nil }

    // Keep each changed line and `context` lines either side of it.
    var kept = Array(repeating: false, count: lines.count)
    for index in changed {
        for near in max(0, index - context)...min(lines.count - 1, index + context) {
            kept[near] = true
        }
    }
    var output: [String] = []
    var skipping = false
    for (index, line) in lines.enumerated() {
        guard kept[index] else {
            if !skipping { output.append("  …") }
            skipping = true
            continue
        }
        skipping = false
        switch line {
        case let .same(text): output.append("  " + text)
        case let .removed(text): output.append("- " + text)
        case let .added(text): output.append("+ " + text)
        }
    }
    return output.joined(separator: "\n")
}

/// A shortest edit script between `old` and `new` (longest common subsequence), removals
/// before additions in each changed run. The common prefix and suffix are matched first; a
/// middle too large to compare line by line is shown as removed, then added.
func diffLines(_ old: [String], _ new: [String]) -> [DiffLine] {
    var prefix = 0
    while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
          old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }

    let oldMiddle = Array(old[prefix ..< old.count - suffix])
    let newMiddle = Array(new[prefix ..< new.count - suffix])
    var result = old[..<prefix].map(DiffLine.same)

    if oldMiddle.count * newMiddle.count > 4_000_000 {
        result += oldMiddle.map(DiffLine.removed) + newMiddle.map(DiffLine.added)
    } else {
        result += middleDiff(oldMiddle, newMiddle)
    }
    result += old[(old.count - suffix)...].map(DiffLine.same)
    return result
}

private func middleDiff(_ old: [String], _ new: [String]) -> [DiffLine] {
    let n = old.count, m = new.count
    // lengths[i][j]: the longest common subsequence of old[i...] and new[j...].
    var lengths = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
        for j in stride(from: m - 1, through: 0, by: -1) {
            lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
        }
    }
    var result: [DiffLine] = []
    var removed: [DiffLine] = [], added: [DiffLine] = []
    func flush() {
        result += removed + added
        removed = []
        added = []
    }
    var i = 0, j = 0
    while i < n || j < m {
        if i < n, j < m, old[i] == new[j] {
            flush()
            result.append(.same(old[i]))
            i += 1
            j += 1
        } else if j == m || (i < n && lengths[i + 1][j] >= lengths[i][j + 1]) {
            removed.append(.removed(old[i]))
            i += 1
        } else {
            added.append(.added(new[j]))
            j += 1
        }
    }
    flush()
    return result
}
