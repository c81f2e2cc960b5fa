#include "AllocatorTuning.h"

#include <stdlib.h>  // defines __GLIBC__ under glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void openin_check_tune_allocator(void) {
#if defined(__GLIBC__)
    // glibc gives memory back whenever the top of its heap is free by more than 128 KiB, and takes it again a page at a
    // time, each page through a fault and zeroed. A fleet's reading, resolution and graph free and make tens of
    // megabytes in turn: kept, those pages are reused. The peak stays what the work needs.
    mallopt(M_TOP_PAD, 64 << 20);
#endif
}
