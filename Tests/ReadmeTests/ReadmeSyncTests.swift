import Foundation
import Testing

/// Every Swift code block of the README must stand, line for line (indentation aside), in one
/// of the test files that compile and run the README's examples, so the README never shows
/// code that does not build.
@Suite("README code is compiled")
struct ReadmeSyncTests {

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let exampleFiles = [
        "Tests/ReadmeTests/RevertibleReadmeTests.swift",
        "Tests/ReadmeTests/UndoableReducerReadmeTests.swift",
        "Tests/StateMachineTests/ReadmeExamplesTests.swift",
    ]

    /// Lines without their indentation, blank lines dropped.
    static func normalized(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    static func codeBlocks(in markdown: String) -> [String] {
        let parts = markdown.components(separatedBy: "```swift\n")
        return parts.dropFirst().compactMap { $0.components(separatedBy: "```").first }
    }

    @Test("Each README Swift block appears in a README test file")
    func blocksAreTested() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let sources = try Self.exampleFiles.map {
            Self.normalized(try String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8))
        }
        let blocks = Self.codeBlocks(in: readme)
        #expect(blocks.count >= 10)
        for block in blocks {
            let lines = Self.normalized(block)
            let found = sources.contains { source in
                source.indices.contains { start in
                    start + lines.count <= source.count && Array(source[start ..< start + lines.count]) == lines
                }
            }
            #expect(found, "README block not found in the README tests:\n\(block)")
        }
    }
}
