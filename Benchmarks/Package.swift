// swift-tools-version: 6.0
import PackageDescription

// The benchmarks, in a package of their own so that the library's clients never see them or
// their C heap shim. They use the root package's public API only.
//
//     swift run -c release --package-path Benchmarks benchmarks
let package = Package(
    name: "RevertibleBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Revertible", path: ".."),
    ],
    targets: [
        .target(name: "CHeap"),
        .executableTarget(
            name: "benchmarks",
            dependencies: [
                "CHeap",
                .product(name: "Revertible", package: "Revertible"),
                .product(name: "UndoableReducer", package: "Revertible"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
