/// A change that replaced one run of a text's bytes: a `String`'s or a `Data`'s
/// (`RangeChange`), a ``TextBuffer``'s (`TextBufferChange`). They store and read their text
/// differently, but undo among other writers treats both alike, so it is written once here.
protocol TextRunChange: ReversionNode {
    associatedtype Part: ByteSpliceable

    /// Where the run starts, in bytes; the same in both versions.
    var offset: Int { get }
    /// The run in the older version.
    var oldPart: Part { get }
    /// The run in the newer version.
    var newPart: Part { get }
    /// The older version's length in bytes.
    var oldCount: Int { get }
    /// The newer version's length in bytes.
    var newCount: Int { get }
    /// The text around the run and a fingerprint of all of it; `nil` in a change read from an
    /// archive saved before they were kept.
    var context: TextRunContext<Part>? { get }

    /// Where the text is in a root, as a conflict names it.
    var textLocation: LocationName { get }
    /// The whole text in `value`: read only on a conflict.
    func text(in value: Root) -> Part
    /// Replaces the bytes `run` of the text in `value` with `replacement`.
    func replaceText(_ run: Range<Int>, in value: inout Root, with replacement: Part)
}

extension TextRunChange {

    /// One location, the whole text: another writer's change anywhere in it, of the run or
    /// elsewhere, of the length or not, is a conflict. The conflict shows the value the change
    /// expected when it replaced the whole value, else the run it expected (`…run…`).
    ///
    /// `.overwrite` finds the run in the text found (by the text kept around it, see
    /// `locateRun`) and replaces exactly it with the run to restore, so another writer's text
    /// outside the run survives wherever their edits moved the run; when the run cannot be
    /// told apart, nothing is written.
    func applySelectively(
        to value: inout Root, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    ) {
        let (expectedCount, expectedPart, replacement) = direction == .backward
            ? (newCount, newPart, oldPart) : (oldCount, oldPart, newPart)
        applyAsOneLocation(to: &value, direction, onConflict: policy, conflicts: &conflicts) { value in
            NodeConflict(
                location: textLocation,
                expected: describe(run: expectedPart, isWhole: expectedPart.byteCount == expectedCount),
                found: describe(text(in: value))
            )
        } overwrite: { value in
            let found = text(in: value)
            let run: Range<Int>? = found.withBytes { found in
                expectedPart.withBytes { expected in
                    func locate(_ before: UnsafeRawBufferPointer?, _ after: UnsafeRawBufferPointer?) -> Range<Int>? {
                        locateRun(
                            in: found, run: expected, offset: offset, expectedCount: expectedCount,
                            before: before, after: after, isBoundary: Part.isBoundary
                        )
                    }
                    guard let context else { return locate(nil, nil) }
                    return context.before.withBytes { before in
                        context.after.withBytes { after in locate(before, after) }
                    }
                }
            }
            if let run {
                replaceText(run, in: &value, with: replacement)
            }
        }
    }
}
