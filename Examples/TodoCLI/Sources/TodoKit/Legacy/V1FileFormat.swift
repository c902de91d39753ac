import Foundation

/// The layout of the first todo's data file, format version 1, read once to import it into
/// the database:
///
/// ```
/// {"format":"todo","version":1,"present":{"bytes":N,"crc32":"…"},"history":{"bytes":M,"crc32":"…"}}\n
/// <N bytes: the list, JSON>\n
/// <M bytes: the history, JSON>\n
/// ```
///
/// The header line says where each section is and how to check it, so `todo list` reads the
/// header and the list and never touches the history, however long that is. Each section
/// carries a CRC-32 of its bytes, because damage inside a title still parses as JSON.
enum V1FileFormat {
    /// The format this `todo` writes, and the newest it reads.
    static let version = 1
    /// The header is short; a first line longer than this is not a header.
    static let maximumHeaderLength = 4096
    static let formatName = "todo"

    /// The decoded header line.
    struct Header: Codable, Equatable, Sendable {
        var format: String
        var version: Int
        var present: Section
        var history: Section

        /// The length of the whole file this header describes, its own line included.
        func fileLength(headerLength: Int) -> Int {
            headerLength + present.bytes + 1 + history.bytes + 1
        }
    }

    /// Where one section is, implicitly (sections follow each other), and its checksum.
    struct Section: Codable, Equatable, Sendable {
        var bytes: Int
        /// The CRC-32 of the section's bytes, as eight hex digits.
        var crc32: String

        init(describing payload: Data) {
            bytes = payload.count
            crc32 = Self.hex(CRC32.checksum(payload))
        }

        /// Throws unless `payload` is exactly what this section describes.
        func verify(_ payload: Data, name: String) throws(DataFileProblem) {
            guard payload.count == bytes, Self.hex(CRC32.checksum(payload)) == crc32 else {
                throw .checksumMismatch(section: name)
            }
        }

        static func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 8 - digits.count) + digits
        }
    }

    /// Decodes the header line (without its newline), checking the version first so that a
    /// newer format is reported as such even if its header has other fields.
    static func header(from line: Data) throws(DataFileProblem) -> Header {
        struct Probe: Decodable {
            var format: String?
            var version: Int?
        }
        let decoder = JSONDecoder()
        guard let probe = try? decoder.decode(Probe.self, from: line),
              probe.format == formatName, let fileVersion = probe.version, fileVersion >= 1
        else { throw .notTodoDatabase }
        guard fileVersion <= version else { throw .newerFormat(version: fileVersion) }
        // Lengths are bounded so that adding them up cannot overflow, whatever the damage.
        let plausible = 0...(1 << 40)
        guard let header = try? decoder.decode(Header.self, from: line),
              plausible.contains(header.present.bytes), plausible.contains(header.history.bytes)
        else { throw .notTodoDatabase }
        // No checksum covers the header, so it must be exactly the bytes `file` writes: a JSON
        // decoder also accepts whitespace between tokens (and `1.0` for `1`), so an inserted
        // space would otherwise leave a damaged file readable.
        guard encoded(header).elementsEqual(line) else { throw .notTodoDatabase }
        return header
    }

    /// A header's bytes in the file, without the newline after it.
    private static func encoded(_ header: Header) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding a struct of strings and integers cannot fail.
        return try! encoder.encode(header)
    }

}
