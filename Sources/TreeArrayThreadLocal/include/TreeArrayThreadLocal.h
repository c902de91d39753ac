#ifndef TREE_ARRAY_THREAD_LOCAL_H
#define TREE_ARRAY_THREAD_LOCAL_H

/// The journal a history opened on this thread around a reducer's run (a `TreeArrayJournal`,
/// unretained), or `NULL`: every `TreeArray` write asks, so it must cost a load. Swift has no
/// thread-local storage of its own; C's is one instruction on the platforms Swift runs on.
extern _Thread_local void *_Nullable treeArrayThreadJournal;

/// The journal open on this thread, or `NULL`.
static inline __attribute__((always_inline)) void *_Nullable treeArrayOpenJournal(void) {
    return treeArrayThreadJournal;
}

/// Makes `journal` (or `NULL`) the one open on this thread.
static inline __attribute__((always_inline)) void treeArraySetOpenJournal(void *_Nullable journal) {
    treeArrayThreadJournal = journal;
}

#endif
