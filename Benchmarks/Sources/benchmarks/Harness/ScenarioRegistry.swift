/// Every scenario the command knows, in the order they run and print.
enum ScenarioRegistry {

    static let all: [any Scenario] = [
        EditTitle(),
        StoreUndoable(),
        TodoStartup(),
        TodoServer(),
        TodoScript(),
        TreeVersusArray(),
        HistorySave(),
        HistoryOpen(),
        TodoLongHistory(),
        TextEditing(),
        CrossModule(),
        SelectiveUndo(),
    ]
}
