@_spi(Reflection) import Swift

/// A key path saved as its name, `\Todo.title`: the names of the stored properties it goes
/// through, which outlive the process, never a registration index or an address.
///
/// Writing uses the key path's own printed form, then resolves that name back and requires
/// the very same key path: a computed property, a subscript or an optional chain prints no
/// name that could be read back (`\Doc.<computed 0x…>`), so it is refused, not written.
///
/// Reading walks stored properties one component at a time with the standard library's
/// reflection, so no instance is needed and a type that gained a property still resolves
/// every saved name. The root type's printed name is skipped, not compared: it is the
/// unqualified name (`Todo` for `V1.Todo`), so comparing would reject a type that was merely
/// renamed or moved, while every property the name goes through is still checked.
struct KeyPathName: Hashable, Sendable {

    /// The saved text, `\Todo.title`.
    let text: String
    /// The stored-property names after the root type: `["title"]`; empty for `\Todo.self`.
    let components: [String]

    /// Reads `text`: a backslash, the root type's printed name (which may hold generic
    /// arguments, `Box<Int>`), then `.` and property names, or `.self`.
    init(parsing text: String) throws(KeyPathNameError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw KeyPathNameError("the key path name is longer than \(Self.maximumLength) bytes")
        }
        guard text.first == "\\" else {
            throw KeyPathNameError("\(text) is not a key path name: it does not start with a backslash")
        }
        guard let rootEnd = Self.rootEnd(of: text), rootEnd > text.index(after: text.startIndex) else {
            throw KeyPathNameError("\(text) is not a key path name: it names no root type and property")
        }
        let components = text[text.index(after: rootEnd)...].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for component in components where !Self.isPropertyName(component) {
            throw KeyPathNameError("\(text) is not a path of stored properties: \"\(component)\" is not a property name")
        }
        if components.contains("self") {
            guard components == ["self"] else {
                throw KeyPathNameError("\(text) is not a key path name: .self must stand alone")
            }
            self.components = []
        } else {
            self.components = components
        }
        self.text = text
    }

    /// Where the root type's printed name ends in a key path's printed form: at the first `.`
    /// outside generic arguments, tuples and subscripts.
    fileprivate static func rootEnd(of text: String) -> String.Index? {
        var depth = 0
        for index in text.indices.dropFirst() {
            switch text[index] {
            case "<", "(", "[": depth += 1
            case ">", ")", "]": depth -= 1
            case "." where depth == 0: return index
            default: break
            }
        }
        return nil
    }

    /// Long enough for any real path; bounds the work a hostile name can cause.
    private static let maximumLength = 4_096

    private static func isPropertyName(_ component: String) -> Bool {
        !component.isEmpty && component.unicodeScalars.allSatisfy { scalar in
            scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        }
    }

    /// The name of `keyPath`, checked to resolve back to exactly `keyPath`.
    static func name(of keyPath: AnyKeyPath) throws(KeyPathNameError) -> KeyPathName {
        if let known = cache.withLockUnchecked({ $0.names[keyPath] }) {
            return known
        }
        let text = String(describing: keyPath)
        let root = type(of: keyPath).rootType
        guard let name = try? KeyPathName(parsing: text), let resolved = try? name.resolve(in: root), resolved == keyPath else {
            let shown = text.contains("<computed") ? "a key path of \(root) with a computed property or a subscript" : text
            throw KeyPathNameError(
                "\(shown) cannot be saved: only paths of stored properties of your own structures have names that can be read back"
            )
        }
        cache.withLockUnchecked { $0.names[keyPath] = name }
        return name
    }

    /// The name `text` and the key path it gives in `root`: what reading a saved change
    /// does for every location it names, so a spelling seen before is not parsed again.
    ///
    /// - Throws: ``KeyPathNameError``, as ``init(parsing:)`` and ``resolve(in:)`` do.
    static func resolving(_ text: String, in root: Any.Type) throws(KeyPathNameError) -> (name: KeyPathName, keyPath: AnyKeyPath) {
        let key = SpellingKey(root: ObjectIdentifier(root), text: text)
        if let known = cache.withLockUnchecked({ $0.spelling(key) }) {
            return known
        }
        let name = try KeyPathName(parsing: text)
        let keyPath = try name.resolve(in: root)
        // Only the spelling writing gives is kept: the root's printed name is not compared,
        // so hostile input could otherwise spell one path in endless ways.
        if (try? Self.name(of: keyPath))?.text == text {
            cache.withLockUnchecked { $0.spelled[key] = (name, keyPath) }
        }
        return (name, keyPath)
    }

    /// The key path this name gives in `root`, going through `root`'s stored properties.
    ///
    /// - Throws: ``KeyPathNameError`` naming the property that is missing, with the type
    ///   searched and the whole name, e.g. `no stored property "title" in Todo for \Todo.title`.
    func resolve(in root: Any.Type) throws(KeyPathNameError) -> AnyKeyPath {
        let key = ResolutionKey(root: ObjectIdentifier(root), components: components)
        if let known = Self.cache.withLockUnchecked({ $0.resolved[key] }) {
            return known
        }
        var path: AnyKeyPath?
        var current = root
        for component in components {
            guard !isLibraryType(current) else {
                throw KeyPathNameError(
                    "no saved location may go inside \(current), a library type, as \(text) does (at \"\(component)\")"
                )
            }
            guard let field = Self.fields(of: current)[component] else {
                throw KeyPathNameError("no stored property \"\(component)\" in \(current) for \(text)")
            }
            guard let composed = path.map({ $0.appending(path: field) }) ?? field else {
                throw KeyPathNameError("\(text) does not compose at \"\(component)\"")
            }
            path = composed
            current = type(of: field).valueType
        }
        let resolved = path ?? identityKeyPath(root)
        Self.cache.withLockUnchecked { $0.resolved[key] = resolved }
        return resolved
    }

    /// The stored properties of `type` by name, or none for a type without them (an enum,
    /// a class, a tuple).
    private static func fields(of type: Any.Type) -> [String: AnyKeyPath] {
        if let known = cache.withLockUnchecked({ $0.fields[ObjectIdentifier(type)] }) {
            return known
        }
        let fields = storedFields(of: type)
        cache.withLockUnchecked { $0.fields[ObjectIdentifier(type)] = fields }
        return fields
    }

    private struct SpellingKey: Hashable {
        let root: ObjectIdentifier
        let text: String
    }

    private struct ResolutionKey: Hashable {
        let root: ObjectIdentifier
        let components: [String]
    }

    /// Resolutions are pure functions of a type and a name, so they are computed once per
    /// process. Only names that resolve are kept, and those are bounded by the types' own
    /// stored properties, so hostile input cannot grow the cache.
    private struct Cache {
        var names: [AnyKeyPath: KeyPathName] = [:]
        var resolved: [ResolutionKey: AnyKeyPath] = [:]
        var spelled: [SpellingKey: (name: KeyPathName, keyPath: AnyKeyPath)] = [:]
        var fields: [ObjectIdentifier: [String: AnyKeyPath]] = [:]
        /// The last spellings found, compared before `spelled` is hashed into: a history
        /// names the same few locations in step after step, and hashing the name cost more
        /// than comparing it with these.
        var recentSpellings: [(key: SpellingKey, found: (name: KeyPathName, keyPath: AnyKeyPath))] = []
        var nextRecent = 0

        mutating func spelling(_ key: SpellingKey) -> (name: KeyPathName, keyPath: AnyKeyPath)? {
            for recent in recentSpellings where recent.key == key { return recent.found }
            guard let found = spelled[key] else { return nil }
            if recentSpellings.count < 4 {
                recentSpellings.append((key, found))
            } else {
                recentSpellings[nextRecent] = (key, found)
                nextRecent = (nextRecent + 1) % 4
            }
            return found
        }
    }

    /// Locked without the `sending` check, as `AnyKeyPath` is not `Sendable`. Sound: every
    /// path the cache keeps is made of stored properties only (``name(of:)`` keeps a path once
    /// it resolves through stored fields; ``resolve(in:)`` and ``fields(of:)`` build them from
    /// stored fields, and ``resolving(_:in:)`` keeps what ``resolve(in:)`` gave), so it captures no value, and a key path object never changes once
    /// made: threads share only immutable objects. A lookup hashes and compares the caller's
    /// own path under the lock, and does not keep it.
    private static let cache = Locked(unchecked: Cache())
}

/// Why a key path cannot be written as a name, or a name does not resolve.
struct KeyPathNameError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

private func identityKeyPath(_ root: Any.Type) -> AnyKeyPath {
    func identity<Root>(_: Root.Type) -> AnyKeyPath { \Root.self }
    return identity(root)
}

private func storedFields(of type: Any.Type) -> [String: AnyKeyPath] {
    func fields<Root>(_: Root.Type) -> [String: AnyKeyPath] {
        var result: [String: AnyKeyPath] = [:]
        // `.ignoreUnknown`, spelled by value: the stdlib declares it a `static var`, which
        // strict concurrency refuses to read. Fields that cannot be introspected are skipped.
        _ = _forEachFieldWithKeyPath(of: Root.self, options: _EachFieldOptions(rawValue: 1 << 1)) { name, keyPath in
            result[String(cString: name)] = keyPath
            return true
        }
        return result
    }
    return fields(type)
}

/// Whether `type` belongs to the standard library, Foundation or this library: their stored
/// properties are implementation details (a `String`'s storage bits), and writing one from
/// saved data could break the type's invariants, so a saved location never goes inside them.
private func isLibraryType(_ type: Any.Type) -> Bool {
    let name = String(reflecting: type)
    return ["Swift.", "Foundation", "_", "Revertible."].contains { name.hasPrefix($0) }
}

/// A location as written in Swift, for messages: `\Drawing.shapes[id: 7].color`.
///
/// A key path prints its stored properties by name but a subscript or a computed property as
/// an address (`<computed 0x…>`), so the changes that reach elements by id, key or position
/// add those parts themselves, as they are known where a change is refused.
@usableFromInline
struct LocationName {

    /// The parts after the root type: `.shapes`, `[id: 7]`, `.color`.
    private(set) var parts: [String]

    /// The key path to the location when it is reached through key paths alone (no element
    /// found by id, key or position), for callers that must read or write it there.
    private(set) var keyPath: AnyKeyPath?
    /// Whether every part came from a key path, so that `keyPath` (or none, the root) is it.
    private var isKeyPathChain: Bool

    /// No parts: the root value itself.
    static var root: LocationName { LocationName(parts: [], keyPath: nil, isKeyPathChain: true) }

    private init(parts: [String], keyPath: AnyKeyPath? = nil, isKeyPathChain: Bool = false) {
        self.parts = parts
        self.keyPath = keyPath
        self.isKeyPathChain = isKeyPathChain
    }

    /// The parts of `keyPath`, from its printed form (the name ``KeyPathName`` saves). A
    /// computed part, whose printed form is an address, reads `[…]`.
    init(_ keyPath: AnyKeyPath) {
        let text = String(describing: keyPath)
        guard let rootEnd = KeyPathName.rootEnd(of: text) else {
            self.init(parts: [], keyPath: keyPath, isKeyPathChain: true)
            return
        }
        var parts: [String] = []
        var depth = 0
        var current = ""
        for character in text[rootEnd...] {
            switch character {
            case "<", "(", "[": depth += 1
            case ">", ")", "]": depth -= 1
            case "." where depth == 0, "?" where depth == 0, "!" where depth == 0:
                if !current.isEmpty { parts.append(current) }
                current = ""
            default: break
            }
            current.append(character)
        }
        if !current.isEmpty { parts.append(current) }
        self.init(parts: parts.compactMap { part in
            if part == ".self" { return nil }
            if part.hasPrefix(".<computed") { return "[…]" }
            return part
        }, keyPath: keyPath, isKeyPathChain: true)
    }

    /// The value inside an optional: `!`.
    static var unwrapped: LocationName { LocationName(parts: ["!"]) }

    /// An element reached by subscript: `[id: 7]`, `["key"]`, `[3]`.
    static func `subscript`(_ argument: String) -> LocationName {
        LocationName(parts: ["[\(argument)]"])
    }

    /// `lhs`, then `rhs` inside it.
    static func + (lhs: LocationName, rhs: LocationName) -> LocationName {
        let parts = lhs.parts + rhs.parts
        guard lhs.isKeyPathChain, rhs.isKeyPathChain else { return LocationName(parts: parts) }
        switch (lhs.keyPath, rhs.keyPath) {
        case let (left?, right?):
            guard let joined = left.appending(path: right) else { return LocationName(parts: parts) }
            return LocationName(parts: parts, keyPath: joined, isKeyPathChain: true)
        case let (left, right):
            return LocationName(parts: parts, keyPath: left ?? right, isKeyPathChain: true)
        }
    }

    /// The whole location, starting from `root`: `\Drawing.shapes[id: 7].color`.
    func text(in root: Any.Type) -> String {
        "\\\(root)" + (parts.isEmpty ? ".self" : parts.joined())
    }
}

extension KeyPathName {

    /// `keyPath` as written in Swift, with any computed part shown as `[…]`.
    static func readable(_ keyPath: AnyKeyPath) -> String {
        LocationName(keyPath).text(in: type(of: keyPath).rootType)
    }
}

extension LocationName {

    /// A subscript argument as Swift code writes it: a string quoted, anything else as it
    /// prints.
    static func argument(_ value: some Hashable) -> String {
        if let string = value as? String { return String(reflecting: string) }
        return String(describing: value)
    }

    /// Where `edits`, changes inside elements of `elements` found by position, refuse: the
    /// element by id and the location inside it, `[id: 7].color`. An element count or an
    /// order that no longer fits refuses at the collection itself (`.root`).
    static func refusedElement<Elements: RandomAccessCollection<Element>, Element: Identifiable & Versionable>(
        of edits: some Sequence<IdentifiedArrayEdit<Element>>,
        in elements: Elements,
        expectedCount: Int,
        _ direction: ReversionDirection
    ) -> LocationName where Elements.Index == Int {
        guard elements.count == expectedCount else { return .root }
        for edit in edits {
            let index = direction == .backward ? edit.newIndex : edit.oldIndex
            let element = elements[elements.startIndex + index]
            guard element.id == edit.id else { return .root }
            guard edit.node.canApply(to: element, direction) else {
                return .subscript("id: \(argument(edit.id))") + (edit.node.refusedLocation(in: element, direction) ?? .root)
            }
        }
        return .root
    }
}
