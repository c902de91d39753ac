import Foundation

/// Writes a `todo` data file in the CLI's documented format (version 1, see
/// `DataFileFormat.swift` in the example): a header line naming each section's length and
/// CRC-32, the list as JSON, then the history as a base list and a log of actions, all with
/// sorted keys as the CLI writes them.
enum TodoDataFileWriter {

    private struct Item: Encodable {
        let done: Bool
        let id: String
        let title: String
    }

    private struct List: Encodable {
        let items: [Item]
    }

    private struct Add: Encodable {
        let id: String
        let title: String
    }

    private struct AddAction: Encodable {
        let add: Add
    }

    /// One command's actions, as the CLI logs them: `{"transaction":{"_0":[...]}}`.
    private struct Transaction: Encodable {
        struct Body: Encodable {
            let _0: [AddAction]
        }
        let transaction: Body
    }

    private struct History: Encodable {
        let actions: [Transaction]
        let base: List
    }

    private struct Section: Encodable {
        let bytes: Int
        let crc32: String
    }

    private struct Header: Encodable {
        let format: String
        let history: Section
        let present: Section
        let version: Int
    }

    /// `items` items, the last `steps` of them added one per history step.
    static func write(at path: String, items: Int, steps: Int, using generator: inout SeededGenerator) throws(BenchmarkFailure) {
        let all = (0..<items).map { _ in
            Item(done: false, id: TodoFixture.uuid(using: &generator).uuidString, title: TodoFixture.text(length: 30, using: &generator))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let present = try encoder.encode(List(items: all))
            let history = try encoder.encode(History(
                actions: all.suffix(steps).map { Transaction(transaction: .init(_0: [AddAction(add: Add(id: $0.id, title: $0.title))])) },
                base: List(items: Array(all.dropLast(steps)))
            ))
            let headerEncoder = JSONEncoder()
            headerEncoder.outputFormatting = [.sortedKeys]
            let header = try headerEncoder.encode(Header(
                format: "todo",
                history: Section(bytes: history.count, crc32: crc32Hex(history)),
                present: Section(bytes: present.count, crc32: crc32Hex(present)),
                version: 1
            ))
            var file = header
            file.append(0x0A)
            file.append(present)
            file.append(0x0A)
            file.append(history)
            file.append(0x0A)
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.write(to: url)
        } catch {
            throw BenchmarkFailure("todo-startup: could not write the data file: \(error)")
        }
    }

    /// The CRC-32 (IEEE 802.3, reflected) of `data`, as eight lowercase hex digits.
    private static func crc32Hex(_ data: Data) -> String {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        let value = String(crc ^ 0xFFFF_FFFF, radix: 16)
        return String(repeating: "0", count: 8 - value.count) + value
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }
}
