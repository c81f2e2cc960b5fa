import Foundation
import Testing

/// The installed binary links no `_StringProcessing`: the standard library's `contains(_:)` on strings,
/// `replacing(_:with:)`, `firstRange(of:)`, `split` on a string separator and regular expressions live there,
/// and one call links the whole regular-expression parser (about 1 MB of the stripped binary). They also
/// compare characters, where the library compares bytes: `ExactText.contains` is the library's search.
@Suite struct StringProcessingTests {
    /// The modules linked into `openin-check`, by source folder.
    static let installed = [
        "OpenInKit", "OpenInCore", "OpenInFleet", "OpenInAppConnect", "OpenInIntune", "OpenInVendors", "OpenInPolicy", "OpenInReports",
        "AppConnectRuntime", "OpenInCheckCLI", "openin-check",
    ]

    /// The folder that holds each module's object files: beside the running test bundle, or the package's debug build.
    static func buildFolder() -> URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: beside.appendingPathComponent("OpenInKit.build").path) { return beside }
        return LayersTests.root.appendingPathComponent(".build/debug")
    }

    @Test("no source of the installed binary calls into _StringProcessing (read from the compiled object files)")
    func noStringProcessing() throws {
        let build = Self.buildFolder()
        let mangled = [Array("17_StringProcessing".utf8), Array("12_RegexParser".utf8)]
        var checked = 0
        for module in Self.installed {
            let objects = build.appendingPathComponent(module.replacingOccurrences(of: "-", with: "_") + ".build")
            for (path, _) in try LayersTests.sources(module) {
                let file = objects.appendingPathComponent((path as NSString).lastPathComponent + ".o")
                let bytes = try #require(FileManager.default.contents(atPath: file.path), "no object file \(file.path): build with `swift build --build-tests`")
                checked += 1
                for name in mangled where Self.holds(Array(bytes), name) {
                    Issue.record("\(path) calls into \(String(decoding: name.dropFirst(2), as: UTF8.self)): use ExactText.contains or a byte loop instead")
                }
            }
        }
        #expect(checked > 200, "only \(checked) object files were read")
    }

    /// Whether `bytes` hold `needle` (the object file's symbol names are plain bytes).
    static func holds(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var index = 0
        while index <= bytes.count - needle.count {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
