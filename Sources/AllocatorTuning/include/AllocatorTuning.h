#ifndef OPENIN_CHECK_ALLOCATOR_TUNING_H
#define OPENIN_CHECK_ALLOCATOR_TUNING_H

/// Asks the C allocator, where it is glibc's, to keep up to 64 MiB of freed memory above the top of its heap
/// rather than give it back to the system at once. Does nothing with other allocators. Call it once, first.
void openin_check_tune_allocator(void);

#endif
