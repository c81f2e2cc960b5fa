#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OpenInCore
import OpenInFleet
import OpenInKit

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
package final class BundleIDList: @unchecked Sendable {  // immutable once made; its slot memory is read only
    /// The buffer the IDs are in (the entries need not fill it).
    package let bytes: [UInt8]
    /// Where entry 0 starts in ``bytes``.
    package let start: Int
    /// Where each entry ends in ``bytes``: entry `i` is `bytes[(i == 0 ? start : ends[i - 1])..<ends[i]]`.
    package let ends: [UInt32]
    /// The table: `tag << 32 | (entry + 1)`, or 0 for a free slot.
    let slots: UnsafePointer<UInt64>
    /// The memory of ``slots``, which this list keeps.
    private let slotMemory: SlotMemory
    package let mask: Int
    /// The wrapping sum of the entries' ``TableHash``es (for an order-independent `hash(into:)`).
    let hashSum: UInt64

    /// The list of no IDs.
    package static let empty = BundleIDList([BundleID]())

    /// A list over `bytes` from its parts (see ``index(_:start:ends:)``).
    package init(bytes: [UInt8], start: Int, ends: [UInt32], table: Table) {
        self.bytes = bytes
        self.start = start
        self.ends = ends
        slots = UnsafePointer(table.slots.base)
        slotMemory = table.slots
        mask = table.mask
        hashSum = table.hashSum
    }

    /// A list's table and the sum of its hashes.
    package struct Table {
        let slots: SlotMemory
        package let mask: Int
        let hashSum: UInt64
    }

    /// Indexes the entries of `buffer` that start at `start` and end at `ends`, keeping each
    /// spelling once, the first given: a repeat's bytes are dropped and the entries after it
    /// moved down over them (and `ends` updated), so the entries kept are again one after another.
    /// - Complexity: O(n) in the entries' total length.
    package static func index(_ buffer: UnsafeMutableBufferPointer<UInt8>, start: Int, ends: inout [UInt32]) -> Table {
        // TableHash's code inlined here: through the protocol, each ID's hash was a call into another module.
        index(buffer, start: start, ends: &ends, hash: { TableHash.of($0) })
    }

    /// ``index(_:start:ends:)`` with another hash (tests give one whose tags all collide).
    package static func index<Hashing: ByteHashing>(_ buffer: UnsafeMutableBufferPointer<UInt8>, start: Int, ends: inout [UInt32],
                                            hashing: Hashing.Type) -> Table {
        index(buffer, start: start, ends: &ends, hash: { Hashing.of($0) })
    }

    /// The indexing of ``index(_:start:ends:)``, with `hash` inlined at each caller.
    @inline(__always)
    private static func index(_ buffer: UnsafeMutableBufferPointer<UInt8>, start: Int, ends: inout [UInt32],
                              hash hashOf: (UnsafeRawBufferPointer) -> UInt64) -> Table {
        var capacity = 8
        while capacity < ends.count * 2 { capacity <<= 1 }
        let memory = SlotMemory(count: capacity)
        let slots = UnsafeMutableBufferPointer(start: memory.base, count: capacity)
        let mask = capacity - 1
        var sum: UInt64 = 0
        var kept = 0
        let count = ends.count
        ends.withUnsafeMutableBufferPointer { ends in
            do {
                var write = start
                var readStart = start
                for entry in 0..<count {
                    let readEnd = Int(ends[entry])
                    let key = UnsafeBufferPointer(rebasing: buffer[readStart..<readEnd])
                    let hash = hashOf(UnsafeRawBufferPointer(key))
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
        return Table(slots: memory, mask: mask, hashSum: sum)
    }

    /// A list of `ids`, each kept once in the order first given, in a buffer of its own.
    package convenience init<IDs: Sequence>(_ ids: IDs) where IDs.Element == BundleID {
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
    package var count: Int { ends.count }

    /// Where entry `entry` is in ``bytes``.
    @inline(__always)
    func range(of entry: Int) -> Range<Int> {
        (entry == 0 ? start : Int(ends[entry - 1]))..<Int(ends[entry])
    }

    /// Whether the ID spelled `key`, whose ``TableHash`` is `hash`, is in the list.
    @inline(__always)
    package func contains(_ key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Bool {
        let tag = UInt32(truncatingIfNeeded: hash >> 32)
        do {
            return bytes.withUnsafeBufferPointer { bytes in
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
    package func contains(_ id: BundleID) -> Bool {
        let hash = id.storedHash
        if let found = id.rawValue.utf8.withContiguousStorageIfAvailable({ contains($0, hash: hash) }) { return found }
        return Array(id.rawValue.utf8).withUnsafeBufferPointer { contains($0, hash: hash) }
    }

    /// Whether `other`'s entry `entry` is in this list.
    package func contains(entry: Int, of other: BundleIDList) -> Bool {
        other.bytes.withUnsafeBufferPointer { bytes in
            let key = UnsafeBufferPointer(rebasing: bytes[other.range(of: entry)])
            return contains(key, hash: TableHash.of(UnsafeRawBufferPointer(key)))
        }
    }

    /// Entry `entry` as a ``BundleID`` (its own string; the list holds only bytes).
    package func id(_ entry: Int) -> BundleID {
        bytes.withUnsafeBufferPointer { BundleID(validBytes: UnsafeBufferPointer(rebasing: $0[range(of: entry)])) }
    }

    /// Every entry as a ``BundleID``, in order.
    package var ids: [BundleID] { (0..<count).map(id) }

    /// Whether `left` comes before `right` in byte order (a shorter prefix first), as ``BundleID``'s `<`.
    @inline(__always)
    static func precedes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool { BundleID.precedes(left, right) }

    /// The `count` smallest entries in byte order, in one pass over the bytes (no sort, no string per entry).
    /// - Complexity: O(n × count).
    package func smallest(_ count: Int) -> [BundleID] {
        // Entry numbers as UInt32, the type of `ends` (no other array type to make at start-up).
        var kept: [UInt32] = []
        kept.reserveCapacity(count + 1)
        bytes.withUnsafeBufferPointer { bytes in
            func spelling(_ entry: UInt32) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[range(of: Int(entry))]) }
            for entry in 0..<UInt32(self.count) {
                let key = spelling(entry)
                guard kept.count < count || Self.precedes(key, spelling(kept[kept.count - 1])) else { continue }
                let position = kept.firstIndex { Self.precedes(key, spelling($0)) } ?? kept.count
                kept.insert(entry, at: position)
                if kept.count > count { kept.removeLast() }
            }
        }
        var ids: [BundleID] = []
        for entry in kept { ids.append(id(Int(entry))) }
        return ids
    }
}

/// A table's slots: zeroed memory of its own, which a large table asks the kernel to back with
/// huge pages (a million IDs' 16 MiB of slots are read at random while they are filled, and
/// with 4 KiB pages most of that time went to page-table walks).
final class SlotMemory: @unchecked Sendable {  // written only while its table is made
    package let base: UnsafeMutablePointer<UInt64>
    private let mapped: (address: UnsafeMutableRawPointer, length: Int)?

    /// The size from which the memory is mapped on its own, with huge pages asked for.
    private static let hugePage = 2 << 20

    /// `count` slots, all 0.
    package init(count: Int) {
        let bytes = count * MemoryLayout<UInt64>.stride
        #if os(Linux)
        if bytes >= Self.hugePage {
            // Room to start at a huge-page boundary; the kernel's pages are zero already.
            let length = bytes + Self.hugePage
            if let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), address != MAP_FAILED {
                let aligned = (Int(bitPattern: address) + Self.hugePage - 1) & ~(Self.hugePage - 1)
                _ = madvise(UnsafeMutableRawPointer(bitPattern: aligned), bytes, MADV_HUGEPAGE)  // a hint, ignored where unsupported
                mapped = (address, length)
                base = UnsafeMutableRawPointer(bitPattern: aligned)!.bindMemory(to: UInt64.self, capacity: count)
                return
            }
        }
        #endif
        mapped = nil
        base = UnsafeMutablePointer<UInt64>.allocate(capacity: max(count, 1))
        base.initialize(repeating: 0, count: max(count, 1))
    }

    deinit {
        if let mapped {
            munmap(mapped.address, mapped.length)
        } else {
            base.deallocate()
        }
    }
}
