// `TreeArray` is its own module (a collection that needs no history); re-exported so that
// code written against `import Revertible` alone keeps compiling, and so that every file of
// this module sees it.
@_exported import TreeArray

// `TextBuffer` is its own module too (a rope that needs no history), re-exported for the same
// reasons.
@_exported import TextBuffer
