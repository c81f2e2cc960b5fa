import OpenInCheckBench

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

exit(BenchCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
