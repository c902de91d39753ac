/// The K title edits of one edit-title run, computed before anything is timed, with the
/// titles every edit leaves behind: the expected values the run is checked against.
///
/// The expectations come from a plain array of titles edited in step, independently of any
/// undo implementation.
struct TitleEditPlan {

    /// One edit: the title at `index` goes from `oldTitle` to `newTitle`.
    struct Edit {
        let index: Int
        let oldTitle: String
        let newTitle: String
    }

    let edits: [Edit]

    /// `count` edits at random positions of `initial`. Each replaces one word of the title
    /// with a different word, as a user retyping part of it would: a few characters of a
    /// ~30-character string change, the rest stays.
    init(count: Int, on initial: TodoState, using generator: inout SeededGenerator) {
        var titles = initial.items.map(\.title)
        var edits: [Edit] = []
        edits.reserveCapacity(count)
        for _ in 0..<count {
            let index = Int(generator.next(upperBound: UInt64(titles.count)))
            let newTitle = Self.replacingOneWord(of: titles[index], using: &generator)
            edits.append(Edit(index: index, oldTitle: titles[index], newTitle: newTitle))
            titles[index] = newTitle
        }
        self.edits = edits
    }

    /// `initial` with every edit applied: what the state must be after all appends, and
    /// again after undoing and redoing them all.
    func finalState(from initial: TodoState) -> TodoState {
        var state = initial
        for edit in edits {
            state.items[edit.index].title = edit.newTitle
        }
        return state
    }

    private static func replacingOneWord(of title: String, using generator: inout SeededGenerator) -> String {
        var words = title.split(separator: " ").map(String.init)
        let position = Int(generator.next(upperBound: UInt64(words.count)))
        var replacement = words[position]
        while replacement == words[position] {
            replacement = TodoFixture.word(using: &generator)
        }
        words[position] = replacement
        return words.joined(separator: " ")
    }
}
