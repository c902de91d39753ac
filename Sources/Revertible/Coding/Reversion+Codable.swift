// A reversion is saved as its tree of changes: each change's location (a key path, by the
// names of the stored properties it goes through), and its old and new content, written
// with the values' own `Codable` conformances. Unchanged content is never written, so one
// edit in a long list saves that edit, not the list.
//
// The format (JSON shown; any Encoder works), with short keys:
//
//   reversion  {"v":1, "inv":true?, "c":change}     v: format version; inv only when inverted
//   value      {"k":"value","p":path,"o":old,"n":new}                      a whole value replaced
//   path       {"k":"path","p":path,"c":change}                          a change inside a property
//   all        {"k":"all","c":[change, ...]}                  several changes at disjoint locations
//   some       {"k":"some","c":change}                        a change inside a non-nil optional
//   invert     {"k":"invert","c":change}                           a change applied the other way
//   range      {"k":"range","p":path,"at":offset,"o":oldPart,"n":newPart,"oc":oldCount,"nc":newCount}
//              a run of UTF-8 bytes (String) or bytes (Data, base64) replaced; counts in bytes
//   set        {"k":"set","p":path,"a":[added],"r":[removed],"oc":oldCount,"nc":newCount}
//   dict       {"k":"dict","p":path,"c":[entry, ...],"oc":oldCount,"nc":newCount}
//              entry: {"key":key,"i":inserted} | {"key":key,"r":removed} | {"key":key,"u":change}
//   diff       {"k":"diff","p":path,"r":[{"i":index,"e":element}],"a":[...],"oc":...,"nc":...}
//              elements removed (old indices) and inserted (new indices), ascending
//   ids        {"k":"ids","p":path,"e":[edit],"s":structure?,"oc":oldCount,"nc":newCount}
//              edit: {"o":oldIndex,"n":newIndex,"id":id,"c":change}
//              structure: {"o":[side],"n":[side]}, positions that differ, ascending;
//              side: {"i":index,"e":element} (stored) | {"i":index,"m":otherIndex,"id":id} (moved)
//   whole      {"k":"whole","o":old,"n":new}        the whole value of a type that ignores properties
//   tree       {"k":"tree","e":[edit],"s":structure?,"oc":oldCount,"nc":newCount}   a TreeArray, as ids
//
// A path is written as Swift prints it, `\Todo.title`. Reading resolves each property name in
// the current type, so a type that gained a property reads an old file, and a saved change
// whose location or value no longer fits is refused with a `DecodingError` naming the
// location. Everything read is checked (indices in range and ascending, counts that agree,
// children that do not overlap), so applying a decoded reversion never traps: it applies
// exactly, or throws `ReversionError.attemptingToRevertWrongVersion` and changes nothing.

/// The keys of a saved reversion.
enum ReversionCodingKey: String, CodingKey {
    case format = "v"
    case inverted = "inv"
    case change = "c"
}

/// The number of the format written; a reader refuses a newer one.
private let reversionFormat = 1

extension Reversion: Encodable where Root: Encodable {

    /// Writes the reversion as its tree of changes: each change's location, by name, and its
    /// old and new content, never a copy of what did not change.
    ///
    /// Values are written with their own `Encodable` conformance, checked at run time.
    ///
    /// - Throws: `EncodingError.invalidValue` naming the location when a changed value's type
    ///   is not `Encodable`, or when a location is not a path of stored properties (a
    ///   computed property or a subscript has no name that can be read back).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReversionCodingKey.self)
        try container.encode(reversionFormat, forKey: .format)
        if isInverted {
            try container.encode(true, forKey: .inverted)
        }
        try container.encode(EncodedNode(node), forKey: .change)
    }
}

extension Reversion: Decodable where Root: Decodable {

    /// Reads a reversion written by ``encode(to:)``, resolving each location by name in the
    /// current `Root`: it reverts exactly as the reversion that was written, in both
    /// directions, and refuses the same wrong versions.
    ///
    /// A location is resolved one stored property at a time, so a type that gained a property
    /// reads what an older version of it wrote. The root type's own name is not compared, so
    /// a renamed type reads it too.
    ///
    /// - Throws: `DecodingError` naming the location when a saved location no longer exists
    ///   (a property removed or renamed) or a saved value no longer fits its type, and for
    ///   content that is not consistent (indices out of range, counts that disagree).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ReversionCodingKey.self)
        let format = try container.decode(Int.self, forKey: .format)
        if let problem = reversionFormatProblem(format) {
            throw DecodingError.dataCorruptedError(forKey: .format, in: container, debugDescription: problem)
        }
        let isInverted = try container.decodeIfPresent(Bool.self, forKey: .inverted) ?? false
        let node = try container.decode(DecodedNode<Root>.self, forKey: .change).node
        self.init(node: node, isInverted: isInverted)
    }
}

/// What is wrong with a reversion's saved format number, or `nil`: both readers' check.
func reversionFormatProblem(_ format: Int) -> String? {
    format == reversionFormat ? nil : "reversion format \(format) is not supported (this library reads format \(reversionFormat))"
}

extension Reversion where Root: Decodable {

    /// Reads a reversion straight from a parsed JSON object, as ``init(from:)`` reads it
    /// (the same fields in the same order, the same checks and errors), its tree of changes
    /// too (see ``ChangeReader``).
    init(reading reversion: JSONObjectReader<ReversionCodingKey>) throws {
        let format = try reversion.integer(Int.self, .format)
        if let problem = reversionFormatProblem(format) {
            throw reversion.corrupted(problem, at: .format)
        }
        let isInverted = try reversion.boolIfPresent(.inverted) ?? false
        let node = try DecodedNode<Root>(json: reversion.document, at: reversion.required(.change), path: reversion.link(.change)).node
        self.init(node: node, isInverted: isInverted)
    }
}
