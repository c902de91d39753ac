// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Revertible",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Revertible", targets: ["Revertible"]),
        // The collection alone, for users who want it without the history; Revertible re-exports it.
        .library(name: "TreeArray", targets: ["TreeArray"]),
        // The rope alone, for users who want the text type without the history; Revertible re-exports it.
        .library(name: "TextBuffer", targets: ["TextBuffer"]),
        .library(name: "StateMachine", targets: ["StateMachine"]),
        .library(name: "UndoableReducer", targets: ["UndoableReducer"]),
        // `TestStore` for reducer tests; links Testing and XCTest, so apps never depend on it.
        .library(name: "UndoableReducerTesting", targets: ["UndoableReducerTesting"]),
        .executable(name: "todo", targets: ["TodoCLI"]),
    ],
    targets: [
        // A prefetch hint for the tree's iterator (C: Swift has no prefetch instruction).
        .target(name: "TreeArrayPrefetch"),
        // The journal a history opens on a thread around a reducer's run, which the tree's
        // writes consult (C: Swift has no thread-local storage).
        .target(name: "TreeArrayThreadLocal"),
        .target(name: "TreeArray", dependencies: ["TreeArrayPrefetch", "TreeArrayThreadLocal"]),
        // The journal a history lends a text to is the tree's (TextBuffer+Journal.swift).
        .target(name: "TextBuffer", dependencies: ["TreeArray", "TreeArrayThreadLocal"]),
        .target(name: "Revertible", dependencies: ["TreeArray", "TextBuffer"]),
        .target(name: "StateMachine"),
        .target(name: "UndoableReducer", dependencies: ["Revertible"]),
        .target(name: "UndoableReducerTesting", dependencies: ["UndoableReducer", "Revertible"]),
        .target(name: "TestSupport", dependencies: ["Revertible"], path: "Tests/TestSupport"),
        .testTarget(name: "TreeArrayTests", dependencies: ["TreeArray"]),
        // TestSupport for the seeded random texts the history's tests draw too.
        .testTarget(name: "TextBufferTests", dependencies: ["TextBuffer", "TestSupport"]),
        .testTarget(name: "RevertibleTests", dependencies: ["Revertible", "TestSupport"]),
        .testTarget(name: "ReadmeTests", dependencies: ["Revertible", "UndoableReducer", "UndoableReducerTesting", "StateMachine"]),
        .testTarget(name: "StateMachineTests", dependencies: ["StateMachine", "Revertible"]),
        .testTarget(name: "UndoableReducerTests", dependencies: ["UndoableReducer", "UndoableReducerTesting", "TestSupport"]),
        // The system's SQLite, the todo example's store: a system library, not a package
        // dependency. The providers tell a user without it what to install.
        .systemLibrary(
            name: "CSQLite",
            path: "Examples/TodoCLI/Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // The `todo` example: the logic in a library, so tests can reach it, and a thin executable.
        // No product: Fuzz/ compiles these sources itself (see Fuzz/Package.swift).
        .target(
            name: "TodoKit",
            dependencies: ["Revertible", "StateMachine", "UndoableReducer", "CSQLite"],
            path: "Examples/TodoCLI/Sources/TodoKit"
        ),
        .executableTarget(name: "TodoCLI", dependencies: ["TodoKit"], path: "Examples/TodoCLI/Sources/TodoCLI"),
        // Depends on the executable target so `swift test` builds the `todo` binary the
        // end-to-end tests run.
        .testTarget(
            name: "TodoCLITests",
            dependencies: ["TodoCLI", "TodoKit", "CSQLite", "StateMachine", "TestSupport", "UndoableReducer", "UndoableReducerTesting"],
            path: "Examples/TodoCLI/Tests/TodoCLITests",
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
