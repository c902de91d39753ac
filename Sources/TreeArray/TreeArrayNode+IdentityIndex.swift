// Identity index of a tree node; the node's layout and header are in TreeArrayNode.swift.

import Synchronization

extension TreeArrayNode {

    /// Where this node, as a root, keeps its identity index, if a lookup by id made a place.
    @inlinable @inline(__always)
    var existingIdentityCell: TreeArrayIdentityCell<Element>? {
        withUnsafeMutablePointerToElements { Node.cell(at: Node.identity(in: $0).pointee.load(ordering: .acquiring)) }
    }

    /// The cell whose retained address is `bits`, `nil` for `0`.
    @inlinable @inline(__always)
    static func cell(at bits: UInt) -> TreeArrayIdentityCell<Element>? {
        guard let address = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return Unmanaged<TreeArrayIdentityCell<Element>>.fromOpaque(address).takeUnretainedValue()
    }

    /// Where this node, as a root, keeps its identity index, made if it has none.
    @inlinable
    var identityCellMakingOne: TreeArrayIdentityCell<Element> {
        withUnsafeMutablePointerToElements { tail in
            let reference = Node.identity(in: tail)
            if let cell = Node.cell(at: reference.pointee.load(ordering: .acquiring)) { return cell }
            // Readers may race to make the cell: the first to publish it wins, the others
            // give theirs back and use the winner's.
            let made = Unmanaged.passRetained(TreeArrayIdentityCell<Element>())
            let bits = UInt(bitPattern: made.toOpaque())
            let (exchanged, original) = reference.pointee.compareExchange(
                expected: 0, desired: bits, ordering: .acquiringAndReleasing)
            if exchanged { return made.takeUnretainedValue() }
            made.release()
            return Node.cell(at: original)!
        }
    }
}
