import Foundation

extension Report {

    /// The human-readable report: one table per scenario, then its ratios against the targets.
    func table() -> String {
        var lines: [String] = []
        for section in sections {
            lines.append("== \(section.scenario)")
            var rows = [["impl", "n", "k"] + section.columns.map(\.header)]
            for result in section.results {
                rows.append([result.impl, result.n.grouped, result.k.grouped]
                    + section.columns.map { column in result.figures[column.key].map(figure) ?? "n/a" })
            }
            lines += aligned(rows, rightAlignedFrom: 1)
            for run in section.skipped {
                lines.append("skipped: \(run.impl) n=\(run.n.grouped) k=\(run.k.grouped): \(run.reason)")
            }
            if !section.ratios.isEmpty {
                lines.append("")
                lines.append("ratios (\(section.scenario))")
                var ratioRows = [["target", "ratio", "value", "limit", "met"]]
                for check in section.ratios {
                    ratioRows.append([
                        check.target,
                        check.description,
                        ratio(check.value),
                        check.limit.map { (check.atLeast ? ">= " : "<= ") + ratio($0) } ?? "-",
                        check.met.map { $0 ? "yes" : "NO" } ?? "-",
                    ])
                }
                lines += aligned(ratioRows, rightAlignedFrom: 2)
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// Pads every column to its widest cell; columns from `firstRight` on are numbers and are
    /// right-aligned so their digits line up.
    private func aligned(_ rows: [[String]], rightAlignedFrom firstRight: Int) -> [String] {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column >= firstRight ? padding + cell : cell + padding
            }
            .joined(separator: "  ")
        }
    }

    /// Large figures to the unit, small ones to a tenth: the table is read for magnitudes.
    private func figure(_ value: Double) -> String {
        value >= 100
            ? Int(value.rounded()).grouped
            : String(format: "%.1f", value)
    }

    /// Three significant digits: enough to compare against a target.
    private func ratio(_ value: Double) -> String {
        value >= 100 ? Int(value.rounded()).grouped : String(format: "%.3g", value)
    }
}
