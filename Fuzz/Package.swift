// swift-tools-version: 6.0
import PackageDescription

// The fuzz targets, in a package of their own (like Benchmarks/) so the library's clients
// never see them. Each executable is a libFuzzer target: it defines
// `LLVMFuzzerTestOneInput` and gets its `main` from libFuzzer, so it only links when built
// with the fuzzer sanitizer. `Fuzz/run` builds and runs them all; by hand:
//
//     swift build --package-path Fuzz -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
//     Fuzz/.build/release/fuzz-reversions Fuzz/Corpus/fuzz-reversions
//
// See Fuzz/README.md for what each target checks and how to replay a crash.
//
// The package does not depend on the root package: it compiles the root's sources itself,
// under their own module names (Sources/TreeArray, TextBuffer, Revertible, ... are links to the root's
// folders, Sources/TodoKit and Sources/CSQLite to the todo example's). The todo's logic is
// no product of the root package, and it uses the library's `package` declarations, which
// only code of the same package sees: here, all of them are one package.
let package = Package(
    name: "RevertibleFuzz",
    platforms: [.macOS(.v15)],
    targets: [
        // The root package's modules, compiled here (see above).
        .target(name: "TreeArrayPrefetch"),
        .target(name: "TreeArrayThreadLocal"),
        .target(name: "TreeArray", dependencies: ["TreeArrayPrefetch", "TreeArrayThreadLocal"]),
        .target(name: "TextBuffer", dependencies: ["TreeArray", "TreeArrayThreadLocal"]),
        .target(name: "Revertible", dependencies: ["TreeArray", "TextBuffer"]),
        .target(name: "StateMachine"),
        .target(name: "UndoableReducer", dependencies: ["Revertible"]),
        // The system's SQLite: the todo's store, and fuzz-todo-store's integrity check of its input.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "TodoKit", dependencies: ["Revertible", "StateMachine", "UndoableReducer", "CSQLite"]),
        // Reading structured values out of the fuzzer's bytes, shared by the targets.
        .target(name: "FuzzSupport"),
        // Target 4 of issue 15: reversions between two values built from the bytes.
        .executableTarget(name: "fuzz-reversions", dependencies: ["FuzzSupport", "Revertible"]),
        // Target 1 of issue 15: a saved history decoded from the bytes, then walked.
        .executableTarget(name: "fuzz-history-archive", dependencies: ["Revertible", "UndoableReducer"]),
        // Target 2 of issue 15: the todo command-line parser and the line tokenizer.
        .executableTarget(name: "fuzz-todo-parser", dependencies: ["TodoKit", "Revertible"]),
        // Target 3 of issue 15: a todo data file or import file made of the bytes, then
        // list, undo, redo.
        .executableTarget(name: "fuzz-todo-store", dependencies: ["CSQLite", "TodoKit", "Revertible", "UndoableReducer"]),
        // TextBuffer's incremental hashes and counts: a text edited, undone, redone and its
        // history restored, checked against plain bytes and the definitions byte by byte.
        .executableTarget(name: "fuzz-text-history", dependencies: ["FuzzSupport", "Revertible", "TextBuffer"]),
    ],
    swiftLanguageModes: [.v6]
)
