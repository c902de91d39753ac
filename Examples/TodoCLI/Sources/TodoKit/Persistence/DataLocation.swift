/// Where the data file lives, by the first rule that applies:
///
/// 1. `--file PATH`
/// 2. `TODO_FILE`
/// 3. `$XDG_DATA_HOME/todo/todo.db` (an absolute `XDG_DATA_HOME`, as the XDG spec asks)
/// 4. `~/.local/share/todo/todo.db`
public enum DataLocation {

    /// The data file's path.
    ///
    /// - Throws: a ``TodoError`` when no rule applies (no `HOME`).
    public static func resolve(flag: String?, environment: [String: String]) throws(TodoError) -> String {
        if let flag { return flag }
        if let file = environment["TODO_FILE"], !file.isEmpty { return file }
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return "\(dataHome)/todo/todo.db"
        }
        if let home = environment["HOME"], !home.isEmpty {
            return "\(home)/.local/share/todo/todo.db"
        }
        throw .badInput("cannot find a place for the data file: set TODO_FILE or HOME, or pass --file")
    }

    /// Where the first `todo` kept its file at the default location: `todo.json` beside
    /// `todo.db`, imported once when the database does not exist yet. `nil` for a path given
    /// by `--file` or `TODO_FILE` (an old file named there is imported in place).
    public static func legacyPath(flag: String?, environment: [String: String]) -> String? {
        guard flag == nil, (environment["TODO_FILE"] ?? "").isEmpty,
              let path = try? resolve(flag: nil, environment: environment), path.hasSuffix("/todo.db")
        else { return nil }
        return String(path.dropLast("todo.db".count)) + "todo.json"
    }
}
