extension Report {

    /// The machine-readable report: one JSON object,
    /// `{"results": [...], "ratios": [...], "skipped": [...]}`.
    ///
    /// Each result is `{"scenario", "impl", "n", "k", <figures>}`; a figure that could not be
    /// measured on this platform is `null`. Each ratio is `{"scenario", "target", "ratio",
    /// "value", "limit", "met"}`, with `limit` and `met` `null` for a ratio without a target.
    func json() -> String {
        var results: [JSONValue] = []
        var ratios: [JSONValue] = []
        var skipped: [JSONValue] = []
        for section in sections {
            for result in section.results {
                results.append(.object([
                    ("scenario", .string(result.scenario)),
                    ("impl", .string(result.impl)),
                    ("n", .integer(result.n)),
                    ("k", .integer(result.k)),
                ] + section.columns.map { column in
                    (column.key, result.figures[column.key].map(JSONValue.number) ?? .null)
                }))
            }
            for check in section.ratios {
                ratios.append(.object([
                    ("scenario", .string(section.scenario)),
                    ("target", .string(check.target)),
                    ("ratio", .string(check.description)),
                    ("value", .number(check.value)),
                    ("limit", check.limit.map(JSONValue.number) ?? .null),
                    ("limit_is_floor", .bool(check.atLeast)),
                    ("met", check.met.map(JSONValue.bool) ?? .null),
                ]))
            }
            for run in section.skipped {
                skipped.append(.object([
                    ("scenario", .string(run.scenario)),
                    ("impl", .string(run.impl)),
                    ("n", .integer(run.n)),
                    ("k", .integer(run.k)),
                    ("reason", .string(run.reason)),
                ]))
            }
        }
        return JSONValue.object([
            ("results", .array(results)),
            ("ratios", .array(ratios)),
            ("skipped", .array(skipped)),
        ]).serialized
    }
}
