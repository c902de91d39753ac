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
        // The `cross-module` scenario: one workload (Shared/CrossModuleEditTitle.swift, linked
        // into both targets) against the package as users build it, and against the same
        // sources (Sources/RevertibleWholeCMO links ../Sources/Revertible) built with
        // `-cross-module-optimization`, so one run shows what the library's inlinable
        // surface leaves on the table.
        .target(
            name: "EditTitleAsDependency",
            dependencies: [.product(name: "Revertible", package: "Revertible")]
        ),
        // Sources/TreeArrayWholeCMO links ../Sources/TreeArray, the module Revertible re-exports;
        // the alias makes Revertible's `import TreeArray` name this copy.
        .target(
            name: "TreeArrayWholeCMO",
            // For the C module TreeArrayPrefetch, which the tree's sources import.
            dependencies: [.product(name: "TreeArray", package: "Revertible")],
            swiftSettings: [.unsafeFlags(["-cross-module-optimization"])]
        ),
        // Sources/TextBufferWholeCMO links ../Sources/TextBuffer, the other module Revertible
        // re-exports, aliased the same way.
        .target(
            name: "TextBufferWholeCMO",
            // The text's journal is the tree's: this copy's, aliased as Revertible's is.
            dependencies: ["TreeArrayWholeCMO"],
            swiftSettings: [.unsafeFlags(["-cross-module-optimization", "-module-alias", "TreeArray=TreeArrayWholeCMO"])]
        ),
        .target(
            name: "RevertibleWholeCMO",
            dependencies: ["TreeArrayWholeCMO", "TextBufferWholeCMO"],
            swiftSettings: [.unsafeFlags([
                "-cross-module-optimization",
                "-module-alias", "TreeArray=TreeArrayWholeCMO",
                "-module-alias", "TextBuffer=TextBufferWholeCMO",
            ])]
        ),
        .target(
            name: "EditTitleWholeCMO",
            dependencies: ["RevertibleWholeCMO"],
            swiftSettings: [.define("WHOLE_CMO"), .unsafeFlags(["-cross-module-optimization"])]
        ),
        .executableTarget(
            name: "benchmarks",
            dependencies: [
                "CHeap",
                "EditTitleAsDependency",
                "EditTitleWholeCMO",
                .product(name: "Revertible", package: "Revertible"),
                .product(name: "UndoableReducer", package: "Revertible"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
