// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Revertible",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Revertible", targets: ["Revertible"]),
        .library(name: "StateMachine", targets: ["StateMachine"]),
        .library(name: "UndoableReducer", targets: ["UndoableReducer"]),
        .executable(name: "todo", targets: ["TodoCLI"]),
    ],
    targets: [
        .target(name: "Revertible"),
        .target(name: "StateMachine"),
        .target(name: "UndoableReducer", dependencies: ["Revertible"]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "RevertibleTests", dependencies: ["Revertible", "TestSupport"]),
        .testTarget(name: "ReadmeTests", dependencies: ["Revertible", "UndoableReducer", "StateMachine"]),
        .testTarget(name: "StateMachineTests", dependencies: ["StateMachine", "Revertible"]),
        .testTarget(name: "UndoableReducerTests", dependencies: ["UndoableReducer", "TestSupport"]),
        // The `todo` example: the logic in a library, so tests can reach it, and a thin executable.
        .target(
            name: "TodoKit",
            dependencies: ["Revertible", "StateMachine", "UndoableReducer"],
            path: "Examples/TodoCLI/Sources/TodoKit"
        ),
        .executableTarget(name: "TodoCLI", dependencies: ["TodoKit"], path: "Examples/TodoCLI/Sources/TodoCLI"),
        // Depends on the executable target so `swift test` builds the `todo` binary the
        // end-to-end tests run.
        .testTarget(
            name: "TodoCLITests",
            dependencies: ["TodoCLI", "TodoKit", "StateMachine"],
            path: "Examples/TodoCLI/Tests/TodoCLITests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
