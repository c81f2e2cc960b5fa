import OpenInCheckCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

exit(CLI.main(arguments: Array(CommandLine.arguments.dropFirst())))
