import AllocatorTuning
import OpenInCheckCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Freed memory kept for reuse, not returned and faulted in again (Performance.md, "The allocator keeps what it frees").
openin_check_tune_allocator()
exit(CLI.main(arguments: Array(CommandLine.arguments.dropFirst())))
