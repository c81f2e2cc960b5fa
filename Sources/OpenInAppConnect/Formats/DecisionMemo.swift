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

/// The bundle IDs a policy names, found by their spelling in a request line: the spellings'
/// bytes one after another in memory of the table's own, and an open-addressing table of
/// 8-byte slots (a 32-bit hash of the spelling and its number plus one).
///
/// The hash is multilinear over the spelling's 32-bit pieces and its length, with 64-bit
/// multipliers drawn at random for each table, of which the high 32 bits are kept: a strongly
/// universal family, so which spellings share a slot cannot be foreseen, let alone crafted,
/// without the multipliers, which never leave the process; and it costs one multiply-add per
/// four bytes, where the keyed ``TableHash`` (SipHash) costs several times that for a short ID.
///
/// A lookup makes no string and changes no reference count, and the table is raw memory only
/// read once made, so any number of threads can read one table. The owner frees the memory with
/// ``deallocate()``.
struct KnownSpellings {
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    /// Where spelling `i` starts in ``bytes``; spelling `i` ends where `i + 1` starts.
    private let starts: UnsafeMutableBufferPointer<Int>
    private let slots: UnsafeMutableBufferPointer<UInt64>
    private let mask: Int
    /// The hash's multipliers: one for the length, one per 32-bit piece of the longest ID, and an offset.
    private let multipliers: UnsafeMutableBufferPointer<UInt64>
    /// How many spellings the table holds.
    package let count: Int

    /// The longest spelling a bundle ID has (``BundleID``): longer ones are never known.
    private static let longest = 255

    /// A table of a whitelist's IDs, read from its bytes (no string per ID), and of `others`.
    package init(_ whitelist: Whitelist, _ others: [BundleID]) {
        let list = whitelist.list
        self.init(count: list.ends.count + others.count,
                  byteCount: list.bytes.count + others.reduce(0) { $0 + $1.rawValue.utf8.count }) { add in
            list.bytes.withUnsafeBufferPointer { bytes in
                var from = list.start
                for end in list.ends {
                    add(UnsafeBufferPointer(rebasing: bytes[from..<Int(end)]))
                    from = Int(end)
                }
            }
            for id in others {
                var text = id.rawValue
                text.withUTF8 { add($0) }
            }
        }
    }

    /// A table of the spellings `spellings` passes to its argument (at most `count` of them, of at
    /// most `byteCount` bytes in all), each once.
    private init(count: Int, byteCount: Int, _ spellings: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void) {
        var capacity = 8
        while capacity < count * 2 { capacity <<= 1 }
        let table = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: capacity)
        table.initialize(repeating: 0)
        let arena = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(byteCount, 1))
        let offsets = UnsafeMutableBufferPointer<Int>.allocate(capacity: count + 1)
        offsets[0] = 0
        let tableMask = capacity - 1
        let keys = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: Self.longest / 4 + 3)
        var generator = SystemRandomNumberGenerator()
        for index in keys.indices { keys[index] = generator.next() }
        var kept = 0
        spellings { spelling in
            guard spelling.count <= Self.longest, kept < count else { return }
            let hash = Self.hash(spelling, keys)
            var slot = Int(truncatingIfNeeded: hash) & tableMask
            while table[slot] != 0 {
                let other = Int(truncatingIfNeeded: table[slot] & 0xFFFF_FFFF) - 1
                if table[slot] >> 32 == hash,
                   UnsafeBufferPointer(rebasing: arena[offsets[other]..<offsets[other + 1]]).sameBytes(as: spelling) { return }
                slot = (slot + 1) & tableMask
            }
            let used = offsets[kept]
            guard used + spelling.count <= arena.count else { return }
            _ = UnsafeMutableBufferPointer(rebasing: arena[used..<used + spelling.count]).initialize(from: spelling)
            offsets[kept + 1] = used + spelling.count
            kept += 1
            table[slot] = hash << 32 | UInt64(kept)
        }
        bytes = arena
        starts = offsets
        slots = table
        mask = tableMask
        multipliers = keys
        self.count = kept
    }

    func deallocate() {
        bytes.deallocate()
        starts.deallocate()
        slots.deallocate()
        multipliers.deallocate()
    }

    /// The 32-bit hash of a spelling of at most ``longest`` bytes: the high half of
    /// `k0 + k1·length + Σ k(i+2)·piece(i)` modulo 2^64, the pieces being its 32-bit little-endian
    /// words (the last one padded with zeros).
    @inline(__always)
    private static func hash(_ spelling: UnsafeBufferPointer<UInt8>, _ keys: UnsafeMutableBufferPointer<UInt64>) -> UInt64 {
        guard let base = spelling.baseAddress else { return keys[0] >> 32 }
        var sum = keys[0] &+ keys[1] &* UInt64(spelling.count)
        var offset = 0, key = 2
        while offset + 8 <= spelling.count {
            let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            sum &+= keys[key] &* (word & 0xFFFF_FFFF) &+ keys[key + 1] &* (word >> 32)
            offset += 8
            key += 2
        }
        if offset + 4 <= spelling.count {
            sum &+= keys[key] &* UInt64(UnsafeRawPointer(base + offset).loadUnaligned(as: UInt32.self))
            offset += 4
            key += 1
        }
        if offset < spelling.count {
            var piece: UInt64 = 0
            for index in offset..<spelling.count { piece |= UInt64(base[index]) << UInt64((index - offset) * 8) }
            sum &+= keys[key] &* piece
        }
        return sum >> 32
    }

    /// The number (from 0) of the spelling `spelling` is, if it is one.
    @inline(__always)
    package func index(of spelling: UnsafeBufferPointer<UInt8>) -> Int? {
        guard spelling.count <= Self.longest else { return nil }
        let hash = Self.hash(spelling, multipliers)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if entry >> 32 == hash {
                let index = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
                let start = starts[index], length = starts[index + 1] - start
                if length == spelling.count, let base = bytes.baseAddress, let other = spelling.baseAddress,
                   memcmp(base + start, other, length) == 0 {
                    return index
                }
            }
            slot = (slot + 1) & mask
        }
    }
}

/// The records' middles of requests the JSON Lines fast path has decided, kept to be written
/// again: a request line with no URL, and no target or a target the policy names, has a
/// decision that depends only on its channel and target (the evaluator is pure, and the
/// document only names the dummy file, which is made from the line's bytes each time).
///
/// So the key is the channel and the target's number in ``KnownSpellings`` (a bounded set),
/// and the value the bytes ``DecisionRecordWriter/writeBody(_:to:)`` wrote for the decision,
/// its outcome (or that the fast path declined the request) and what the dummy file's name
/// needs of the decision's target. Bounded: at most ``capacity`` / 2 entries and
/// ``arenaCapacity`` bytes; past that, requests are decided as if there were no memo.
///
/// Memory of its own, written and read by one thread: the owner frees it with ``deallocate()``.
struct DecisionMemo {
    /// One remembered decision.
    package struct Entry {
        /// Where its bytes are in the arena.
        package var start: Int
        package var count: Int
        /// The outcome; `nil` when the fast path declines the request.
        package var outcome: Outcome?
        /// Whether the record names a dummy file, and the seed's part from the decision's target (``DummyFileName/targetSeed(_:)``).
        var namesDummy: Bool
        var targetSeed: UInt64
    }

    static let capacity = 1 << 15
    static let arenaCapacity = 1 << 22

    private let keys: UnsafeMutablePointer<UInt64>
    private let entries: UnsafeMutablePointer<Entry>
    private let arena: UnsafeMutablePointer<UInt8>
    private var arenaUsed = 0
    private var count = 0

    package init() {
        keys = .allocate(capacity: Self.capacity)
        keys.initialize(repeating: 0, count: Self.capacity)
        entries = .allocate(capacity: Self.capacity)
        arena = .allocate(capacity: Self.arenaCapacity)
    }

    func deallocate() {
        keys.deallocate()
        entries.deallocate()
        arena.deallocate()
    }

    /// The key of a request on the channel numbered `channel` (0 to 7) with the known target
    /// numbered `target` (`nil`: no target); never 0.
    @inline(__always)
    package static func key(channel: Int, target: Int?) -> UInt64 {
        UInt64(truncatingIfNeeded: (target ?? -1) + 2) << 4 | UInt64(truncatingIfNeeded: channel)
    }

    @inline(__always)
    private static func firstSlot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 49) & (capacity - 1)
    }

    /// The entry for `key`, if remembered.
    @inline(__always)
    package func entry(_ key: UInt64) -> UnsafePointer<Entry>? {
        var slot = Self.firstSlot(key)
        while true {
            let found = keys[slot]
            if found == key { return UnsafePointer(entries + slot) }
            if found == 0 { return nil }
            slot = (slot + 1) & (Self.capacity - 1)
        }
    }

    /// The bytes of an entry (valid as long as the memo).
    @inline(__always)
    package func bytes(of entry: UnsafePointer<Entry>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: arena + entry.pointee.start, count: entry.pointee.count)
    }

    /// Whether another entry of `byteCount` bytes fits.
    func hasRoom(for byteCount: Int) -> Bool {
        count < Self.capacity / 2 && arenaUsed + byteCount <= Self.arenaCapacity
    }

    /// Remembers `bytes`, `outcome` and the dummy name's part for `key` (not yet remembered),
    /// if there is room.
    mutating func remember(_ key: UInt64, bytes: UnsafeBufferPointer<UInt8>, outcome: Outcome?, namesDummy: Bool, targetSeed: UInt64) {
        guard hasRoom(for: bytes.count) else { return }
        if let base = bytes.baseAddress { (arena + arenaUsed).initialize(from: base, count: bytes.count) }
        var slot = Self.firstSlot(key)
        while keys[slot] != 0 { slot = (slot + 1) & (Self.capacity - 1) }
        keys[slot] = key
        (entries + slot).initialize(to: Entry(start: arenaUsed, count: bytes.count, outcome: outcome, namesDummy: namesDummy, targetSeed: targetSeed))
        arenaUsed += bytes.count
        count += 1
    }
}
