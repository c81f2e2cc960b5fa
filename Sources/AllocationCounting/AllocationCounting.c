#include "AllocationCounting.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/// The Swift runtime's allocation hook (libswiftCore exports it for instrumentation).
typedef void *(*AllocateObject)(void const *metadata, size_t size, size_t alignmentMask);
extern AllocateObject _swift_allocObject;

/// The runtime's switch for its instrumented retain and release paths (a `std::atomic<bool>`).
///
/// `swift_allocObject` turns it on when it finds its hook replaced. On Linux
/// the instrumented `swift_bridgeObjectRetain` then crashes on small strings
/// (it retains their inline bytes as a pointer), so the counting hook turns
/// the switch off again after every allocation: retains and releases stay on
/// their normal path, and only allocations pass through the hook.
extern _Atomic(bool) _swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly;

static AllocateObject original;
static _Atomic(uint64_t) counted;
/// Whether this thread is the one counting: other threads' allocations pass uncounted.
static _Thread_local bool countingHere;

static void *countingAllocate(void const *metadata, size_t size, size_t alignmentMask) {
    if (countingHere) {
        atomic_fetch_add_explicit(&counted, 1, memory_order_relaxed);
    }
    atomic_store_explicit(&_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly, false, memory_order_relaxed);
    return original(metadata, size, alignmentMask);
}

void openin_allocation_counting_start(void) {
    atomic_store(&counted, 0);
    countingHere = true;
    original = _swift_allocObject;
    _swift_allocObject = countingAllocate;
}

uint64_t openin_allocation_counting_stop(void) {
    _swift_allocObject = original;
    countingHere = false;
    atomic_store(&_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly, false);
    return atomic_load(&counted);
}
