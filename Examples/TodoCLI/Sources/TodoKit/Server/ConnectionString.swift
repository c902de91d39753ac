/// A PostgreSQL connection string read the way libpq reads it (PostgreSQL's documentation,
/// "Connection Strings"), so that `todo` knows every secret in it and can keep all of them
/// out of what it prints.
///
/// A parser rather than a pattern, because libpq takes a password in many spellings: a URI's
/// `user:password@`, a URI query's `password=`, either percent-encoded or not (the key too),
/// a `key=value` pair single-quoted with `\'` and `\\` escapes or unquoted with
/// backslash-escaped spaces, whitespace around `=`, and a key given twice. A pattern that
/// misses one spelling prints that password. A string this parser refuses is one libpq
/// refuses too (libpq's message then quotes the string), so such a string is never shown.
struct ConnectionString: Sendable, Equatable {
    /// One setting: its name and value as libpq sees them (unquoted, unescaped,
    /// percent-decoded), and where the value is spelled in the text.
    struct Setting: Sendable, Equatable {
        var key: String
        var value: String
        /// The characters of the text that spell the value, quotes and escapes included.
        var valueRange: Range<String.Index>
    }

    /// Why a string cannot be read, in words that quote nothing of it: the string may hold a
    /// password anywhere, so not even the offending part is shown.
    enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case unterminatedQuote
        case missingEquals
        case badPercentEscape
        case percentEncodedZero
        case unclosedBracket
        case emptyBracket
        case unexpectedAfterBracket
        case queryParameterWithoutEquals
        case queryParameterWithTwoEquals
        case ambiguousAt

        var description: String {
            switch self {
            case .unterminatedQuote: "a quoted value has no closing quote"
            case .missingEquals: "a word is not followed by \"=\" (each setting is key=value)"
            case .badPercentEscape: "a \"%\" is not followed by two hexadecimal digits"
            case .percentEncodedZero: "it holds %00, which no setting may contain"
            case .unclosedBracket: "an IPv6 address has no closing \"]\""
            case .emptyBracket: "an IPv6 address between \"[\" and \"]\" is empty"
            case .unexpectedAfterBracket: "an IPv6 address in \"[...]\" is followed by something other than \":\", \"/\", \"?\" or \",\""
            case .queryParameterWithoutEquals: "a URI query parameter has no \"=\""
            case .queryParameterWithTwoEquals: "a URI query parameter has two \"=\""
            case .ambiguousAt: "it has an \"@\" after the user name part, which libpq would read as part of the host: write an \"@\" in a password or name as %40"
            }
        }
    }

    /// Settings whose values are secrets. libpq's `password` and `sslpassword` (the client
    /// key's passphrase), the SCRAM keys given in place of a password (PostgreSQL 18), and an
    /// OAuth client's secret.
    static let secretKeys: Set<String> = ["password", "sslpassword", "scram_client_key", "scram_server_key", "oauth_client_secret"]

    /// The names libpq (up to PostgreSQL 18) knows. libpq's "invalid connection option" names
    /// an unknown key, and a key may be the tail of a password someone left unquoted
    /// (`password=Super Secret1=x`): a name outside this list is hidden in libpq's messages.
    static let knownKeys: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "require_auth", "channel_binding",
        "connect_timeout", "client_encoding", "options", "application_name", "fallback_application_name",
        "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout",
        "replication", "gssencmode", "sslmode", "requiressl", "sslnegotiation", "sslcompression", "sslcert",
        "sslkey", "sslkeylogfile", "sslpassword", "sslcertmode", "sslrootcert", "sslcrl", "sslcrldir", "sslsni",
        "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version", "min_protocol_version",
        "max_protocol_version", "krbsrvname", "gsslib", "gssdelegation", "service", "target_session_attrs",
        "load_balance_hosts", "scram_client_key", "scram_server_key", "oauth_issuer", "oauth_client_id",
        "oauth_client_secret", "oauth_scope", "authtype", "tty", "ssl",
    ]

    /// The string as given.
    let text: String
    /// Every setting in the order written; a key given twice is here twice (libpq uses the
    /// last, but both are secrets to hide).
    let settings: [Setting]
    /// Whether the string is a `postgresql://` or `postgres://` URI.
    let isURI: Bool

    /// Reads `text` as libpq does: a URI when it starts with libpq's prefixes (case and all),
    /// else `key=value` pairs.
    init(parsing text: String) throws(Problem) {
        self.text = text
        if let prefix = ["postgresql://", "postgres://"].first(where: { text.hasPrefix($0) }) {
            isURI = true
            settings = try Self.parseURI(text, after: text.index(text.startIndex, offsetBy: prefix.count))
        } else {
            isURI = false
            settings = try Self.parsePairs(text)
        }
    }

    // MARK: What to hide

    /// Every secret value as libpq sees it, and as it is spelled in the text when that
    /// differs (quoted, escaped, percent-encoded); also the secrets of a `dbname` that is
    /// itself a connection string. Empty values are left out: there is nothing to hide.
    var secrets: [String] {
        var found: [String] = []
        for setting in settings {
            if Self.secretKeys.contains(setting.key) {
                found.append(setting.value)
                found.append(String(text[setting.valueRange]))
            } else if let inner = nestedConnectionString(setting) {
                found += inner.secrets
            }
        }
        var seen = Set<String>()
        return found.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// A `dbname` value that is itself a connection string with a secret: libpq expands
    /// such a value in some calls, so its secrets are treated as this string's own.
    private func nestedConnectionString(_ setting: Setting) -> ConnectionString? {
        guard setting.key == "dbname", setting.value.contains("=") || setting.value.contains("://") else { return nil }
        guard let inner = try? ConnectionString(parsing: setting.value), !inner.secrets.isEmpty else { return nil }
        return inner
    }

    /// The text with each secret's spelling replaced by `***`; the rest as written, so a
    /// reader still sees which server and database are meant.
    var redacted: String {
        let hidden = settings.filter { setting in
            !setting.valueRange.isEmpty && (Self.secretKeys.contains(setting.key) || nestedConnectionString(setting) != nil)
        }
        var result = ""
        var position = text.startIndex
        for setting in hidden.sorted(by: { $0.valueRange.lowerBound < $1.valueRange.lowerBound }) where setting.valueRange.lowerBound >= position {
            result += text[position..<setting.valueRange.lowerBound]
            result += "***"
            position = setting.valueRange.upperBound
        }
        result += text[position...]
        return result
    }

    /// `message` (libpq's or the server's) without any secret of this string: the whole
    /// string is replaced by its redacted form, each secret by `***`, and a name libpq does
    /// not know (which may be the tail of an unquoted password) by `***`. A secret of fewer
    /// than four characters would turn ordinary words to asterisks, so a message holding one
    /// is left out altogether.
    func scrub(_ message: String) -> String {
        var result = message
        if !text.isEmpty { result = result.replacingOccurrences(of: text, with: redacted) }
        let unknownKeys = settings.map(\.key).filter { !$0.isEmpty && !Self.knownKeys.contains($0) }
        for secret in (secrets + unknownKeys).sorted(by: { $0.count > $1.count }) {
            guard result.contains(secret) else { continue }
            if secret.count < 4 { return "libpq's reason is not shown, as it might include the password" }
            result = result.replacingOccurrences(of: secret, with: "***")
        }
        return result
    }

    // MARK: key=value

    /// libpq's whitespace: C's `isspace` in the C locale.
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\u{0B}" || scalar == "\u{0C}" || scalar == "\r"
    }

    /// `key = value` pairs separated by whitespace; a value single-quoted (where `\` escapes
    /// any character, `\'` and `\\` included) or unquoted up to whitespace (where `\`
    /// escapes too, so `Super\ Secret1` is one value). Whitespace after `=` is skipped, so
    /// `password= host=x` sets the password to `host=x`, as libpq does.
    private static func parsePairs(_ text: String) throws(Problem) -> [Setting] {
        let scalars = text.unicodeScalars
        var settings: [Setting] = []
        var index = scalars.startIndex
        while index < scalars.endIndex {
            if isSpace(scalars[index]) { index = scalars.index(after: index); continue }
            var key = ""
            while index < scalars.endIndex, scalars[index] != "=", !isSpace(scalars[index]) {
                key.unicodeScalars.append(scalars[index])
                index = scalars.index(after: index)
            }
            while index < scalars.endIndex, isSpace(scalars[index]) { index = scalars.index(after: index) }
            guard index < scalars.endIndex, scalars[index] == "=" else { throw .missingEquals }
            index = scalars.index(after: index)
            while index < scalars.endIndex, isSpace(scalars[index]) { index = scalars.index(after: index) }
            let start = index
            var value = ""
            if index < scalars.endIndex, scalars[index] == "'" {
                index = scalars.index(after: index)
                while true {
                    guard index < scalars.endIndex else { throw .unterminatedQuote }
                    let scalar = scalars[index]
                    index = scalars.index(after: index)
                    if scalar == "'" { break }
                    if scalar == "\\" {
                        guard index < scalars.endIndex else { throw .unterminatedQuote }
                        value.unicodeScalars.append(scalars[index])
                        index = scalars.index(after: index)
                    } else {
                        value.unicodeScalars.append(scalar)
                    }
                }
            } else {
                while index < scalars.endIndex, !isSpace(scalars[index]) {
                    let scalar = scalars[index]
                    index = scalars.index(after: index)
                    if scalar == "\\" {
                        // A trailing backslash escapes nothing and is dropped, as libpq does.
                        if index < scalars.endIndex {
                            value.unicodeScalars.append(scalars[index])
                            index = scalars.index(after: index)
                        }
                    } else {
                        value.unicodeScalars.append(scalar)
                    }
                }
            }
            settings.append(Setting(key: key, value: value, valueRange: start..<index))
        }
        return settings
    }

    // MARK: URI

    /// `scheme://[user[:password]@][host][:port][,...][/dbname][?key=value&...]`, each part
    /// percent-decoded, with libpq's rules for where each part ends.
    private static func parseURI(_ text: String, after prefixEnd: String.Index) throws(Problem) -> [Setting] {
        let scalars = text.unicodeScalars
        var settings: [Setting] = []
        var index = prefixEnd
        func scan(from start: String.Index, until stops: Set<Unicode.Scalar>) -> String.Index {
            var position = start
            while position < scalars.endIndex, !stops.contains(scalars[position]) { position = scalars.index(after: position) }
            return position
        }
        func decoded(_ range: Range<String.Index>) throws(Problem) -> String {
            try percentDecoded(text[range])
        }

        // User and password: libpq looks for an "@" before the first "/".
        let at = scan(from: index, until: ["@", "/"])
        if at < scalars.endIndex, scalars[at] == "@" {
            let colon = scan(from: index, until: [":", "@"])
            settings.append(Setting(key: "user", value: try decoded(index..<colon), valueRange: index..<colon))
            if colon < at {
                let passwordStart = scalars.index(after: colon)
                settings.append(Setting(key: "password", value: try decoded(passwordStart..<at), valueRange: passwordStart..<at))
            }
            index = scalars.index(after: at)
        }
        // A second "@" before the query would be read by libpq as part of a host or database
        // name, and then quoted in its messages: an "@" a password meant to hold. Refused.
        let queryStart = scan(from: index, until: ["?"])
        if text[index..<queryStart].unicodeScalars.contains("@") { throw .ambiguousAt }

        // Hosts and ports, separated by commas; an IPv6 address in brackets.
        var terminator: Unicode.Scalar?
        while true {
            let hostStart: String.Index
            let hostEnd: String.Index
            if index < scalars.endIndex, scalars[index] == "[" {
                hostStart = scalars.index(after: index)
                let close = scan(from: hostStart, until: ["]"])
                guard close < scalars.endIndex else { throw .unclosedBracket }
                guard close > hostStart else { throw .emptyBracket }
                hostEnd = close
                index = scalars.index(after: close)
                if index < scalars.endIndex, ![":", "/", "?", ","].contains(scalars[index]) { throw .unexpectedAfterBracket }
            } else {
                hostStart = index
                index = scan(from: index, until: [":", "/", "?", ","])
                hostEnd = index
            }
            if hostEnd > hostStart {
                settings.append(Setting(key: "host", value: try decoded(hostStart..<hostEnd), valueRange: hostStart..<hostEnd))
            }
            terminator = index < scalars.endIndex ? scalars[index] : nil
            if terminator == ":" {
                let portStart = scalars.index(after: index)
                index = scan(from: portStart, until: ["/", "?", ","])
                settings.append(Setting(key: "port", value: try decoded(portStart..<index), valueRange: portStart..<index))
                terminator = index < scalars.endIndex ? scalars[index] : nil
            }
            guard terminator == "," else { break }
            index = scalars.index(after: index)
        }

        if terminator == "/" {
            let start = scalars.index(after: index)
            index = scan(from: start, until: ["?"])
            if index > start {
                settings.append(Setting(key: "dbname", value: try decoded(start..<index), valueRange: start..<index))
            }
            terminator = index < scalars.endIndex ? scalars[index] : nil
        }

        if terminator != nil {
            // The query: key=value pairs separated by "&", both percent-decoded.
            index = scalars.index(after: index)
            while index < scalars.endIndex {
                let end = scan(from: index, until: ["&"])
                let equals = scan(from: index, until: ["="])
                guard equals < end else { throw .queryParameterWithoutEquals }
                let valueStart = scalars.index(after: equals)
                if text[valueStart..<end].unicodeScalars.contains("=") { throw .queryParameterWithTwoEquals }
                settings.append(Setting(key: try decoded(index..<equals), value: try decoded(valueStart..<end), valueRange: valueStart..<end))
                index = end < scalars.endIndex ? scalars.index(after: end) : end
            }
        }
        return settings
    }

    /// `%XX` as the byte XX (the bytes then read as UTF-8); `%00` refused, as libpq does.
    private static func percentDecoded(_ text: Substring) throws(Problem) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { throw .badPercentEscape }
            let value = high << 4 | low
            guard value != 0 else { throw .percentEncodedZero }
            bytes.append(value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
