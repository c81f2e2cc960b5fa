#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A whitelist's bundle IDs, stored compactly: their bytes one after another in one buffer,
/// where each ends, and an open-addressing table of 8-byte slots.
///
/// A slot holds a 32-bit tag (the high half of the ID's ``TableHash``: keyed, over every byte)
/// and the entry's number plus one (0 marks a free slot). A probe compares tags, and
/// reads an entry's bytes only when the tags match; the slot a tag starts at is its low bits.
/// A million IDs of about 28 bytes take about 28 MB of bytes, 4 MB of ends and 16 MB of
/// slots, where one `String` and one 24-byte table entry per ID took about 200 MB.
///
/// The buffer may be a policy file's own bytes, with the IDs decoded over the text they were
/// read from (``PolicyJSON``): the whitelist then keeps that buffer instead of a copy. Immutable
/// once made, so every thread can read one list.
final class BundleIDList: Sendable {
    /// The buffer the IDs are in (the entries need not fill it).
    let bytes: [UInt8]
    /// Where entry 0 starts in ``bytes``.
    let start: Int
    /// Where each entry ends in ``bytes``: entry `i` is `bytes[(i == 0 ? start : ends[i - 1])..<ends[i]]`.
    let ends: [UInt32]
    /// The table: `tag << 32 | (entry + 1)`, or 0 for a free slot.
    let slots: [UInt64]
    let mask: Int
    /// The wrapping sum of the entries' ``TableHash``es (for an order-independent `hash(into:)`).
    let hashSum: UInt64

    /// The list of no IDs.
    static let empty = BundleIDList([BundleID]())

    /// A list over `bytes` from its parts (see ``index(_:start:ends:)``).
    init(bytes: [UInt8], start: Int, ends: [UInt32], table: Table) {
        self.bytes = bytes
        self.start = start
        self.ends = ends
        slots = table.slots
        mask = table.mask
        hashSum = table.hashSum
    }

    /// A list's table and the sum of its hashes.
    struct Table {
        let slots: [UInt64]
        let mask: Int
        let hashSum: UInt64
    }

    /// Indexes the entries of `buffer` that start at `start` and end at `ends`, keeping each
    /// spelling once, the first given: a repeat's bytes are dropped and the entries after it
    /// moved down over them (and `ends` updated), so the entries kept are again one after another.
    /// - Complexity: O(n) in the entries' total length.
    static func index(_ buffer: UnsafeMutableBufferPointer<UInt8>, start: Int, ends: inout [UInt32]) -> Table {
        index(buffer, start: start, ends: &ends, hashing: TableHash.self)
    }

    /// ``index(_:start:ends:)`` with another hash (tests give one whose tags all collide).
    static func index<Hashing: ByteHashing>(_ buffer: UnsafeMutableBufferPointer<UInt8>, start: Int, ends: inout [UInt32],
                                            hashing: Hashing.Type) -> Table {
        var capacity = 8
        while capacity < ends.count * 2 { capacity <<= 1 }
        var slots = [UInt64](repeating: 0, count: capacity)
        let mask = capacity - 1
        var sum: UInt64 = 0
        var kept = 0
        let count = ends.count
        ends.withUnsafeMutableBufferPointer { ends in
            slots.withUnsafeMutableBufferPointer { slots in
                var write = start
                var readStart = start
                for entry in 0..<count {
                    let readEnd = Int(ends[entry])
                    let key = UnsafeBufferPointer(rebasing: buffer[readStart..<readEnd])
                    let hash = Hashing.of(UnsafeRawBufferPointer(key))
                    let tag = UInt32(truncatingIfNeeded: hash >> 32)
                    var slot = Int(tag) & mask
                    var repeated = false
                    while slots[slot] != 0 {
                        let found = slots[slot]
                        if UInt32(truncatingIfNeeded: found >> 32) == tag {
                            let other = Int(UInt32(truncatingIfNeeded: found)) - 1
                            let otherStart = other == 0 ? start : Int(ends[other - 1])
                            if UnsafeBufferPointer(rebasing: buffer[otherStart..<Int(ends[other])]).sameBytes(as: key) {
                                repeated = true
                                break
                            }
                        }
                        slot = (slot + 1) & mask
                    }
                    if !repeated {
                        let length = readEnd - readStart
                        if write != readStart, length > 0 {
                            memmove(buffer.baseAddress! + write, buffer.baseAddress! + readStart, length)
                        }
                        write += length
                        ends[kept] = UInt32(write)
                        slots[slot] = UInt64(tag) << 32 | UInt64(kept + 1)
                        kept += 1
                        sum &+= hash
                    }
                    readStart = readEnd
                }
            }
        }
        if kept < count { ends.removeLast(count - kept) }
        return Table(slots: slots, mask: mask, hashSum: sum)
    }

    /// A list of `ids`, each kept once in the order first given, in a buffer of its own.
    convenience init<IDs: Sequence>(_ ids: IDs) where IDs.Element == BundleID {
        var bytes: [UInt8] = []
        var ends: [UInt32] = []
        for id in ids {
            bytes.append(contentsOf: id.rawValue.utf8)
            precondition(bytes.count <= Int(UInt32.max), "a whitelist of more than 4 GiB of bundle IDs")
            ends.append(UInt32(bytes.count))
        }
        let table = bytes.withUnsafeMutableBufferPointer { Self.index($0, start: 0, ends: &ends) }
        self.init(bytes: bytes, start: 0, ends: ends, table: table)
    }

    /// How many IDs.
    var count: Int { ends.count }

    /// Where entry `entry` is in ``bytes``.
    @inline(__always)
    func range(of entry: Int) -> Range<Int> {
        (entry == 0 ? start : Int(ends[entry - 1]))..<Int(ends[entry])
    }

    /// Whether the ID spelled `key`, whose ``TableHash`` is `hash`, is in the list.
    @inline(__always)
    func contains(_ key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Bool {
        let tag = UInt32(truncatingIfNeeded: hash >> 32)
        return slots.withUnsafeBufferPointer { slots in
            bytes.withUnsafeBufferPointer { bytes in
                ends.withUnsafeBufferPointer { ends in
                    var slot = Int(tag) & mask
                    while true {
                        let found = slots[slot]
                        if found == 0 { return false }
                        if UInt32(truncatingIfNeeded: found >> 32) == tag {
                            let entry = Int(UInt32(truncatingIfNeeded: found)) - 1
                            let entryStart = entry == 0 ? start : Int(ends[entry - 1])
                            if UnsafeBufferPointer(rebasing: bytes[entryStart..<Int(ends[entry])]).sameBytes(as: key) { return true }
                        }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
    }

    /// Whether `id` is in the list (hashing nothing: the ID carries its hash).
    @inline(__always)
    func contains(_ id: BundleID) -> Bool {
        let hash = id.storedHash
        if let found = id.rawValue.utf8.withContiguousStorageIfAvailable({ contains($0, hash: hash) }) { return found }
        return Array(id.rawValue.utf8).withUnsafeBufferPointer { contains($0, hash: hash) }
    }

    /// Whether `other`'s entry `entry` is in this list.
    func contains(entry: Int, of other: BundleIDList) -> Bool {
        other.bytes.withUnsafeBufferPointer { bytes in
            let key = UnsafeBufferPointer(rebasing: bytes[other.range(of: entry)])
            return contains(key, hash: TableHash.of(UnsafeRawBufferPointer(key)))
        }
    }

    /// Entry `entry` as a ``BundleID`` (its own string; the list holds only bytes).
    func id(_ entry: Int) -> BundleID {
        bytes.withUnsafeBufferPointer { BundleID(validBytes: UnsafeBufferPointer(rebasing: $0[range(of: entry)])) }
    }

    /// Every entry as a ``BundleID``, in order.
    var ids: [BundleID] { (0..<count).map(id) }

    /// The `count` smallest entries in byte order, in one pass over the bytes (no sort, no string per entry).
    /// - Complexity: O(n × count).
    func smallest(_ count: Int) -> [BundleID] {
        var kept: [Int] = []
        kept.reserveCapacity(count + 1)
        bytes.withUnsafeBufferPointer { bytes in
            func spelling(_ entry: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[range(of: entry)]) }
            for entry in 0..<self.count {
                let key = spelling(entry)
                guard kept.count < count || key.lexicographicallyPrecedes(spelling(kept[kept.count - 1])) else { continue }
                let position = kept.firstIndex { key.lexicographicallyPrecedes(spelling($0)) } ?? kept.count
                kept.insert(entry, at: position)
                if kept.count > count { kept.removeLast() }
            }
        }
        return kept.map(id)
    }
}
