import Foundation

/// Finds the `todo` executable that `swift build` / `swift test` built next to the tests.
///
/// Tried in order: `TODO_BINARY`; the directories holding the test bundle and its parents
/// (Linux runs `.build/<triple>/debug/<Package>PackageTests.xctest`, macOS runs a binary
/// inside `.build/debug/<Package>PackageTests.xctest/Contents/MacOS`); finally
/// `.build/debug/todo` and `.build/release/todo` under the package root found from this
/// source file's path.
enum TodoBinary {
    static let url: URL? = locate()

    private static func locate() -> URL? {
        let fileManager = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment["TODO_BINARY"], fileManager.isExecutableFile(atPath: explicit) {
            return URL(fileURLWithPath: explicit)
        }
        var starts = [Bundle.main.bundleURL, Bundle.main.executableURL].compactMap { $0 }
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first))
        }
        for start in starts {
            var directory = start.resolvingSymlinksInPath()
            for _ in 0..<5 {
                let candidate = directory.appendingPathComponent("todo")
                if isExecutableFile(candidate) { return candidate }
                directory.deleteLastPathComponent()
            }
        }
        // .../Examples/TodoCLI/Tests/TodoCLITests/Support/TodoBinary.swift → the package root.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<6 { root.deleteLastPathComponent() }
        for configuration in ["debug", "release"] {
            let candidate = root.appendingPathComponent(".build/\(configuration)/todo")
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    private static func isExecutableFile(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: url.path)
    }
}
