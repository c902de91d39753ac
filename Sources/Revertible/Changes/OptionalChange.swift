/// A change inside an optional value that stays non-`nil`.
final class OptionalChange<Wrapped>: ReversionNode {

    let child: any ReversionNode<Wrapped>

    init(wrapping child: any ReversionNode<Wrapped>) {
        self.child = child
    }

    func canApply(to value: Wrapped?, _ direction: ReversionDirection) -> Bool {
        guard let value else { return false }
        return child.canApply(to: value, direction)
    }

    func apply(to value: inout Wrapped?, _ direction: ReversionDirection) -> Bool {
        guard value != nil else { return false }
        return child.apply(to: &value!, direction)
    }

    func refusedLocation(in value: Wrapped?, _ direction: ReversionDirection) -> LocationName? {
        guard let value else { return .root }
        return .unwrapped + (child.refusedLocation(in: value, direction) ?? .root)
    }

    func appendKeyPaths(to paths: inout [PartialKeyPath<Wrapped?>]) {
        var childPaths: [PartialKeyPath<Wrapped>] = []
        child.appendKeyPaths(to: &childPaths)
        for childPath in childPaths {
            if let path = (\Wrapped?.self!).appending(path: childPath) as? PartialKeyPath<Wrapped?> {
                paths.append(path)
            }
        }
    }
}
