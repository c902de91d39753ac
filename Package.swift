// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Revertible",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Revertible", targets: ["Revertible"]),
        .library(name: "StateMachine", targets: ["StateMachine"]),
        .library(name: "UndoableReducer", targets: ["UndoableReducer"]),
    ],
    targets: [
        .target(name: "Revertible"),
        .target(name: "StateMachine"),
        .target(name: "UndoableReducer", dependencies: ["Revertible"]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .target(name: "CHeap", path: "Benchmarks/CHeap"),
        .executableTarget(
            name: "benchmarks",
            dependencies: ["Revertible", "CHeap"],
            path: "Benchmarks",
            exclude: ["CHeap", "Proposals", "README-Performance.md"]
        ),
        .testTarget(name: "RevertibleTests", dependencies: ["Revertible", "TestSupport"]),
        .testTarget(name: "StateMachineTests", dependencies: ["StateMachine", "Revertible"]),
        .testTarget(name: "UndoableReducerTests", dependencies: ["UndoableReducer", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
