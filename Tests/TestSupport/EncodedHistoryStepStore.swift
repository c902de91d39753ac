import Foundation
import Revertible

/// A ``HistoryStepStore`` that keeps each step as its JSON, as a database keeps a row: every
/// read decodes (and so checks) the one step asked for. Tests count its reads and damage its
/// rows.
public final class EncodedHistoryStepStore<Value: Codable & Sendable>: HistoryStepStore {

    private struct Rows: Sendable {
        var outline: Data?
        var steps: [HistoryVersion: (scope: Int, parent: HistoryVersion, bytes: Data)] = [:]
        var reads = 0
        var childListReads = 0
        var writes = 0
    }

    private let rows = NSLockedBox(Rows())

    public init() {}

    /// How many steps were read since the store was made.
    public var stepReads: Int { rows.with { $0.reads } }
    /// How many times the versions after a version were listed.
    public var childListReads: Int { rows.with { $0.childListReads } }
    /// How many times ``write(_:)`` saved changes.
    public var writes: Int { rows.with { $0.writes } }
    /// How many steps the store holds.
    public var stepCount: Int { rows.with { $0.steps.count } }
    /// The saved versions, oldest first.
    public var versions: [HistoryVersion] { rows.with { $0.steps.keys.sorted() } }

    /// Every row's bytes, to compare before and after something that must not write.
    public var snapshot: [HistoryVersion: Data] { rows.with { $0.steps.mapValues(\.bytes) } }

    /// Replaces the saved bytes of `version`'s step with `transform`'s result.
    public func damage(_ version: HistoryVersion, _ transform: (Data) -> Data) {
        rows.with { rows in
            guard let row = rows.steps[version] else { return }
            rows.steps[version] = (row.scope, row.parent, transform(row.bytes))
        }
    }

    public func outline() throws -> HistoryArchive<Value>.Outline? {
        guard let bytes = rows.with({ $0.outline }) else { return nil }
        return try JSONDecoder().decode(HistoryArchive<Value>.Outline.self, from: bytes)
    }

    public func step(leadingTo version: HistoryVersion) throws -> HistoryArchive<Value>.Step? {
        guard let bytes = rows.with({ rows -> Data? in
            rows.reads += 1
            return rows.steps[version]?.bytes
        }) else { return nil }
        return try JSONDecoder().decode(HistoryArchive<Value>.Step.self, from: bytes)
    }

    public func versions(after parent: HistoryVersion) -> [HistoryVersion] {
        rows.with { rows in
            rows.childListReads += 1
            return rows.steps.filter { $0.value.parent == parent }.map(\.key)
        }
    }

    public func versions(inScope level: Int) -> [HistoryVersion] {
        rows.with { $0.steps.filter { $0.value.scope == level }.map(\.key) }
    }

    public func write(_ changes: HistoryArchive<Value>.Changes) throws {
        let encoder = JSONEncoder()
        let outline = try encoder.encode(changes.outline)
        let steps = try changes.savedSteps.map { ($0.version, $0.scopeLevel, $0.parent, try encoder.encode($0)) }
        rows.with { rows in
            for version in changes.removedVersions { rows.steps[version] = nil }
            for (version, scope, parent, bytes) in steps { rows.steps[version] = (scope, parent, bytes) }
            rows.outline = outline
            rows.writes += 1
        }
    }
}

/// A value behind an `NSLock`.
private final class NSLockedBox<Value>: @unchecked Sendable {
    // Sound to share: `value` is only touched inside `with`, under the lock, and `Value` is
    // `Sendable` wherever a box is shared here.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func with<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
