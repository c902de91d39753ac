/// A small Store/Reducer/Effect runtime.
enum UndoableReducerModule {}
