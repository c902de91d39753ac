// fuzz-reversions: reversions between two versions of a small model built from the bytes.
//
// The bytes describe a first version `a`, then either a string of edits that turns it into
// `b` (the common case, so the two share most of their content as real versions do) or an
// unrelated `b`. For every input:
//
// 1. `b.reversion(to: a)` is `nil` exactly when `a == b` (and `a.reversion(to: a)` is `nil`);
// 2. reverting a copy of `b` gives exactly `a` (order of identifiable elements included);
// 3. the other direction holds too: `a.reversion(to: b)` turns `a` into exactly `b`, and a
//    `VersioningController` that recorded `a` then `b` undoes to `a` and redoes to `b`
//    (redo applies the recorded reversion inverted: the only public way to reach it);
// 4. for each location the reversion writes, a third version, `b` changed there, is refused
//    with `ReversionError` and left exactly as it was.
//
// A violation calls `fatalError` with what went wrong, which libFuzzer records as a crash.
import FuzzSupport
import Revertible

/// An element of the identifiable collections: ids come from a small range, so repeated ids
/// (which reversions must survive by replacing the changed window) are common.
struct Card: Identifiable, Versionable, Hashable, Sendable {
    let id: UInt8
    var title: String
    var done: Bool
    var tags: Set<UInt8>

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.done)
        reverter.appendReversion(at: \.tags)
    }
}

/// A model with one property of each kind of reversion.
struct Model: Versionable, Equatable, Sendable {
    var name = ""
    var count = 0
    var labels: Set<UInt8> = []
    var limits: [String: Int] = [:]
    var lookup: [UInt8: Card] = [:]
    var note: String?
    var pinned: Card?
    var scores: [UInt8] = []
    var cards: [Card] = []
    var tree = TreeArray<Card>()

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.name)
        reverter.appendReversion(at: \.count)
        reverter.appendReversion(at: \.labels)
        reverter.appendReversion(at: \.limits)
        reverter.appendReversion(at: \.lookup)
        reverter.appendReversion(at: \.note)
        reverter.appendReversion(at: \.pinned)
        reverter.appendReversion(at: \.scores)
        reverter.appendReversion(at: \.cards)
        reverter.appendReversion(at: \.tree)
    }
}

// MARK: - Building values from bytes

extension FuzzInput {

    mutating func card() -> Card {
        Card(id: UInt8(int(below: 24)), title: string(maxLength: 6), done: bool(), tags: smallSet())
    }

    mutating func smallSet() -> Set<UInt8> {
        Set((0..<int(below: 5)).map { _ in UInt8(int(below: 32)) })
    }

    /// A list of cards; now and then a long one, so `TreeArray` grows past one leaf.
    mutating func cards() -> [Card] {
        let count = int(below: 8) == 7 ? int(below: 300) : int(below: 8)
        var cards: [Card] = []
        cards.reserveCapacity(count)
        for index in 0..<count {
            // The bytes run out long before a long list does: fill in by position.
            cards.append(isAtEnd ? Card(id: UInt8(truncatingIfNeeded: index), title: "\(index)", done: false, tags: []) : card())
        }
        return cards
    }

    mutating func model() -> Model {
        var model = Model()
        model.name = string(maxLength: 12)
        model.count = bool() ? Int(int64()) : int(in: -2...2)
        model.labels = smallSet()
        for _ in 0..<int(below: 4) { model.limits[string(maxLength: 2)] = int(in: -1...1) }
        for _ in 0..<int(below: 4) { model.lookup[UInt8(int(below: 8))] = card() }
        model.note = bool() ? string(maxLength: 8) : nil
        model.pinned = bool() ? card() : nil
        model.scores = (0..<int(below: 8)).map { _ in UInt8(int(below: 4)) }
        model.cards = cards()
        model.tree = TreeArray(cards())
        return model
    }

    /// `model` after a string of edits read from the bytes.
    mutating func edited(_ model: Model) -> Model {
        var model = model
        for _ in 0..<int(in: 1...8) {
            switch int(below: 14) {
            case 0: model.name = editedString(model.name)
            case 1: model.count &+= int(in: -1...1)
            case 2: model.labels.formSymmetricDifference([UInt8(int(below: 32))])
            case 3: model.limits[string(maxLength: 2)] = bool() ? nil : int(in: -1...1)
            case 4:
                let key = UInt8(int(below: 8))
                if bool(), var card = model.lookup[key] { card = editedCard(card); model.lookup[key] = card } else { model.lookup[key] = bool() ? nil : card() }
            case 5: model.note = bool() ? nil : editedString(model.note ?? "")
            case 6: model.pinned = bool() ? nil : editedCard(model.pinned ?? card())
            case 7:
                if !model.scores.isEmpty, bool() { model.scores.remove(at: int(below: model.scores.count)) }
                model.scores.insert(UInt8(int(below: 4)), at: int(below: model.scores.count + 1))
            case 8: model.cards = editedCards(model.cards)
            case 9: model.tree = editedTree(model.tree)
            case 10: model.cards.shuffle(using: &self)
            case 11: model.tree = TreeArray(model.tree.reversed())
            case 12: model.cards.reverse()
            default: model.tree = editedTree(editedTree(model.tree))
            }
        }
        return model
    }

    mutating func editedString(_ text: String) -> String {
        var text = text
        let characters = Array(text)
        switch int(below: 4) {
        case 0: text += string(maxLength: 3)
        case 1 where !characters.isEmpty:
            let start = int(below: characters.count)
            let end = start + int(below: characters.count - start + 1)
            text = String(characters[..<start]) + string(maxLength: 3) + String(characters[end...])
        case 2: text = string(maxLength: 3) + text
        default:
            // Edit by scalars, not characters: splits clusters (a flag's half, `\r` from `\n`).
            var scalars = Array(text.unicodeScalars)
            if !scalars.isEmpty { scalars.remove(at: int(below: scalars.count)) }
            text = String(String.UnicodeScalarView(scalars))
        }
        return text
    }

    mutating func editedCard(_ card: Card) -> Card {
        var card = card
        switch int(below: 3) {
        case 0: card.title = editedString(card.title)
        case 1: card.done.toggle()
        default: card.tags.formSymmetricDifference([UInt8(int(below: 32))])
        }
        return card
    }

    mutating func editedCards(_ cards: [Card]) -> [Card] {
        var cards = cards
        switch int(below: 5) {
        case 0: cards.insert(card(), at: int(below: cards.count + 1))
        case 1 where !cards.isEmpty: cards.remove(at: int(below: cards.count))
        case 2 where !cards.isEmpty:
            let card = cards.remove(at: int(below: cards.count))
            cards.insert(card, at: int(below: cards.count + 1))
        case 3 where !cards.isEmpty:
            let index = int(below: cards.count)
            cards[index] = editedCard(cards[index])
        default: cards.swapAt(int(below: cards.count + 1) % max(cards.count, 1), int(below: cards.count + 1) % max(cards.count, 1))
        }
        return cards
    }

    mutating func editedTree(_ tree: TreeArray<Card>) -> TreeArray<Card> {
        var tree = tree
        switch int(below: 5) {
        case 0: tree.insert(card(), at: int(below: tree.count + 1))
        case 1 where !tree.isEmpty: _ = tree.remove(at: int(below: tree.count))
        case 2 where !tree.isEmpty:
            let card = tree.remove(at: int(below: tree.count))
            tree.insert(card, at: int(below: tree.count + 1))
        case 3 where !tree.isEmpty:
            let index = int(below: tree.count)
            tree[index] = editedCard(tree[index])
        default:
            let start = int(below: tree.count + 1)
            let end = start + int(below: tree.count - start + 1)
            tree.replaceSubrange(start..<end, with: cards())
        }
        return tree
    }
}

extension FuzzInput: RandomNumberGenerator {
    /// Randomness for `shuffle(using:)`, taken from the bytes like every other decision (and
    /// never a constant after them: see `randomWord()`).
    public mutating func next() -> UInt64 {
        randomWord()
    }
}

// MARK: - The checks

/// Stops the process with what went wrong and the two versions, for libFuzzer to record.
func violation(_ message: String, _ a: Model, _ b: Model) -> Never {
    fatalError("\(message)\n  a = \(a)\n  b = \(b)")
}

/// `model` changed at `path` so that a reversion writing `path` must refuse it, or `nil` for a
/// path of a type this target does not write.
func wrongVersion(of model: Model, at path: PartialKeyPath<Model>) -> Model? {
    var wrong = model
    switch path {
    case let path as WritableKeyPath<Model, String>: wrong[keyPath: path] += "†"
    case let path as WritableKeyPath<Model, String?>: wrong[keyPath: path] = (wrong[keyPath: path] ?? "") + "†"
    case let path as WritableKeyPath<Model, Int>: wrong[keyPath: path] &+= 1
    case let path as WritableKeyPath<Model, Bool>: wrong[keyPath: path].toggle()
    case let path as WritableKeyPath<Model, Set<UInt8>>:
        guard let absent = (0...UInt8.max).first(where: { !wrong[keyPath: path].contains($0) }) else { return nil }
        wrong[keyPath: path].insert(absent)
    case let path as WritableKeyPath<Model, [String: Int]>: wrong[keyPath: path]["†", default: 0] += 1
    case let path as WritableKeyPath<Model, [UInt8: Card]>:
        guard let absent = (0...UInt8.max).first(where: { wrong[keyPath: path][$0] == nil }) else { return nil }
        wrong[keyPath: path][absent] = Card(id: 255, title: "†", done: false, tags: [])
    case let path as WritableKeyPath<Model, Card?>:
        wrong[keyPath: path] = wrong[keyPath: path] == nil ? Card(id: 255, title: "†", done: false, tags: []) : nil
    case let path as WritableKeyPath<Model, Card>: wrong[keyPath: path].title += "†"
    case let path as WritableKeyPath<Model, [UInt8]>: wrong[keyPath: path].append(0)
    case let path as WritableKeyPath<Model, [Card]>: wrong[keyPath: path].append(Card(id: 255, title: "†", done: false, tags: []))
    case let path as WritableKeyPath<Model, TreeArray<Card>>: wrong[keyPath: path].append(Card(id: 255, title: "†", done: false, tags: []))
    case let path as WritableKeyPath<Model, Model>: wrong[keyPath: path].name += "†"
    default: return nil
    }
    return wrong == model ? nil : wrong
}

func check(_ a: Model, _ b: Model) {
    if a.reversion(to: a) != nil { violation("a.reversion(to: a) is not nil", a, a) }
    guard let reversion = b.reversion(to: a) else {
        if a != b { violation("b.reversion(to: a) is nil, but a != b", a, b) }
        return
    }
    if a == b { violation("b.reversion(to: a) is \(reversion.debugDescription), but a == b", a, b) }

    // Reverting b gives exactly a.
    var reverted = b
    do { try reversion.revert(&reverted) } catch { violation("reverting b failed: \(error)", a, b) }
    if reverted != a { violation("reverting b gave \(reverted), not a (\(reversion.debugDescription))", a, b) }
    if reverted.cards.map(\.id) != a.cards.map(\.id) || reverted.tree.map(\.id) != a.tree.map(\.id) {
        violation("reverting b restored the elements in another order", a, b)
    }
    // The reversion is a value: applying it again to b works the same.
    var again = b
    do { try reversion.revert(&again) } catch { violation("reverting b a second time failed: \(error)", a, b) }
    if again != a { violation("reverting b a second time gave another value", a, b) }

    // The other direction, computed on its own.
    guard let forward = a.reversion(to: b) else { violation("a.reversion(to: b) is nil, but a != b", a, b) }
    var advanced = a
    do { try forward.revert(&advanced) } catch { violation("reverting a to b failed: \(error)", a, b) }
    if advanced != b { violation("reverting a to b gave \(advanced)", a, b) }

    // The inverted reversion, through undo and redo.
    let controller = VersioningController(a)
    controller.append(b)
    do {
        if try controller.undo() != a { violation("undo after recording a, b did not give a", a, b) }
        if try controller.redo() != b { violation("redo after undo did not give b", a, b) }
    } catch {
        violation("undo or redo failed: \(error)", a, b)
    }

    // A version differing at a written location is refused and left as it was.
    for path in reversion.changedKeyPaths {
        guard let wrong = wrongVersion(of: b, at: path) else { continue }
        var attempt = wrong
        do {
            try reversion.revert(&attempt)
            violation("a version changed at \(path) was not refused (\(reversion.debugDescription))", a, b)
        } catch {
            if attempt != wrong { violation("a refused revert at \(path) changed the value", a, b) }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let a = input.model()
    let b = input.int(below: 8) == 0 ? input.model() : input.edited(a)
    check(a, b)
    check(b, a)
    return 0
}
