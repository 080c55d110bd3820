#include "CMallocShim.h"

#if defined(__linux__)
#include <malloc.h>
#endif

int cmalloc_settle_for_one_thread(void) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
    return mallopt(M_ARENA_MAX, 1) == 1 && mallopt(M_MMAP_THRESHOLD, 128 * 1024) == 1 &&
        mallopt(M_TRIM_THRESHOLD, 128 * 1024) == 1;
#else
    return 0;
#endif
}
