/// One undoable change: the reversion from the version after it to the version before it.
///
/// A history keeps one per step, so its layout is part of what each step costs: the change
/// count sits in the reversion's tail padding and the time is whole nanoseconds (what an
/// archive saves), which makes the record 64 bytes, not 80, when the annotation is empty.
@usableFromInline
package struct RecordedStep<Value, Annotation> {
    @usableFromInline
    package var reversion: Reversion<Value>
    /// ``changeCount``, saturated at `UInt32.max` (four billion changes in one step).
    @usableFromInline var storedChangeCount: UInt32
    /// The version this step leads to.
    @usableFromInline
    var version: HistoryVersion
    @usableFromInline package var annotation: Annotation
    /// ``time`` in whole nanoseconds, clamped to an `Int64` (292 years either way).
    @usableFromInline var nanoseconds: Int64
    /// The version this step starts from; set when it joins a scope's tree.
    @usableFromInline
    var parent = HistoryVersion(0)
    /// How many steps lie between this step's version and the scope's first version, plus
    /// the scope's ``HistoryScope/floorDepth``.
    @usableFromInline
    var depth = 0
    /// Who made the step, and what `undo(by:)` did with it; `nil` for a step without author.
    @usableFromInline var authorship: StepAuthorship?

    /// Written out, not synthesized: `History.record`, which clients specialize, calls it,
    /// and a synthesized initializer cannot be `@usableFromInline`. Inlinable, with the
    /// fields it sets: a generic initializer run unspecialized looks up the step's metadata.
    @inlinable
    init(
        reversion: Reversion<Value>,
        version: HistoryVersion,
        annotation: Annotation,
        time: Duration,
        changeCount: Int = 1,
        parent: HistoryVersion = HistoryVersion(0),
        depth: Int = 0,
        authorship: StepAuthorship? = nil
    ) {
        self.reversion = reversion
        storedChangeCount = UInt32(clamping: changeCount)
        self.version = version
        self.annotation = annotation
        nanoseconds = time.wholeNanoseconds
        self.parent = parent
        self.depth = depth
        self.authorship = authorship
    }

    /// When the step was recorded (its first change, for a group), to the nanosecond.
    @usableFromInline
    var time: Duration {
        get { .nanoseconds(nanoseconds) }
        set { nanoseconds = newValue.wholeNanoseconds }
    }

    /// How many recorded changes the step holds.
    @usableFromInline
    var changeCount: Int {
        get { Int(storedChangeCount) }
        set { storedChangeCount = UInt32(clamping: newValue) }
    }
}

extension RecordedStep where Annotation: HistoryAnnotation {

    /// The same step with another kind of annotation, made from this one's label: what an
    /// archive saves, and what a loaded history keeps.
    func relabelled<Other: HistoryAnnotation>(as _: Other.Type = Other.self) -> RecordedStep<Value, Other> {
        RecordedStep<Value, Other>(
            reversion: reversion, version: version, annotation: Other(savedLabel: annotation.label),
            time: time, changeCount: changeCount, parent: parent, depth: depth, authorship: authorship
        )
    }
}

/// The annotation an archive keeps of a step: its label.

extension RecordedStep: Sendable where Value: Sendable, Annotation: Sendable {}
