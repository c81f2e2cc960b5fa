import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// A policy's whitelists read in place into compact storage (``BundleIDList``) against the
/// reading through a JSON tree: same policy, same errors, byte for byte.
@Suite("Policy load: whitelists read in place")
struct PolicyLoadTests {
    /// The policy (or error) through the tree: the reader's tree, then ``PolicyJSON/read(_:buildSettings:)``.
    static func throughTree(_ text: String) -> Result<PolicyInputs, FormatError> {
        do throws(FormatError) {
            let value: JSONValue
            do throws(JSONError) {
                value = try JSONReader().read(text)
            } catch {
                throw FormatError("not valid JSON: \(error.message)", at: error.position)
            }
            return .success(try PolicyJSON.read(value))
        } catch {
            return .failure(error)
        }
    }

    /// The policy (or error) read in place.
    static func inPlace(_ text: String) -> Result<PolicyInputs, FormatError> {
        var bytes = Array(text.utf8)
        do throws(FormatError) {
            return .success(try PolicyJSON.read(owning: &bytes))
        } catch {
            return .failure(error)
        }
    }

    static let documents: [String] = [
        #"{"openInPolicy": "whitelist", "openInWhitelist": ["com.a", "com.b"]}"#,
        #"{"openInPolicy": "whitelist", "openInWhitelist": []}"#,
        #"{"openInPolicy": "whitelist", "openInWhitelist": [ ]}"#,
        // Escapes and the IDs they spell, and escapes that spell an invalid ID.
        #"{"openInPolicy": "whitelist", "openInWhitelist": ["com.ex\u0061mple.a", "com\u002Eb", "c\/d"]}"#,
        #"{"openInPolicy": "whitelist", "openInWhitelist": ["com.\u00e9", "com.b"]}"#,
        #"{"openInPolicy": "whitelist", "openInWhitelist": ["com.a\ud83d\ude00"]}"#,
        // Non-ASCII before an error: columns count characters.
        "{\"openInPolicy\": \"whitelist\", \"openInWhitelist\": [\"com.é\", \"x\" 1]}",
        "{\"description\": \"ééé\", \"openInPolicy\": \"whitelist\", \"openInWhitelist\": [\"com.a\", \"bad id\"]}",
        // Not strings: the first non-string wins over an earlier invalid ID.
        #"{"openInPolicy": "whitelist", "openInWhitelist": ["com a", "com.b", 12, null]}"#,
        #"{"openInPolicy": "whitelist", "openInWhitelist": [true, "com a"]}"#,
        #"{"openInPolicy": "whitelist", "openInWhitelist": ["com.a", ["com.b"], {"x": 1}]}"#,
        #"{"openInPolicy": "whitelist", "openInWhitelist": ["com.a", -1.5e3]}"#,
        #"{"openInPolicy": "whitelist", "openInWhitelist": [""]}"#,
        // A syntax error anywhere comes before an invalid ID.
        #"{"openInPolicy": "whitelist", "openInWhitelist": ["com a"], "enforcing": tru}"#,
        #"{"openInPolicy": "whitelist", "openInWhitelist": ["com.a",]}"#,
        #"{"openInPolicy": "whitelist", "openInWhitelist": ["com.a" "com.b"]}"#,
        #"{"openInPolicy": "whitelist", "openInWhitelist": ["com.a", "com.b"#,
        "{\"openInPolicy\": \"whitelist\", \"openInWhitelist\": [\"com.a\n\"]}",
        #"{"openInPolicy": "whitelist", "openInWhitelist": ["com.a\x"]}"#,
        #"{"openInPolicy": "whitelist", "openInWhitelist": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["#,
        // Errors that come before the whitelist's, or after it.
        #"{"openInPolicy": "whitelist", "openInWhitelist": ["com a"], "bogus": 1}"#,
        #"{"openInWhitelist": ["com a"]}"#,
        #"{"openInPolicy": "appconnect", "openInWhitelist": ["com.a"]}"#,
        #"{"openInPolicy": "whitelist", "openInWhitelist": ["com.a"], "openInWhitelist": ["com.b"]}"#,
        #"{"openInPolicy": "whitelist", "openIn\u0057hitelist": ["com.a", "com.b", "com.a"]}"#,
        #"{"openInPolicy": "whitelist", "openInWhitelist": "com.a"}"#,
        // Open From, both lists in one buffer, and lists under other keys (read through the tree).
        #"{"openInPolicy": "whitelist", "openFromPolicy": "whitelist", "openFromWhitelist": ["com.c", "com.a", "com.c"], "openInWhitelist": ["com.a", "com.b"]}"#,
        #"{"openInPolicy": "whitelist", "openFromPolicy": "appconnect", "openFromWhitelist": ["com.c"]}"#,
        #"{"openInPolicy": "whitelist", "openFromPolicy": "whitelist", "openFromWhitelist": ["com.c", 7]}"#,
        #"{"openInPolicy": "whitelist", "device": {"openInWhitelist": ["com.a"]}}"#,
        #"{"openInPolicy": "appconnect", "device": {"appConnectApps": ["com.a", "com.a", "com b"]}}"#,
        #"{"openInPolicy": "whitelist", "app": {"urlSchemes": ["a"]}, "openInWhitelist": ["com.apple.UIKit.activity.Mail", "com.apple.mobilemail"]}"#,
    ]

    @Test(arguments: 0..<documents.count)
    func readsAsTheTreeDoes(case index: Int) {
        let text = Self.documents[index]
        let expected = Self.throughTree(text)
        let actual = Self.inPlace(text)
        #expect(actual == expected, "\(text)")
        if case .success(let policy) = actual, case .success(let tree) = expected {
            #expect(Array(policy.stated.whitelist) == Array(tree.stated.whitelist), "the same IDs in the same order")
            #expect(policy.stated.whitelist.containsMailPair == tree.stated.whitelist.containsMailPair)
        }
    }

    @Test func escapedIDsAreDecoded() throws {
        let inputs = try Self.inPlace(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.ex\u0061mple.a", "com\u002Eb", "com.example.a"]}"#).get()
        #expect(Array(inputs.stated.whitelist).map(\.rawValue) == ["com.example.a", "com.b"])
        #expect(inputs.stated.whitelist.contains(try BundleID("com.b")))
    }

    @Test func repeatsAreKeptOnceInTheOrderFirstGiven() throws {
        let text = #"{"openInPolicy": "whitelist", "openInWhitelist": ["b.b", "a.a", "b.b", "c.c", "a.a", "d.d", "c.c"]}"#
        let whitelist = try Self.inPlace(text).get().stated.whitelist
        #expect(Array(whitelist).map(\.rawValue) == ["b.b", "a.a", "c.c", "d.d"])
        #expect(whitelist.count == 4)
        let built = try Whitelist(parsing: ["b.b", "a.a", "b.b", "c.c", "a.a", "d.d", "c.c"])
        #expect(Array(built).map(\.rawValue) == ["b.b", "a.a", "c.c", "d.d"])
        #expect(built == whitelist)
        #expect(built.hashValue == whitelist.hashValue)
        for id in ["a.a", "b.b", "c.c", "d.d"] { #expect(whitelist.contains(try BundleID(id))) }
        #expect(!whitelist.contains(try BundleID("e.e")))
        #expect(!whitelist.contains(try BundleID("a.aa")))
        #expect(!whitelist.contains(try BundleID("a")))
    }

    @Test func anErrorInAHugeArrayIsAtItsLineAndColumn() {
        var lines = ["{", "  \"openInPolicy\": \"whitelist\",", "  \"openInWhitelist\": ["]
        let count = 200_000, bad = 150_001
        for index in 0..<count {
            let id = index == bad ? "com.example.bad id" : "com.example.app\(index)"
            lines.append("    \"\(id)\"\(index == count - 1 ? "" : ",")")
        }
        lines.append("  ]")
        lines.append("}")
        let text = lines.joined(separator: "\n")
        let expected = FormatError("openInWhitelist[\(bad)]: malformed bundle ID 'com.example.bad id': it contains a space",
                                   at: JSONPosition(line: 4 + bad, column: 5))
        #expect(Self.inPlace(text) == .failure(expected))
        #expect(Self.throughTree(text) == .failure(expected))
        // And a syntax error after the array still comes first.
        let broken = text.dropLast() + ", \"x\": }"
        #expect(Self.inPlace(String(broken)) == Self.throughTree(String(broken)))
    }

    @Test func theWhitelistKeepsTheFilesBufferNotACopy() throws {
        let text = #"{"openInPolicy": "whitelist", "openInWhitelist": ["com.a", "com.b"], "openFromPolicy": "whitelist", "openFromWhitelist": ["com.c"]}"#
        var bytes = Array(text.utf8)
        let address = bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let inputs = try PolicyJSON.read(owning: &bytes)
        let openIn = inputs.stated.whitelist.list, openFrom = try #require(inputs.stated.openFrom).whitelist.list
        #expect(openIn.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == address)
        #expect(openFrom.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == address)
        // The IDs were decoded over the text's start, one after another.
        #expect(Array(openIn.bytes[0..<15]) == Array("com.acom.bcom.c".utf8))
    }

    /// Every tag the same: the table still tells IDs apart by their bytes.
    enum CollidingHash: ByteHashing {
        static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 { 0xABCD_0000_0000_0001 }
    }

    @Test func collidingTagsAreToldApartByTheirBytes() {
        let ids = ["com.a", "com.b", "com.a", "com.bb", "com.b", "com.c"]
        var bytes: [UInt8] = Array(ids.joined().utf8)
        var ends: [UInt32] = []
        var end = 0
        for id in ids {
            end += id.utf8.count
            ends.append(UInt32(end))
        }
        let table = bytes.withUnsafeMutableBufferPointer { BundleIDList.index($0, start: 0, ends: &ends, hashing: CollidingHash.self) }
        let list = BundleIDList(bytes: bytes, start: 0, ends: ends, table: table)
        #expect(list.ids.map(\.rawValue) == ["com.a", "com.b", "com.bb", "com.c"])
        let hash = CollidingHash.of(UnsafeRawBufferPointer(start: nil, count: 0))
        for (id, present) in [("com.a", true), ("com.b", true), ("com.bb", true), ("com.c", true), ("com.d", false), ("com.", false)] {
            let found = Array(id.utf8).withUnsafeBufferPointer { list.contains($0, hash: hash) }
            #expect(found == present, "\(id)")
        }
    }

    @Test func theSmallestIDsAreChosenInByteOrder() throws {
        let whitelist = try Whitelist(parsing: ["com.z", "com.B", "com.a", "a.b", "com.Z", "b"])
        #expect(whitelist.firstIDs.map(\.rawValue) == ["a.b", "b", "com.B", "com.Z"])
        #expect(Whitelist.empty.firstIDs.isEmpty)
        #expect(Whitelist.empty.count == 0 && !Whitelist.empty.contains(.mobileMail))
    }

    @Test func theKeyedHashSpreadsCraftedIDs() {
        // Same length, same first and last eight bytes: an unkeyed hash of those would put them all together.
        var hashes = Set<UInt64>()
        for index in 0..<10_000 {
            hashes.insert(TableHash.of("com.example.a\(String(1_000_000 + index)).zzzzzzzz"))
        }
        #expect(hashes.count == 10_000)
        #expect(TableHash.of("com.a") == TableHash.of(String(decoding: Array("com.a".utf8), as: UTF8.self)))
        #expect(TableHash.of("") != 0)
    }

    /// Strings are scanned eight bytes at a time: a quote, an escape, a control byte or non-ASCII
    /// at every offset of strings of every length up to 20 is read as the tree reads it.
    @Test func everyOffsetOfASpecialByte() {
        let specials = ["\\u0041", "\\\"", "é", "\\/", "\t", "\\n", "x"]
        var checked = 0
        for length in 1...20 {
            for offset in 0..<length {
                for special in specials {
                    var id = String(repeating: "a", count: length)
                    id.insert(contentsOf: special, at: id.index(id.startIndex, offsetBy: offset))
                    let text = "{\"openInPolicy\": \"whitelist\", \"openInWhitelist\": [\"com.\(id)\", \"z.z\"], \"enforcing\": 1}"
                    #expect(Self.inPlace(text) == Self.throughTree(text), "\(text)")
                    let valid = "{\"openInPolicy\": \"whitelist\", \"openInWhitelist\": [\"com.\(id)\", \"z.z\"]}"
                    #expect(Self.inPlace(valid) == Self.throughTree(valid), "\(valid)")
                    checked += 2
                }
            }
        }
        #expect(checked == 2 * 7 * 210)
    }
}
