/// The exit statuses of the CLI (`CommandLine.md` of the `OpenInPolicy` documentation, "Exit status"): scripts branch on these.
enum ExitStatus: Int32, Sendable, Equatable {
    /// Every decision is `allow` (or the verb printed what was asked: help, version, a matrix).
    case success = 0
    /// Some input is invalid: a file that cannot be read or parsed, or an invalid request.
    case invalidInput = 1
    /// Every input was valid and some decision is not `allow`.
    case notAllowed = 2
    /// The command line cannot be understood: unknown verb or option, missing or malformed option value.
    case usage = 64
    /// Standard output was closed before everything was written (`… | head -1`):
    /// 128 + SIGPIPE, the status a shell reports when SIGPIPE ends a process.
    case outputClosed = 141
}
