import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInKit
import OpenInTestSupport

/// Issue 43: a large array of the root object read in parts across the cores, each element given to a reader as soon
/// as it is parsed (`JSONReader.read(_:mapping:_:)`, and the fleet's apps and container policies through it), is what
/// the whole read gives: the same elements at the same key paths and positions (within them too), the same rest of
/// the tree, and on a broken text the same first error. The threshold is set low so that small texts split.
@Suite struct JSONPartsTests {
    /// Every value of `value` with where it starts, members' keys too: the tree's equality leaves positions out.
    static func dump(_ value: JSONValue, at position: JSONPosition?, into text: inout String) {
        text += position.map { "@\($0.line):\($0.column) " } ?? "@- "
        switch value {
        case .array(let array):
            text += "["
            for index in array.indices { dump(array[index], at: array.position(at: index), into: &text) }
            text += "]"
        case .object(let object):
            text += "{"
            for member in object.members {
                text += "\(member.keyPosition.map { "\($0.line):\($0.column)" } ?? "-")\(JSONWriter.quoted(member.key)): "
                dump(member.value, at: member.valuePosition, into: &text)
            }
            text += "}"
        default:
            text += JSONWriter.compact(value) + " "
        }
    }

    static func dump(_ value: JSONValue, at position: JSONPosition? = nil) -> String {
        var text = ""
        dump(value, at: position, into: &text)
        return text
    }

    /// A random value: strings with escapes, non-ASCII characters of every UTF-8 length, numbers, literals, nesting.
    static func value(_ random: inout SplitMix64, depth: Int = 0) -> String {
        let space = random.pick(["", " ", "\n", "\r\n", "\t", "  \n    "])
        switch random.below(depth > 2 ? 4 : 6) {
        case 0: return random.pick(["true", "false", "null", "0", "-12.5e3", "42"])
        case 1, 2:
            let pieces = (0..<random.below(6)).map { _ in
                random.pick(["a", "com.acme.app", "é", "日本", "😀", "\\n", "\\u00e9", "\\\"", "\\\\", "\\ud83d\\ude00", "x y", "/"])
            }
            return "\"" + pieces.joined() + "\""
        case 3: return "\"com.bench.app0000\(random.below(10))-long-enough-to-share\""
        case 4:
            let elements = (0..<random.below(4)).map { _ in space + value(&random, depth: depth + 1) }
            return "[" + elements.joined(separator: ",") + space + "]"
        default:
            let members = (0..<random.below(4)).enumerated().map { index, _ in
                "\(space)\"k\(index)\(random.pick(["", "é", "😀"]))\"\(space): \(value(&random, depth: depth + 1))"
            }
            return "{" + members.joined(separator: ",") + space + "}"
        }
    }

    /// A document whose root object holds `items`, an array of `count` random values, between other members.
    static func document(_ random: inout SplitMix64, count: Int) -> String {
        let newline = random.pick(["\n", "\r\n", " "])
        let items = (0..<count).map { _ in value(&random) }.joined(separator: "," + random.pick(["", " ", newline, newline + "  "]))
        return (random.percent(20) ? "\u{FEFF}" : "")
            + "{\"head\": \(value(&random)),\(newline)\"items\": [\(newline)\(items)\(newline)],\(newline)\"tail\": \(value(&random))}\(newline)"
    }

    /// The whole read's tree and error, and the read in parts: its tree, each element as its reader saw it, and its error.
    static func reads(_ text: String) -> (whole: Result<JSONValue, JSONError>, parts: Result<(JSONValue, [String]?), JSONError>) {
        let bytes = Array(text.utf8)
        let whole = Result { () throws(JSONError) in try JSONReader().read(bytes) }
        var reader = JSONReader()
        reader.partsFrom = 64
        let parts = Result { () throws(JSONError) in
            let (value, mapped) = try reader.read(bytes, mapping: ["items"]) { key, cursor in
                "\(key) \(cursor.path) " + dump(cursor.value, at: cursor.position)
            }
            return (value, mapped[0])
        }
        return (whole, parts)
    }

    @Test("an array read in parts gives each element, its key path and its position (and those within it), and the rest of the tree, as the whole read does")
    func partsAreTheWholeRead() throws {
        var random = SplitMix64(seed: 0x7061_7274)
        var split = 0
        for round in 0..<Soak.size(300) {
            let text = Self.document(&random, count: 2 + random.below(40))
            let (whole, parts) = Self.reads(text)
            let tree = try whole.get()
            let (value, mapped) = try parts.get()
            guard case .object(let root) = tree, case .array(let items) = root.members[1].value else {
                Issue.record("round \(round): not the document made")
                continue
            }
            if let mapped {
                split += 1
                #expect(mapped == items.indices.map { "0 items[\($0)] " + Self.dump(items[$0], at: items.position(at: $0)) }, "round \(round)")
                // The tree holds null in the elements' places, their positions kept; the rest is the whole read's.
                let placeholder = JSONValue.array(JSONArray(elements: Array(repeating: .null, count: items.count), positions: items.positions))
                let expected = JSONValue.object(JSONObject(members: [root.members[0], .init(key: "items", value: placeholder, keyPosition: root.members[1].keyPosition,
                                                                                                   valuePosition: root.members[1].valuePosition), root.members[2]]))
                #expect(Self.dump(value) == Self.dump(expected), "round \(round)")
            } else {
                #expect(Self.dump(value) == Self.dump(tree), "round \(round)")
            }
        }
        // Most documents are read in parts (a short array or one part of it alone is not).
        #expect(split > Soak.size(300) / 2)
    }

    @Test("a broken text read in parts throws the error the whole read throws, wherever it is broken")
    func brokenTextsGiveTheWholeReadsError() throws {
        var random = SplitMix64(seed: 0x6272_6F6B)
        let breaks = ["", ",", "]", "}", "[", "{", "\"", "x", "\u{01}", "\n", "\\", ":", "é", ",]", "\"a\":"]
        var differing = 0
        for round in 0..<Soak.size(600) {
            var bytes = Array(Self.document(&random, count: 2 + random.below(30)).utf8)
            let at = random.below(bytes.count)
            bytes.replaceSubrange(at..<min(bytes.count, at + random.below(3)), with: Array(random.pick(breaks).utf8))
            let text = String(decoding: bytes, as: UTF8.self)
            guard String(validating: bytes, as: UTF8.self) != nil else { continue }
            let (whole, parts) = Self.reads(text)
            switch (whole, parts) {
            case (.failure(let expected), .failure(let error)):
                #expect(error.message == expected.message && error.position == expected.position, "round \(round): \(error) for \(expected)")
            case (.success(let tree), .success((let value, nil))):
                #expect(Self.dump(value) == Self.dump(tree), "round \(round)")
            case (.success, .success):
                differing += 0  // a break that leaves valid JSON is compared by the test above
            default:
                differing += 1
                Issue.record("round \(round): \(whole) against \(parts)")
            }
        }
        #expect(differing == 0)
    }

    /// Each container policy's and app's values and where each was read, as far as the fleet keeps it.
    static func sources(_ fleet: Fleet) -> [String] {
        var lines: [String] = []
        for policy in fleet.containerPolicies {
            let sources = policy.controls.sources
            lines.append("\(policy.name) \(policy.app) \(policy.labels) line \(policy.line ?? 0) \(sources.path) \(sources.line ?? 0)")
            for key in FleetJSON.containerKeys {
                if let source = sources.keys[key] { lines.append("  \(key) \(source.path) \(source.line ?? 0) \(source.text)") }
            }
            for list in ["openInWhitelist", "openFromWhitelist", FleetJSON.excludedActivitiesKey] {
                guard let entries = sources.entries[list] else { continue }
                for (id, source) in entries.withPaths.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                    lines.append("  \(list) \(id) \(source.path) \(source.line ?? 0)")
                }
            }
        }
        for app in fleet.apps {
            lines.append("app \(app.bundleID) \(app.appConnect) \(app.app.urlSchemes.sorted()) \(app.app.allowsCustomKeyboards) line \(app.sources.line ?? 0)")
            for key in FleetJSON.appKeys {
                if let source = app.sources.keys[key] { lines.append("  \(key) \(source.path) \(source.line ?? 0) \(source.text)") }
            }
        }
        return lines
    }

    @Test("random fleets: apps and container policies read as the text is parsed, in parts, are the fleet read whole, with every value's place")
    func randomFleetsReadInPartsAreReadWhole() throws {
        var random = SplitMix64(seed: 0x666C_6565)
        var split = (apps: 0, policies: 0)
        var reader = JSONReader()
        reader.partsFrom = 64
        for round in 0..<Soak.size(200) {
            let spec = FleetReferenceModelTests.randomSpec(&random, excluding: round % 2 == 0)
            let bytes = Array(FleetReferenceModelTests.json(spec).utf8)
            let mapped = try reader.read(bytes, mapping: ["apps", "containerPolicies"], { _, _ in 0 }).mapped
            if mapped[0] != nil { split.apps += 1 }
            if mapped[1] != nil { split.policies += 1 }
            let whole = try FleetJSON.read(bytes, file: "f.json", partsFrom: nil)
            let parts = try FleetJSON.read(bytes, file: "f.json", partsFrom: 64)
            #expect(Self.sources(parts) == Self.sources(whole), "round \(round)")
        }
        // The apps of every fleet are read in parts, and the policies of many (a list of one policy is not split).
        #expect(split.apps > Soak.size(200) * 3 / 4 && split.policies > Soak.size(200) / 4, "\(split)")
    }

    @Test("random fleets with a mistake in an app or a policy: the error read in parts is the whole read's (the first, as one loop meets it)")
    func fleetMistakesAreTheWholeReadsErrors() throws {
        var random = SplitMix64(seed: 0x6D69_7374)
        var failed = 0
        for round in 0..<Soak.size(300) {
            let spec = FleetReferenceModelTests.randomSpec(&random)
            var text = FleetReferenceModelTests.json(spec)
            // One or two mistakes, anywhere among the apps and the policies: each a problem the readers find.
            for _ in 0..<(1 + random.below(2)) {
                let mistakes: [(String, String)] = [
                    ("\"name\": \"", "\"name\": \"P0"), ("\"labels\": [", "\"labels\": [7, "), ("\"openInPolicy\": \"", "\"openInPolicy\": \"x"),
                    ("\"bundleID\": \"", "\"bundleID\": \"com bad "), ("\"appconnect\": ", "\"appconnect\": \"yes\", \"x\": "),
                    ("\"app\": \"", "\"app\": \"bad app "), ("\"openInWhitelist\": [", "\"openInWhitelist\": [\"not an id\", "),
                    ("\"urlSchemes\": [", "\"urlSchemes\": [3, "),
                ]
                let (find, replace) = random.pick(mistakes)
                let places = text.ranges(of: find)
                guard !places.isEmpty else { continue }
                text.replaceSubrange(random.pick(places), with: replace)
            }
            let bytes = Array(text.utf8)
            let whole = Result { () throws(FormatError) in try FleetJSON.read(bytes, file: "f.json", partsFrom: nil) }
            let parts = Result { () throws(FormatError) in try FleetJSON.read(bytes, file: "f.json", partsFrom: 64) }
            switch (whole, parts) {
            case (.failure(let expected), .failure(let error)):
                failed += 1
                #expect(error.description == expected.description, "round \(round)")
            case (.success(let expected), .success(let fleet)):
                #expect(Self.sources(fleet) == Self.sources(expected), "round \(round)")
            default:
                Issue.record("round \(round): \(whole) against \(parts)")
            }
        }
        #expect(failed > Soak.size(300) / 2)
    }
}
