import OpenInKit

/// URL scheme names: validation and case folding.
package enum URLScheme {
    /// Lowercases a scheme after checking RFC 3986's form (a trailing `:` is tolerated).
    package static func normalize(_ text: String) throws(InputError) -> String {
        var name = Substring(text)
        if name.hasSuffix(":") { name = name.dropLast() }
        guard let first = name.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20) else {
            throw .malformedScheme(text)
        }
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                continue
            default:
                throw .malformedScheme(text)
            }
        }
        return ExactText.asciiLowercased(name)
    }
}
