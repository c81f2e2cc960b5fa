import Foundation
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing

/// Our readers against CoreFoundation's (``CoreFoundationOracle``) on generated and mutated
/// XML and binary property lists: where both read, the trees are equal; where only we read,
/// the test fails (we would decide under a file no device loads). Bounded: a fixed number of
/// inputs from a fixed seed, a few seconds. The `plist-oracle` fuzz target runs the same
/// comparison for as long as it is given (`.ci/fuzz.sh plist-oracle SECONDS`).
@Suite struct CoreFoundationDifferentialTests {
    /// Inputs per format: 8,000 in `swift test` (about a second each); `OPENIN_DIFFERENTIAL_INPUTS` asks for a longer run.
    static let inputs = ProcessInfo.processInfo.environment["OPENIN_DIFFERENTIAL_INPUTS"].flatMap { Int($0) }.map { max($0, 8_000) } ?? 8_000

    /// Pieces that change how a reader splits XML: tag ends, quotes, comments, processing
    /// instructions, CDATA, references, empty tags, encodings, and the elements themselves.
    static let tokens = [">", "<", "\"", "'", "/", "/>", " ", "\n", "\r", "\t", "<!---->", "<!-- c -->", "<!--", "-->", "<?>", "<?x?>", "?>",
                         "<![CDATA[", "]]>", "<![CDATA[x]]>", "&", "&amp;", "&lt;", "&#65;", "&#x41;", "&#0;", "&#xD800;", "&#123456789;",
                         "&quot;", "&bogus;", "<!DOCTYPE plist>", "<!DOCTYPE plist [", "]>", "<!ENTITY", "a=\">\"", " a=\"x\"",
                         "<key>", "</key>", "<string>", "</string>", "<true/>", "<false/>", "<true>", "</true>", "<dict>", "</dict>", "<dict/>",
                         "<array>", "</array>", "<array/>", "<integer>", "</integer>", "<real>", "</real>", "<data>", "</data>", "<date>", "</date>",
                         "<plist>", "</plist>", "<key>CF$UID</key><integer>1</integer>", "MI_AC_DISABLE_SCHEME_BLOCKING", "MI_APP_CONNECT",
                         "\u{212A}", "\u{FEFF}", "\u{0}", "\u{202E}", "é", "e\u{301}", "0x", "-", "+", "1e5", ".5", "nan", "inf", "0x1p3", "99999999999999999999",
                         "9223372036854775808", "-9223372036854775808", "<?xml version=\"1.0\" encoding=\"UTF-16\"?>", "<?xml version=\"1.0\" encoding=\"utf-8\"?>"]

    /// Well-formed XML that exercises every element, with the forms editors write.
    static func xmlSeeds() -> [[UInt8]] {
        var seeds = PropertyListReaderTests.handWritten.map { Array($0.utf8) }
        seeds += CoreFoundationParityTests.cases.map(\.bytes)
        seeds.append(Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>MI_APP_CONNECT</key>
            \t<dict>
            \t\t<key>MI_AC_DISABLE_SCHEME_BLOCKING</key>
            \t\t<true/>
            \t</dict>
            \t<key>CFBundleURLTypes</key>
            \t<array><dict><key>CFBundleURLSchemes</key><array><string>notes</string></array></dict></array>
            \t<key>n</key><array><integer>-12</integer><integer>0x1F</integer><real>2.5e3</real><real>-.5</real><real>INF</real></array>
            \t<key>d</key><date>2024-01-02T03:04:05Z</date><key>b</key><data>AAEC AwQ=</data>
            </dict>
            </plist>
            """.utf8))
        return seeds
    }

    /// One mutation of `bytes`: a token inserted, bytes deleted or duplicated, a byte changed, or the end cut.
    static func mutate(_ bytes: [UInt8], _ random: inout SplitMix64, tokens: [String]) -> [UInt8] {
        var bytes = bytes
        let position = bytes.isEmpty ? 0 : random.below(bytes.count + 1)
        switch random.below(6) {
        case 0, 1: bytes.insert(contentsOf: Array(random.pick(tokens).utf8), at: position)
        case 2:
            let length = min(random.below(8) + 1, bytes.count - min(position, bytes.count))
            bytes.removeSubrange(min(position, bytes.count)..<min(position, bytes.count) + length)
        case 3:
            guard position < bytes.count else { break }
            bytes[position] = random.pick([UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "\""), UInt8(ascii: "-"),
                                           UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: "&"), 0, 0xFF, UInt8(truncatingIfNeeded: random.next())])
        case 4:
            let length = min(random.below(24) + 1, bytes.count - min(position, bytes.count))
            let slice = bytes[min(position, bytes.count)..<min(position, bytes.count) + length]
            bytes.insert(contentsOf: slice, at: random.below(bytes.count + 1))
        default:
            bytes.removeLast(min(random.below(4), bytes.count))
        }
        return bytes
    }

    /// Binary lists written by Foundation, then mutated byte by byte (markers, lengths, references, the trailer).
    static func binarySeeds(_ random: inout SplitMix64) throws -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        for _ in 0..<40 {
            let tree = PropertyListReaderTests.Tree.dictionary([("root", PropertyListReaderTests.tree(&random, depth: 0))])
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            seeds.append(Array(try encoder.encode(tree)))
        }
        let examples = BuiltBinaryRoot.url.appendingPathComponent("Examples/Info-binary.plist")
        if let data = try? Data(contentsOf: examples) { seeds.append(Array(data)) }
        return seeds
    }

    static func mutateBinary(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        for _ in 0...random.below(3) {
            let position = random.percent(30) ? max(0, bytes.count - 32 + random.below(32)) : random.below(bytes.count)
            guard position < bytes.count else { continue }
            bytes[position] = random.pick([0x00, 0x01, 0x08, 0x09, 0x0F, 0x10, 0x13, 0x14, 0x23, 0x33, 0x40, 0x5F, 0x6F, 0x80, 0xA1, 0xAF, 0xD1, 0xDF,
                                           bytes[position] ^ (1 << UInt8(random.below(8))), UInt8(truncatingIfNeeded: random.next())])
        }
        return bytes
    }

    @Test func mutatedXMLIsReadAsCoreFoundationReadsItOrRefused() {
        var random = SplitMix64(seed: 24)
        let seeds = Self.xmlSeeds()
        var failures: [String] = []
        var bothRead = 0
        for _ in 0..<Self.inputs {
            var bytes = random.pick(seeds)
            for _ in 0...random.below(3) { bytes = Self.mutate(bytes, &random, tokens: Self.tokens) }
            if let problem = CoreFoundationOracle.disagreement(bytes) {
                failures.append("\(String(decoding: bytes, as: UTF8.self).debugDescription): \(problem)")
            } else if case .success = CoreFoundationOracle.ours(bytes) {
                bothRead += 1
            }
        }
        #expect(failures.isEmpty, "\(failures.count) disagreements, first: \(failures.prefix(3).joined(separator: "\n"))")
        // The mutations leave many files readable: the comparison compares something.
        #expect(bothRead > 100, "\(bothRead)")
    }

    @Test func mutatedBinaryIsReadAsCoreFoundationReadsItOrRefused() throws {
        var random = SplitMix64(seed: 2024)
        let seeds = try Self.binarySeeds(&random)
        var failures: [String] = []
        var bothRead = 0
        for _ in 0..<Self.inputs {
            let bytes = Self.mutateBinary(random.pick(seeds), &random)
            if let problem = CoreFoundationOracle.disagreement(bytes) {
                failures.append("\(bytes): \(problem)")
            } else if case .success = CoreFoundationOracle.ours(bytes) {
                bothRead += 1
            }
        }
        #expect(failures.isEmpty, "\(failures.count) disagreements, first: \(failures.prefix(3).joined(separator: "\n"))")
        #expect(bothRead > 300, "\(bothRead)")
    }

    /// Generated trees, written by Foundation in both formats and in XML with our own spacing: equal trees.
    @Test func generatedTreesReadAlike() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let tree = PropertyListReaderTests.Tree.dictionary([("root", PropertyListReaderTests.tree(&random, depth: 0))])
            for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
                let encoder = PropertyListEncoder()
                encoder.outputFormat = format
                let bytes = Array(try encoder.encode(tree))
                #expect(CoreFoundationOracle.disagreement(bytes) == nil)
                #expect(CoreFoundationOracle.shape(bytes) != nil)
            }
        }
    }
}

/// The package's root (two folders above this file's folder).
enum BuiltBinaryRoot {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
