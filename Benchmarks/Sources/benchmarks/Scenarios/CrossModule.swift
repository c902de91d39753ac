import EditTitleAsDependency
import EditTitleWholeCMO

/// `cross-module`: the `edit-title` workload (K title edits recorded, K undos, K redos) on
/// the same client code built twice: against the package as a user builds it (`dependency`:
/// a package dependency, default release settings, so only what the library marks
/// `@inlinable` is specialized for the client's types) and against the same sources built
/// with `-cross-module-optimization` (`whole-cmo`). Items in an `Array` and in a `TreeArray`
/// (`-tree`). The ratio dependency / whole-cmo is what users pay for the library's generic
/// code that is not inlinable. Timed in thread CPU time, not wall time: on a shared machine
/// wall time measured mostly the other processes (ratios of 0.1 to 14 between runs).
struct CrossModule: Scenario {

    static let record = FigureColumn(key: "record_ns_per_step", header: "record ns/step")
    static let undo = FigureColumn(key: "undo_ns_per_step", header: "undo ns/step")
    static let redo = FigureColumn(key: "redo_ns_per_step", header: "redo ns/step")

    let name = "cross-module"
    let impls = ["dependency", "whole-cmo", "dependency-tree", "whole-cmo-tree"]
    let figures = [record, undo, redo]

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([1_000], [100]) : ([10_000, 1_000_000], [1_000])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        let tree = impl.hasSuffix("-tree")
        if !tree, n > 100_000 {
            return .skipped(reason: "an Array of more than 100,000 items is the tree's workload")
        }
        do {
            // Two modules, two result types of the same shape.
            let figures: (record: Double, undo: Double, redo: Double)
            if impl.hasPrefix("dependency") {
                let measured = try EditTitleAsDependency.measureCrossModuleEditTitle(tree: tree, n: n, k: k, seed: seed)
                figures = (measured.record, measured.undo, measured.redo)
            } else {
                let measured = try EditTitleWholeCMO.measureCrossModuleEditTitle(tree: tree, n: n, k: k, seed: seed)
                figures = (measured.record, measured.undo, measured.redo)
            }
            return .measured([Self.record.key: figures.record, Self.undo.key: figures.undo, Self.redo.key: figures.redo])
        } catch {
            throw BenchmarkFailure(String(describing: error))
        }
    }

    func warmUp(impl: String, seed: UInt64) throws(BenchmarkFailure) {
        _ = try run(impl: impl, n: 200, k: 50, seed: seed)
    }

    /// Issue 28's target: the package as a dependency within 1.3 × of whole cross-module
    /// optimization, for record and undo (redo reported).
    func ratios(of results: [BenchmarkResult]) -> [RatioCheck] {
        var checks: [RatioCheck] = []
        for n in Set(results.map(\.n)).sorted() {
            for suffix in ["", "-tree"] {
                for (column, limit) in [(Self.record, 1.3), (Self.undo, 1.3), (Self.redo, nil)] {
                    let value = { (impl: String) in results.first { $0.impl == impl && $0.n == n }?.figures[column.key] }
                    if let dependency = value("dependency" + suffix), let whole = value("whole-cmo" + suffix), whole > 0 {
                        checks.append(RatioCheck(
                            target: "28.2", description: "dependency\(suffix) / whole-cmo\(suffix) \(column.header), N=\(n.grouped)",
                            value: dependency / whole, limit: limit
                        ))
                    }
                }
            }
        }
        return checks
    }
}
