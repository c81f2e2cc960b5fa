/// A look at a JSON document's top level without reading it: which keys its object names, skipping
/// each value by its brackets and strings. It builds nothing and checks little (a document it calls
/// an object may still be malformed further on), so it only ever confirms what a full read would
/// also find: a caller that needs more reads the document.
package enum JSONSkim {
    /// Whether `bytes` (UTF-8, an optional byte order mark, then a JSON object) name `key` among their
    /// object's own keys, spelled byte for byte without escapes, before any byte the skim cannot read.
    /// `false` means "not seen", not "absent": a key written with escapes, or after malformed text, is
    /// not seen. O(the bytes up to the key).
    package static func topLevelObjectNames(_ key: String, in bytes: [UInt8]) -> Bool {
        let wanted = Array(key.utf8)
        return bytes.withUnsafeBufferPointer { bytes in
            var index = 0
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
            func skipSpace() {
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
            }
            /// Past a string starting at `index` (its opening quote); its contents' range, or `nil` when it is not closed.
            func skipString() -> Range<Int>? {
                let start = index + 1
                index = start
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: "\\"): index += 2
                    case UInt8(ascii: "\""):
                        index += 1
                        return start..<(index - 1)
                    default: index += 1
                    }
                }
                return nil
            }
            /// Past one value starting at `index`: a string, or a container by its brackets, or a scalar to its end.
            func skipValue() -> Bool {
                guard index < bytes.count else { return false }
                switch bytes[index] {
                case UInt8(ascii: "\""): return skipString() != nil
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    var depth = 0
                    while index < bytes.count {
                        switch bytes[index] {
                        case UInt8(ascii: "\""):
                            guard skipString() != nil else { return false }
                            continue
                        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                        case UInt8(ascii: "}"), UInt8(ascii: "]"):
                            depth -= 1
                            if depth == 0 {
                                index += 1
                                return true
                            }
                        default: break
                        }
                        index += 1
                    }
                    return false
                default:
                    while index < bytes.count, !",}] \n\r\t".utf8.contains(bytes[index]) { index += 1 }
                    return true
                }
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return false }
            index += 1
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let name = skipString() else { return false }
                if name.count == wanted.count, bytes[name].elementsEqual(wanted) { return true }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
                index += 1
                skipSpace()
                guard skipValue() else { return false }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
                index += 1
            }
        }
    }
}
