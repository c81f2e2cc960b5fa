import Foundation
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing

/// Work and memory bounded by the input: binary objects decoded once per offset, the depth
/// checked on every edge (shared objects included), no recursion deeper than a small stack holds.
@Suite struct PropertyListBoundsTests {
    /// A binary plist with 4-byte references and offsets, objects in order.
    static func binary(_ objects: [[UInt8]], top: Int = 0) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        return finish(bytes, offsets: offsets, top: top)
    }

    /// Appends the offset table and trailer for `offsets` (4 bytes each) to `bytes`.
    static func finish(_ body: [UInt8], offsets: [Int], top: Int) -> [UInt8] {
        var bytes = body
        let tableStart = bytes.count
        for offset in offsets { bytes += be(offset, 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 4] + be(offsets.count, 8) + be(top, 8) + be(tableStart, 8)
        return bytes
    }

    static func be(_ value: Int, _ size: Int) -> [UInt8] { (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    /// An array's marker and length, then 4-byte references.
    static func array(_ references: [Int]) -> [UInt8] {
        let count = references.count
        let header: [UInt8] = count < 15 ? [0xA0 | UInt8(count)] : [0xAF, 0x12] + be(count, 4)
        return header + references.flatMap { be($0, 4) }
    }

    static func ascii(_ text: String) -> [UInt8] {
        let count = text.utf8.count
        return (count < 15 ? [0x50 | UInt8(count)] : [0x5F, 0x12] + be(count, 4)) + Array(text.utf8)
    }

    /// `levels` arrays, each holding the next; the innermost is empty.
    static func nestedBinary(_ levels: Int) -> [UInt8] {
        binary((0..<levels).map { $0 == levels - 1 ? array([]) : array([$0 + 1]) })
    }

    static func nestedXML(_ levels: Int, emptyInnermost: Bool) -> [UInt8] {
        let open = String(repeating: "<array>", count: emptyInnermost ? levels - 1 : levels)
        let close = String(repeating: "</array>", count: emptyInnermost ? levels - 1 : levels)
        return Array(("<plist>" + open + (emptyInnermost ? "<array/>" : "") + close + "</plist>").utf8)
    }

    static func isTooDeep(_ error: any Error) -> Bool {
        guard let error = error as? FormatError else { return false }
        return error.message == "not a valid binary property list: arrays and dictionaries nest deeper than 512 levels"
            || error.message == "not a valid property list (XML or binary): too many nested arrays or dictionaries, failing on line 1"
    }

    /// 512 nested arrays are read and 513 refused, in both formats, an empty innermost array included.
    @Test func depthIs512OnBothSidesInBothFormats() throws {
        for bytes in [Self.nestedBinary(512), Self.nestedXML(512, emptyInnermost: true), Self.nestedXML(512, emptyInnermost: false)] {
            _ = try PropertyList.read(bytes)
        }
        for bytes in [Self.nestedBinary(513), Self.nestedXML(513, emptyInnermost: true), Self.nestedXML(513, emptyInnermost: false)] {
            #expect(throws: (any Error).self) { _ = try PropertyList.read(bytes) }
            #expect(Result { try PropertyList.read(bytes) }.failure.map(Self.isTooDeep) == true)
        }
        // CoreFoundation reads 512 and refuses 514; 513 (which it reads when the innermost is empty) we refuse, stricter.
        #expect(CoreFoundationOracle.shape(Self.nestedBinary(512)) != nil)
        #expect(CoreFoundationOracle.shape(Self.nestedBinary(514)) == nil)
        #expect(CoreFoundationOracle.shape(Self.nestedXML(513, emptyInnermost: false)) == nil)
    }

    /// Chains of arrays first met shallow and reused deeper: the depth counts from where an object is used.
    @Test func aSharedChainIsCheckedWhereItIsUsed() {
        // Object 0 holds the heads of 3 chains of 200 arrays; chain i's last array holds chain i-1's head.
        let chains = 3, length = 200
        var objects: [[UInt8]] = [Self.array((0..<chains).map { 1 + $0 * length })]
        for chain in 0..<chains {
            for link in 0..<length {
                let me = 1 + chain * length + link
                objects.append(link < length - 1 ? Self.array([me + 1]) : Self.array(chain > 0 ? [1 + (chain - 1) * length] : []))
            }
        }
        let bytes = Self.binary(objects)
        #expect(throws: (any Error).self) { _ = try PropertyList.read(bytes) }
        #expect(Result { try PropertyList.read(bytes) }.failure.map(Self.isTooDeep) == true)
        // Two chains nest 401 levels: read.
        let two = Self.binary([Self.array([1, 1 + length])] + (0..<2).flatMap { chain in
            (0..<length).map { link -> [UInt8] in
                let me = 1 + chain * length + link
                return link < length - 1 ? Self.array([me + 1]) : Self.array(chain > 0 ? [1] : [])
            }
        })
        #expect((try? PropertyList.read(two)) != nil)
    }

    /// One string used 50,000 times is decoded once: every use shares its storage.
    @Test func aSharedStringIsDecodedOnce() throws {
        let text = String(repeating: "A", count: 10_000)
        let bytes = Self.binary([Self.array(Array(repeating: 1, count: 50_000)), Self.ascii(text)])
        guard case .array(let elements) = try PropertyList.read(bytes), case .string(var first) = elements.first, case .string(var last) = elements.last else {
            Issue.record("not an array of strings")
            return
        }
        #expect(elements.count == 50_000)
        #expect(first == text)
        let firstAddress = first.withUTF8 { UInt(bitPattern: $0.baseAddress) }
        let lastAddress = last.withUTF8 { UInt(bitPattern: $0.baseAddress) }
        #expect(firstAddress == lastAddress)
    }

    /// Many offset-table entries naming one offset are one object, decoded once.
    @Test func objectsAtOneOffsetAreDecodedOnce() throws {
        let text = String(repeating: "B", count: 5_000)
        var body = Array("bplist00".utf8)
        let arrayOffset = body.count
        body += Self.array(Array(1...1_000))
        let stringOffset = body.count
        body += Self.ascii(text)
        let bytes = Self.finish(body, offsets: [arrayOffset] + Array(repeating: stringOffset, count: 1_000), top: 0)
        guard case .array(let elements) = try PropertyList.read(bytes), case .string(var first) = elements.first, case .string(var last) = elements.last else {
            Issue.record("not an array of strings")
            return
        }
        #expect(first.withUTF8 { UInt(bitPattern: $0.baseAddress) } == last.withUTF8 { UInt(bitPattern: $0.baseAddress) })
        #expect(CoreFoundationOracle.disagreement(bytes) == nil)
    }

    /// Strings that overlap (each offset inside another's body starts a string nearly as long) would decode
    /// to far more than the file: refused.
    @Test func overlappingObjectsAreRefused() {
        let length = 4_000
        var body = Array("bplist00".utf8)
        let arrayOffset = body.count
        body += Self.array(Array(1...length / 8))
        let stringsStart = body.count
        // Each 8 bytes: a string marker with a 4-byte length, then the rest of the text.
        for index in 0..<(length / 8) {
            body += [0x5F, 0x12] + Self.be(length - 8 * index - 6, 4) + Array("CCCCCCCC".utf8).prefix(2)
        }
        body += Array(repeating: UInt8(ascii: "C"), count: 8)
        let offsets = [arrayOffset] + (0..<(length / 8)).map { stringsStart + 8 * $0 }
        let bytes = Self.finish(body, offsets: offsets, top: 0)
        #expect {
            _ = try PropertyList.read(bytes)
        } throws: { error in
            (error as? FormatError)?.message == "not a valid binary property list: its objects overlap: decoded, they would be larger than the file (objects decoded over and over)"
        }
    }

    /// The readers run on a thread with a 256 KiB stack (an app's secondary thread) at the deepest nesting they accept.
    @Test func theDeepestTreesReadOnASmallStack() {
        let inputs = [Self.nestedBinary(512), Self.nestedXML(512, emptyInnermost: false), Self.nestedBinary(513), HostilePlistTests.deepXML]
        final class Results: @unchecked Sendable { var read: [Bool] = [] }
        let results = Results()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            // Written on the thread, read after the semaphore: no overlap.
            for bytes in inputs { results.read.append((try? PropertyList.read(bytes)) != nil) }
            done.signal()
        }
        thread.stackSize = 256 * 1024
        thread.start()
        done.wait()
        #expect(results.read == [true, true, false, false])
    }
}

private extension Result where Failure == any Error {
    var failure: (any Error)? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
