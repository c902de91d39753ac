/// One undoable change: the reversion from the version after it to the version before it.
@usableFromInline
package struct RecordedStep<Value, Annotation> {
    @usableFromInline
    package var reversion: Reversion<Value>
    /// The version this step leads to.
    @usableFromInline
    var version: HistoryVersion
    package var annotation: Annotation
    /// When the step was recorded (its first change, for a group).
    var time: Duration
    /// How many recorded changes the step holds.
    var changeCount = 1
    /// The version this step starts from; set when it joins a scope's tree.
    @usableFromInline
    var parent = HistoryVersion(0)
    /// How many steps lie between this step's version and the scope's first version, plus
    /// the scope's ``HistoryScope/floorDepth``.
    @usableFromInline
    var depth = 0
    /// Who made the step, and what `undo(by:)` did with it; `nil` for a step without author.
    var authorship: StepAuthorship?

    /// The memberwise initializer, spelled out: `History.record`, which clients specialize,
    /// calls it, and a synthesized one cannot be `@usableFromInline`.
    @usableFromInline
    init(
        reversion: Reversion<Value>, version: HistoryVersion, annotation: Annotation, time: Duration,
        changeCount: Int = 1, parent: HistoryVersion = HistoryVersion(0), depth: Int = 0, authorship: StepAuthorship? = nil
    ) {
        self.reversion = reversion
        self.version = version
        self.annotation = annotation
        self.time = time
        self.changeCount = changeCount
        self.parent = parent
        self.depth = depth
        self.authorship = authorship
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
