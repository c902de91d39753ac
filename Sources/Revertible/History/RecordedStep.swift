/// One undoable change: the reversion from the version after it to the version before it.
///
/// A history keeps one per step, so its layout is part of what each step costs: the change
/// count sits in the reversion's tail padding, the time is whole nanoseconds (what an
/// archive saves), and the parent and depth take 32 bits each (the parent as its distance
/// back from the step's version), which makes the record 56 bytes when the annotation is
/// empty. A parent or depth that does not fit (a branch from four billion versions back, a
/// depth past four billion, or a damaged archive's parent that is not older) is kept whole
/// in an object of its own, with the authorship, so every value a step could hold before
/// it still holds.
@usableFromInline
package struct RecordedStep<Value, Annotation> {
    @usableFromInline
    package var reversion: Reversion<Value>
    /// ``changeCount``, saturated at `UInt32.max` (four billion changes in one step).
    @usableFromInline var storedChangeCount: UInt32
    /// The version this step leads to. Constant: ``parent`` is kept as the distance back from it.
    @usableFromInline
    let version: HistoryVersion
    @usableFromInline package var annotation: Annotation
    /// ``time`` in whole nanoseconds, clamped to an `Int64` (292 years either way).
    @usableFromInline var nanoseconds: Int64
    /// `version` minus ``parent``; `UInt32.max` when `extras` holds the parent and depth.
    @usableFromInline var parentDistance: UInt32
    /// ``depth``, unless `parentDistance` says `extras` holds it.
    @usableFromInline var storedDepth: UInt32
    /// The authorship, and the parent and depth when they do not fit the fields above.
    @usableFromInline var extras: StepExtras?

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
        parentDistance = 0
        storedDepth = 0
        extras = nil
        place(parent: parent, depth: depth, authorship: authorship)
    }

    /// Sets the parent, depth and authorship together, in the fields when they fit.
    @inlinable
    mutating func place(parent: HistoryVersion, depth: Int, authorship: StepAuthorship?) {
        let distance = version.rawValue &- parent.rawValue
        if parent <= version, distance < UInt64(UInt32.max), depth >= 0, depth <= Int(UInt32.max) {
            parentDistance = UInt32(truncatingIfNeeded: distance)
            storedDepth = UInt32(truncatingIfNeeded: depth)
            extras = authorship.map(StepExtras.authorship)
        } else {
            parentDistance = .max
            storedDepth = 0
            extras = .placement(StepPlacement(parent: parent, depth: depth, authorship: authorship))
        }
    }

    /// The parent and depth kept whole, when they did not fit the fields.
    @inlinable
    var placement: StepPlacement? {
        guard parentDistance == .max, case let .placement(placement)? = extras else { return nil }
        return placement
    }

    /// The version this step starts from; set when it joins a scope's tree.
    @inlinable
    var parent: HistoryVersion {
        get {
            if let placement { return placement.parent }
            return HistoryVersion(version.rawValue &- UInt64(parentDistance))
        }
        set { place(parent: newValue, depth: depth, authorship: authorship) }
    }

    /// How many steps lie between this step's version and the scope's first version, plus
    /// the scope's ``HistoryScope/floorDepth``.
    @inlinable
    var depth: Int {
        get {
            if let placement { return placement.depth }
            return Int(storedDepth)
        }
        set { place(parent: parent, depth: newValue, authorship: authorship) }
    }

    /// Who made the step, and what `undo(by:)` did with it; `nil` for a step without author.
    @inlinable
    var authorship: StepAuthorship? {
        get {
            switch extras {
            case nil: nil
            case let .authorship(authorship)?: authorship
            case let .placement(placement)?: placement.authorship
            }
        }
        set { place(parent: parent, depth: depth, authorship: newValue) }
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

/// What a step keeps beside its record's fixed fields: its authorship, or (rarely) its
/// parent and depth whole with the authorship. One reference either way, so an authored
/// step costs no second object.
@usableFromInline
enum StepExtras: Sendable {
    case authorship(StepAuthorship)
    case placement(StepPlacement)
}

/// A step's parent and depth that do not fit its record's 32-bit fields, with its authorship.
@usableFromInline
final class StepPlacement: Sendable {
    @usableFromInline let parent: HistoryVersion
    @usableFromInline let depth: Int
    @usableFromInline let authorship: StepAuthorship?

    @usableFromInline
    init(parent: HistoryVersion, depth: Int, authorship: StepAuthorship?) {
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
