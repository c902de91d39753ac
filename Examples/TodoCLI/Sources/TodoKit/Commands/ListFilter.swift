/// Which items `todo list` shows.
public enum ListFilter: Equatable, Sendable {
    case all
    case open
    case done

    func includes(_ item: TodoItem) -> Bool {
        switch self {
        case .all: true
        case .open: !item.isDone
        case .done: item.isDone
        }
    }
}
