extension CommandParser {
    /// The options of `watch` that bound it, each with a value: `--for SECONDS` stops it
    /// after that long, `--count N` after N changes were printed (for scripts and tests,
    /// which cannot send it Ctrl-C).
    static let watchOptions: Set<String> = ["--for", "--count"]

    /// Reads one of ``watchOptions`` with its value into `scanned`.
    static func scanWatchOption(_ name: String, _ text: String, into scanned: inout Scanned) throws(TodoError) {
        if name == "--for" {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0 else {
                throw .usage("--for needs a number of seconds, got \"\(shown(text))\"")
            }
            scanned.watchSeconds = seconds
        } else {
            guard let count = Int(text), count > 0 else {
                throw .usage("--count needs a whole number of changes, got \"\(shown(text))\"")
            }
            scanned.watchCount = count
        }
        scanned.commandOptions.append(name)
    }
}
