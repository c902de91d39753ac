import Testing
@testable import Revertible

/// A scope's steps by version: one sorted array that must answer as the dictionary it
/// replaced did, including after the limit drops its oldest steps.
@Suite("History: the table of a scope's steps")
struct HistoryStepTableTests {

    private typealias Step = RecordedStep<String, NoAnnotation>

    private func step(_ version: UInt64) -> Step {
        Step(reversion: "v\(version)".reversion(to: "")!, version: HistoryVersion(version), annotation: NoAnnotation(), time: .zero)
    }

    @Test("Random inserts, replacements and removals answer as a dictionary does")
    func matchesDictionary() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            var table = HistoryStepTable<String, NoAnnotation>()
            var model: [HistoryVersion: Step] = [:]
            var next: UInt64 = 1
            for _ in 0..<300 {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<5:
                    // New versions are always newer, with gaps as other scopes take some.
                    // Through `insert` (how a scope adds steps) or the subscript.
                    next += UInt64.random(in: 1...3, using: &generator)
                    if Bool.random(using: &generator) {
                        table.insert(step(next))
                    } else {
                        table[HistoryVersion(next)] = step(next)
                    }
                    model[HistoryVersion(next)] = step(next)
                case 5:
                    if let oldest = model.keys.min() {
                        #expect(table.removeValue(forKey: oldest)?.version == oldest)
                        model[oldest] = nil
                    }
                case 6:
                    if let any = model.keys.randomElement(using: &generator) {
                        table[any] = nil
                        model[any] = nil
                    }
                case 7:
                    if let any = model.keys.randomElement(using: &generator) {
                        var replaced = step(any.rawValue)
                        replaced.changeCount = 7
                        if Bool.random(using: &generator) { table.insert(replaced) } else { table[any] = replaced }
                        model[any] = replaced
                    }
                default:
                    let probe = HistoryVersion(UInt64.random(in: 0...(next + 2), using: &generator))
                    #expect(table[probe]?.version == model[probe]?.version)
                    #expect(table[probe]?.changeCount == model[probe]?.changeCount)
                }
                #expect(table.count == model.count)
                #expect(Array(table.keys) == model.keys.sorted())
                #expect(table.values.map(\.version) == model.keys.sorted())
            }
        }
    }

    @Test("Dropping the oldest steps one by one leaves the newest, in order")
    func dropOldest() {
        var table = HistoryStepTable<String, NoAnnotation>()
        for version in 1...1000 as ClosedRange<UInt64> { table[HistoryVersion(version)] = step(version) }
        for version in 1...990 as ClosedRange<UInt64> {
            #expect(table.removeValue(forKey: HistoryVersion(version)) != nil)
        }
        #expect(Array(table.keys) == (991...1000).map { HistoryVersion($0) })
        #expect(table[HistoryVersion(990)] == nil && table[HistoryVersion(995)]?.version == HistoryVersion(995))
    }
}
