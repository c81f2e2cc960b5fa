#ifndef OPENIN_CHECK_ALLOCATION_COUNTING_H
#define OPENIN_CHECK_ALLOCATION_COUNTING_H

#include <stdint.h>

/// Starts counting the Swift heap allocations this thread makes.
///
/// Every Swift heap object — class instances, the storage of arrays, strings,
/// sets and dictionaries, closure contexts, boxes — is allocated through the
/// Swift runtime's `swift_allocObject`, whose implementation is reached
/// through the hook `_swift_allocObject`. This installs a hook that counts
/// the calling thread's allocations (other threads pass uncounted), then
/// calls the original. Only `openin-check bench` uses it, around the loops it
/// measures, one counting at a time.
///
/// Count only while no other thread runs Swift code: when the runtime finds
/// its hook replaced it switches its retains and releases to an instrumented
/// path for a moment (see the .c file), and another thread retaining a small
/// string in that moment crashes. `bench` measures on its main thread with no
/// other thread started; the test suite, whose tests run in parallel, does not
/// count.
void openin_allocation_counting_start(void);

/// Removes the hook and returns how many allocations it counted since the start.
uint64_t openin_allocation_counting_stop(void);

#endif
