/// A ratio between figures of one invocation, or a figure on its own when its target is
/// absolute, and the target it is held to.
struct RatioCheck {
    /// The target's label, e.g. `1` or `4`; several checks can share one.
    let target: String
    /// What is divided by what, e.g. `revertible / snapshot append, N=10,000`.
    let description: String
    let value: Double
    /// The largest value that meets the target (the smallest, when `atLeast`), or `nil` for
    /// a ratio reported for information.
    let limit: Double?
    /// Whether the target is a floor (`value >= limit`) rather than a ceiling.
    var atLeast = false

    init(target: String, description: String, value: Double, limit: Double?, atLeast: Bool = false) {
        self.target = target
        self.description = description
        self.value = value
        self.limit = limit
        self.atLeast = atLeast
    }

    /// Whether the target is met, or `nil` without a target.
    var met: Bool? {
        limit.map { atLeast ? value >= $0 : value <= $0 }
    }
}
