// libFuzzer target: the Markdown decision table parser and runner.
// Run: .ci/fuzz.sh tables [SECONDS]
//
// Besides crashes it checks: every parsed row points at a line of the text,
// ids are unique, and running a row never traps.
import OpenInPolicy

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
    let cases: [TableCase]
    do throws(TableError) {
        cases = try DecisionTables.parse(text, file: "fuzz.md")
    } catch {
        check((1...lineCount).contains(error.line ?? 0), "an error on line \(error.line ?? 0) of \(lineCount)")
        return 0
    }
    check(Set(cases.map(\.id)).count == cases.count, "two rows share an id")
    for tableCase in cases {
        check(tableCase.line >= 1 && tableCase.line <= lineCount, "a row on line \(tableCase.line) of \(lineCount)")
        _ = DecisionTables.run(tableCase).failureMessage
    }
    return 0
}
