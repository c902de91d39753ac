import Foundation
import Testing

/// Every Swift code block of the README and the other pages at the root (CHANGELOG.md,
/// Documentation/), of every module's `.docc` articles and of the doc comments of the
/// documented modules must stand, line for line (indentation and blank lines aside), in one of
/// the test files that compile and run the examples, so the documentation never shows code that
/// does not build.
@Suite("README code is compiled")
struct ReadmeSyncTests {

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let exampleFiles = [
        "Tests/ReadmeTests/RevertibleReadmeTests.swift",
        "Tests/ReadmeTests/UndoableReducerReadmeTests.swift",
        "Tests/ReadmeTests/RevertibleDocumentationTests.swift",
        "Tests/ReadmeTests/UndoableReducerDocumentationTests.swift",
        "Tests/ReadmeTests/OtherWritersReadmeTests.swift",
        "Tests/ReadmeTests/TreeArrayDocumentationTests.swift",
        "Tests/ReadmeTests/TextBufferDocumentationTests.swift",
        "Tests/StateMachineTests/ReadmeExamplesTests.swift",
    ]

    /// The modules whose `.docc` articles must be compiled too. Every module with a `.docc`
    /// catalog must be here (`everyCatalogIsChecked`).
    static let documentedModules = [
        "Sources/Revertible",
        "Sources/TreeArray",
        "Sources/TextBuffer",
        "Sources/StateMachine",
        "Sources/UndoableReducer",
        "Sources/UndoableReducerTesting",
    ]

    /// The modules whose doc comments' Swift blocks must be compiled too. StateMachine's and
    /// UndoableReducerTesting's doc comments still show fragments (`{ … }`) that no test
    /// compiles.
    static let docCommentModules = ["Sources/Revertible", "Sources/TreeArray", "Sources/TextBuffer", "Sources/UndoableReducer"]

    /// The Markdown pages outside the modules whose Swift blocks must be compiled: the README
    /// first, then the pages it links to.
    static func pages() -> [URL] {
        [root.appendingPathComponent("README.md"), root.appendingPathComponent("CHANGELOG.md")]
            + files(under: "Documentation", withExtension: "md")
    }

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

    /// The Swift code blocks of the doc comments (`///`) of a source file.
    static func docCommentCodeBlocks(in source: String) -> [String] {
        let comment = source.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("///") ? String(trimmed.dropFirst(3)) : ""
        }
        return codeBlocks(in: comment.joined(separator: "\n").replacingOccurrences(of: "\n ```", with: "\n```"))
    }

    /// Whether `block`'s lines stand, in order and together, in one of the example files.
    static func isTested(_ block: String, in sources: [[String]]) -> Bool {
        let lines = normalized(block)
        return sources.contains { source in
            source.indices.contains { start in
                start + lines.count <= source.count && Array(source[start ..< start + lines.count]) == lines
            }
        }
    }

    static func exampleSources() throws -> [[String]] {
        try exampleFiles.map {
            normalized(try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8))
        }
    }

    /// The files of `directory` (relative to the package root) with the extension `ext`.
    static func files(under directory: String, withExtension ext: String) -> [URL] {
        let url = root.appendingPathComponent(directory)
        let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? [])
            .filter { $0.pathExtension == ext }
            .sorted { $0.path < $1.path }
    }

    @Test("Each Swift block of the README and the root pages appears in a README test file")
    func blocksAreTested() throws {
        let sources = try Self.exampleSources()
        for page in Self.pages() {
            let blocks = Self.codeBlocks(in: try String(contentsOf: page, encoding: .utf8))
            if page.lastPathComponent == "README.md" {
                #expect(blocks.count >= 5)
            }
            for block in blocks {
                let found = Self.isTested(block, in: sources)
                #expect(found, "\(page.lastPathComponent): block not found in the README tests:\n\(block)")
            }
        }
    }

    @Test("Every module's .docc catalog is among the documented modules")
    func everyCatalogIsChecked() throws {
        let sourcesURL = Self.root.appendingPathComponent("Sources")
        let modules = try FileManager.default.contentsOfDirectory(atPath: sourcesURL.path)
        let withCatalogs = modules.filter { module in
            FileManager.default.fileExists(atPath: sourcesURL.appendingPathComponent("\(module)/\(module).docc").path)
        }
        #expect(withCatalogs.count >= 5)
        for module in withCatalogs {
            #expect(Self.documentedModules.contains("Sources/\(module)"), "Sources/\(module) has a .docc catalog its examples are not checked in")
        }
    }

    @Test("Each Swift block of a .docc article appears in a documentation test file")
    func articleBlocksAreTested() throws {
        let sources = try Self.exampleSources()
        var count = 0
        for module in Self.documentedModules {
            for file in Self.files(under: module, withExtension: "md") {
                for block in Self.codeBlocks(in: try String(contentsOf: file, encoding: .utf8)) {
                    count += 1
                    let found = Self.isTested(block, in: sources)
                    #expect(found, "\(file.lastPathComponent): block not found in the documentation tests:\n\(block)")
                }
            }
        }
        #expect(count >= 5)
    }

    @Test("Each Swift block of a doc comment appears in a documentation test file")
    func docCommentBlocksAreTested() throws {
        let sources = try Self.exampleSources()
        var count = 0
        for module in Self.docCommentModules {
            for file in Self.files(under: module, withExtension: "swift") {
                for block in Self.docCommentCodeBlocks(in: try String(contentsOf: file, encoding: .utf8)) {
                    count += 1
                    let found = Self.isTested(block, in: sources)
                    #expect(found, "\(file.lastPathComponent): block not found in the documentation tests:\n\(block)")
                }
            }
        }
        #expect(count >= 20)
    }
}
