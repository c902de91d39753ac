extension VersioningController {

    /// Ends the open group (a debounced burst): the next change starts a new step, even
    /// inside the debounce interval. Yjs calls it `stopCapturing`.
    ///
    /// Call it where a burst has a natural end the clock cannot see: a word finished, a
    /// field left, a drag released.
    ///
    /// ```swift
    /// controller.withDebouncing(interval: .seconds(1))
    /// controller.append("Hello")
    /// controller.stopGrouping()
    /// controller.append("Hello, world") // a step of its own
    /// ```
    ///
    /// Like every command, it clears ``error``. Changes made to an observed root before the
    /// call are recorded first, into the group.
    public func stopGrouping() {
        _ = try? perform(.stopGrouping)
    }
}
