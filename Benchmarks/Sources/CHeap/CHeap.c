#include "CHeap.h"

#if defined(__linux__)
#include <features.h>
#endif

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

bool cheap_is_supported(void) {
    return true;
}

size_t cheap_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

void cheap_release_free_memory(void) {
    malloc_trim(0);
}

#else

// No mallinfo2 (macOS, musl, older glibc): memory figures are reported as unsupported.
bool cheap_is_supported(void) {
    return false;
}

size_t cheap_heap_in_use(void) {
    return 0;
}

void cheap_release_free_memory(void) {
}

#endif
