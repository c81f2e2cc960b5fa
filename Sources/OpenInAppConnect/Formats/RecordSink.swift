import OpenInCore
import OpenInFleet
import OpenInKit

/// A growable byte buffer for records, written through a pointer: an append
/// is a capacity check and a copy (no reference counting, no uniqueness check).
///
/// Its owner frees the memory with ``deallocate()`` (``JSONLinesFastPath`` keeps one for its life).
package struct RecordSink {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var capacity: Int

    package init(capacity: Int) {
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    func deallocate() { base.deallocate() }

    /// The bytes written so far.
    package var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Forgets what was written; keeps the memory.
    mutating func removeAll() { count = 0 }

    @inline(__always)
    package mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (base + count).update(from: start, count: bytes.count)
        count += bytes.count
    }

    /// Appends a string's UTF-8 bytes.
    package mutating func append(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            for byte in text.utf8 { append(byte) }
        }
    }

    /// Moves the bytes to a block at least twice as large.
    @inline(never)
    private mutating func grow(to minimum: Int) {
        let newCapacity = max(minimum, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
