#ifndef OPENIN_CHECK_ALLOCATION_COUNTING_H
#define OPENIN_CHECK_ALLOCATION_COUNTING_H

#include <stdint.h>

/// Starts counting Swift heap allocations in this process.
///
/// Every Swift heap object — class instances, the storage of arrays, strings,
/// sets and dictionaries, closure contexts, boxes — is allocated through the
/// Swift runtime's `swift_allocObject`, whose implementation is reached
/// through the hook `_swift_allocObject`. This installs a hook that counts,
/// then calls the original. Only `openin-check bench` uses it, around the
/// loops it measures; nothing else in the process changes.
void openin_allocation_counting_start(void);

/// Removes the hook and returns how many allocations it counted since the start.
uint64_t openin_allocation_counting_stop(void);

#endif
