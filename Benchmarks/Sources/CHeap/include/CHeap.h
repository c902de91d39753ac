#ifndef CHEAP_H
#define CHEAP_H

#include <stdbool.h>
#include <stddef.h>

/// Whether `cheap_heap_in_use` measures anything on this platform: glibc 2.33 or later,
/// where `mallinfo2()` exists. Elsewhere (macOS, musl) it returns 0.
bool cheap_is_supported(void);

/// Bytes of heap currently allocated by the process, from glibc's `mallinfo2()`:
/// `uordblks` (chunks in use in all arenas) plus `hblkhd` (chunks served by `mmap`).
/// `hblkhd` is needed because glibc hands allocations above its mmap threshold (128 KiB at
/// first, e.g. the item buffer of a 10,000-item array) to `mmap`, and `uordblks` never sees
/// them. Freed memory is not counted, so garbage that was released does not show.
size_t cheap_heap_in_use(void);

/// Gives the pages of freed heap memory back to the system (glibc's `malloc_trim(0)`), so
/// that the resident size is what is in use; does nothing where `cheap_is_supported()` is
/// false.
void cheap_release_free_memory(void);

#endif
