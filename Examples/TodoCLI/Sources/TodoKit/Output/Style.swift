/// Colors for a terminal, or none.
///
/// Color is on only when the output is a terminal and `NO_COLOR` is not set (or empty), as
/// no-color.org asks; `TERM=dumb` turns it off too. Piped output is always plain text.
public struct Style: Sendable {
    public var isEnabled: Bool

    public init(isEnabled: Bool) {
        self.isEnabled = isEnabled
    }

    /// The style for an output stream.
    public static func forStream(isTerminal: Bool, environment: [String: String]) -> Style {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return Style(isEnabled: isTerminal && !noColor && environment["TERM"] != "dumb")
    }

    public static let plain = Style(isEnabled: false)

    func dim(_ text: String) -> String { paint(text, "2") }
    func bold(_ text: String) -> String { paint(text, "1") }
    func green(_ text: String) -> String { paint(text, "32") }
    func red(_ text: String) -> String { paint(text, "31") }
    func yellow(_ text: String) -> String { paint(text, "33") }
    func cyan(_ text: String) -> String { paint(text, "36") }

    private func paint(_ text: String, _ code: String) -> String {
        isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
