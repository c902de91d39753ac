/// Every scenario the command knows, in the order they run and print.
enum ScenarioRegistry {

    // `store-undoable` (a reducer `Store` with `undoable`) and `todo-startup` (the `todo`
    // binary's startup on a large data file) are still to come: each is a `Scenario` in its
    // own file under `Scenarios/`, listed here.
    static let all: [any Scenario] = [
        EditTitle(),
    ]
}
