/// A structural, multi-line rendering of any value, through `Mirror`: the text the test
/// store diffs when an expectation fails.
///
/// Structs and classes print as `Type(` then one `label: value` per line then `)`, enums as
/// `.case(payload)`, collections as `[` one element per line `]` (sets and dictionaries
/// sorted, so equal values always print alike), strings quoted and escaped, and leaves
/// (numbers, booleans, types with a description but no children) as their description.
func dump(_ value: Any) -> String {
    var lines: [String] = []
    DumpNode(value).write(prefix: "", suffix: "", indent: 0, into: &lines)
    return lines.joined(separator: "\n")
}

/// The same rendering on one line, to name an action in a message: `.add(id: 1, title: "milk")`.
func describe(_ value: Any) -> String {
    DumpNode(value).singleLine
}

/// A value as a tree of printable parts.
private indirect enum DumpNode {
    case leaf(String)
    /// `open`, the children (each with an optional label), `close`.
    case block(open: String, close: String, children: [(label: String?, node: DumpNode)])

    init(_ value: Any) {
        switch value {
        case let string as String:
            self = .leaf(string.debugDescription)
            return
        case let substring as Substring:
            self = .leaf(String(substring).debugDescription)
            return
        case let character as Character:
            self = .leaf(String(character).debugDescription)
            return
        case let type as Any.Type:
            self = .leaf(Self.typeName(type) + ".self")
            return
        default:
            break
        }

        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            self = mirror.children.first.map { DumpNode($0.value) } ?? .leaf("nil")
        case .enum:
            guard let payload = mirror.children.first else {
                self = .leaf("." + String(describing: value))
                return
            }
            let name = "." + (payload.label ?? "")
            let inner = Mirror(reflecting: payload.value)
            let children = inner.displayStyle == .tuple
                ? inner.children.map { (Self.tupleLabel($0.label), DumpNode($0.value)) }
                : [(nil, DumpNode(payload.value))]
            self = .block(open: name + "(", close: ")", children: children)
        case .tuple:
            self = .block(open: "(", close: ")", children: mirror.children.map { (Self.tupleLabel($0.label), DumpNode($0.value)) })
        case .collection:
            self = .block(open: "[", close: "]", children: mirror.children.map { (nil, DumpNode($0.value)) })
        case .set:
            let elements = mirror.children.map { DumpNode($0.value) }.sorted { $0.singleLine < $1.singleLine }
            self = .block(open: "Set([", close: "])", children: elements.map { (nil, $0) })
        case .dictionary:
            let pairs = mirror.children.map { child -> (key: String, value: DumpNode) in
                let pair = Array(Mirror(reflecting: child.value).children)
                return (DumpNode(pair[0].value).singleLine, DumpNode(pair[1].value))
            }
            if pairs.isEmpty {
                self = .leaf("[:]")
            } else {
                self = .block(open: "[", close: "]", children: pairs.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            }
        case .struct, .class:
            self = .block(
                open: Self.typeName(type(of: value)) + "(",
                close: ")",
                children: mirror.children.map { ($0.label, DumpNode($0.value)) }
            )
        default:
            // Numbers, booleans, and types whose reflection has no display style.
            if mirror.children.isEmpty {
                self = .leaf(String(describing: value))
            } else {
                self = .block(
                    open: Self.typeName(type(of: value)) + "(",
                    close: ")",
                    children: mirror.children.map { ($0.label, DumpNode($0.value)) }
                )
            }
        }
    }

    var singleLine: String {
        switch self {
        case let .leaf(text):
            return text
        case let .block(open, close, children):
            return open + children.map { child in
                (child.label.map { "\($0): " } ?? "") + child.node.singleLine
            }.joined(separator: ", ") + close
        }
    }

    func write(prefix: String, suffix: String, indent: Int, into lines: inout [String]) {
        let pad = String(repeating: "  ", count: indent)
        switch self {
        case let .leaf(text):
            lines.append(pad + prefix + text + suffix)
        case let .block(open, close, children) where children.isEmpty:
            lines.append(pad + prefix + open + close + suffix)
        case let .block(open, close, children):
            lines.append(pad + prefix + open)
            for (index, child) in children.enumerated() {
                let label = child.label.map { "\($0): " } ?? ""
                child.node.write(prefix: label, suffix: index == children.count - 1 ? "" : ",", indent: indent + 1, into: &lines)
            }
            lines.append(pad + close + suffix)
        }
    }

    /// A positional tuple element (`.0`) prints without a label.
    private static func tupleLabel(_ label: String?) -> String? {
        guard let label, !label.hasPrefix(".") else { return nil }
        return label
    }

    /// The type's name without modules or private contexts: `Todos.State`, `Array<Int>`.
    private static func typeName(_ type: Any.Type) -> String {
        var name = Substring(String(reflecting: type))
        var result = ""
        // Each qualified name starts the string or follows one of these; its first
        // component is a module.
        var atNameStart = true
        while !name.isEmpty {
            if name.hasPrefix("(unknown context at ") || name.hasPrefix("(extension in ") {
                // A private or extension context: `(unknown context at $10f2a4).`
                if let close = name.firstIndex(of: ")") {
                    name = name[name.index(after: close)...]
                    if name.first == "." { name = name.dropFirst() }
                    continue
                }
            }
            if atNameStart {
                let identifier = name.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                let rest = name.dropFirst(identifier.count)
                if !identifier.isEmpty, rest.first == "." {
                    name = rest.dropFirst()
                    atNameStart = false
                    continue
                }
            }
            let character = name.removeFirst()
            result.append(character)
            atNameStart = "<([, :".contains(character)
        }
        return result
    }
}
