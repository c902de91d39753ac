#ifndef TREE_ARRAY_PREFETCH_H
#define TREE_ARRAY_PREFETCH_H

/// Asks the processor to start loading the cache line at `address` for reading, without
/// waiting for it: Swift has no such instruction of its own. A `TreeArray` iterator calls it on
/// the chunk after the one it reads, whose lines the hardware's prefetcher does not foresee (the
/// chunks are separate blocks, not one array). A hint only: it never faults, and does nothing
/// where the compiler has no prefetch.
static inline __attribute__((always_inline)) void treeArrayPrefetch(const void *_Nullable address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address, 0, 3);
#else
    (void)address;
#endif
}

#endif
