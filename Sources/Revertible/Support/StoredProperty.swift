// The hot paths that compare a value or lend its trees read a stored property at its offset
// (`MemoryLayout<Root>.offset(of:)` of a key path to it) rather than through the key path:
// applying a key path is a call into the runtime, about 450 instructions, and these paths pay
// it for every property of every value they touch. Only ever called with an offset that
// `MemoryLayout` gave for a key path to a property of the very type read.

/// The stored property of type `Value` at `offset` in `root`.
@inlinable @inline(__always)
func storedProperty<Root, Value>(at offset: Int, of root: Root, as type: Value.Type = Value.self) -> Value {
    withUnsafePointer(to: root) { UnsafeRawPointer($0).load(fromByteOffset: offset, as: Value.self) }
}

/// Runs `body` on the stored property of type `Value` at `offset` in `root`, in place.
@inlinable @inline(__always)
func withStoredProperty<Root, Value>(
    at offset: Int, of root: inout Root, as type: Value.Type = Value.self, _ body: (inout Value) -> Void
) {
    withUnsafeMutablePointer(to: &root) {
        body(&UnsafeMutableRawPointer($0).advanced(by: offset).assumingMemoryBound(to: Value.self).pointee)
    }
}
