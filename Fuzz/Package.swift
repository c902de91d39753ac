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
let package = Package(
    name: "RevertibleFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Revertible", path: ".."),
    ],
    targets: [
        // Reading structured values out of the fuzzer's bytes, shared by the targets.
        .target(name: "FuzzSupport"),
        // Target 4 of issue 15: reversions between two values built from the bytes.
        .executableTarget(
            name: "fuzz-reversions",
            dependencies: ["FuzzSupport", .product(name: "Revertible", package: "Revertible")]
        ),
        // Target 1 of issue 15: a saved history decoded from the bytes, then walked.
        .executableTarget(
            name: "fuzz-history-archive",
            dependencies: [
                .product(name: "Revertible", package: "Revertible"),
                .product(name: "UndoableReducer", package: "Revertible"),
            ]
        ),
        // Target 2 of issue 15: the todo command-line parser and the line tokenizer.
        .executableTarget(
            name: "fuzz-todo-parser",
            dependencies: [
                .product(name: "TodoKit", package: "Revertible"),
                .product(name: "Revertible", package: "Revertible"),
            ]
        ),
        // Target 3 of issue 15: a todo data file or import file made of the bytes, then
        // list, undo, redo.
        .executableTarget(
            name: "fuzz-todo-store",
            dependencies: [
                "FuzzSQLite",
                .product(name: "TodoKit", package: "Revertible"),
                .product(name: "Revertible", package: "Revertible"),
                .product(name: "UndoableReducer", package: "Revertible"),
            ]
        ),
        // The system's SQLite, for fuzz-todo-store's integrity check of its input.
        .systemLibrary(name: "FuzzSQLite", pkgConfig: "sqlite3"),
    ],
    swiftLanguageModes: [.v6]
)
