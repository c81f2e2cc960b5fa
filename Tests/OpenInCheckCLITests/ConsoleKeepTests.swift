import Testing
@testable import OpenInCheckCLI

/// What a verb hands its console to keep (``Console/keepUntilExit(_:)``): the process's console returns it by
/// exiting; a console in memory keeps it as long as itself and frees it with itself, so tests leak nothing.
@Suite struct ConsoleKeepTests {
    final class Kept {}

    @Test("a console in memory keeps what it is given while it lives, and frees it with itself")
    func memoryConsoleFreesWhatItKeeps() {
        weak var watched: Kept?
        do {
            let console = Console.memory()
            do {
                let value = Kept()
                watched = value
                console.keepUntilExit(value)
            }
            #expect(watched != nil)
            withExtendedLifetime(console) {}
        }
        #expect(watched == nil)
    }
}
