import OpenInPolicy

/// SARIF 2.1.0 text, written once for every SARIF writer (`lint`, `fleet lint`, `fleet paths`, `fleet diff`,
/// the baseline's suppressions).
///
/// A `message.text` is a plain text message (§3.11.3) in which `{n}` is a placeholder (§3.11.5) and
/// `[text](uri)` an embedded link (§3.11.6). ``message(_:)`` makes any input show as itself there: control,
/// bidirectional and line-separator characters as visible escapes (``DecisionText/escaped(_:backslash:)``, the
/// backslash doubled so every escape is unambiguous), then `{` and `}` doubled (§3.11.5 requires it, and the
/// escapes' own braces are doubled with them) and `[` and `]` written `\[` and `\]` (§3.11.6's escapes), so no
/// name forms a placeholder or a link. No writer writes `message.markdown`.
package enum SARIFText {
    /// `text` as SARIF plain message text (before JSON encoding); see ``SARIFText``.
    ///
    /// Each Unicode scalar is escaped on its own, so a message escaped part by part is the message escaped whole.
    package static func message(_ text: String) -> String {
        if isPlainMessage(text) { return text }
        return DecisionText.escaped(text).escapingScalars { scalar in
            switch scalar {
            case "{": "{{"
            case "}": "}}"
            case "[": "\\["
            case "]": "\\]"
            default: nil
            }
        }
    }

    /// `text` as a SARIF string that is not message text (a suppression's justification): control, bidirectional
    /// and line-separator characters shown as escapes, backslashes kept as they are.
    static func plain(_ text: String) -> String { DecisionText.escaped(text, backslash: false) }

    /// Appends ``message(_:)`` of `text` inside a JSON string (without the quotes). Printable ASCII that neither
    /// SARIF nor JSON escapes is copied after one scan of its bytes; other printable ASCII is escaped byte by byte;
    /// anything else goes the straightforward way (the same bytes).
    static func appendMessage(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        let done = text.withUTF8 { utf8 -> Bool in
            var special = false
            for byte in utf8 {
                if byte < 0x20 || byte >= 0x7F { return false }
                if isSpecial(byte) { special = true }
            }
            if !special {
                bytes.append(contentsOf: utf8)
                return true
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "}"): bytes += [byte, byte]
                // `\[` and `\]` for SARIF, their backslash doubled for JSON.
                case UInt8(ascii: "["), UInt8(ascii: "]"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\"), byte]
                // `\\` for SARIF (the escapes' backslash doubled), each doubled for JSON.
                case UInt8(ascii: "\\"): bytes += Array(repeating: UInt8(ascii: "\\"), count: 4)
                case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), byte]
                default: bytes.append(byte)
                }
            }
            return true
        }
        if done { return }
        appendInString(message(text), to: &bytes)
    }

    /// Appends ``plain(_:)`` of `text` inside a JSON string (without the quotes), copied when its bytes need nothing.
    static func appendPlain(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        let copied = text.withUTF8 { utf8 -> Bool in
            for byte in utf8 where byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if !copied { appendInString(plain(text), to: &bytes) }
    }

    /// Whether ``message(_:)`` leaves `text` as it is: printable ASCII with no `\`, `{`, `}`, `[` or `]`.
    private static func isPlainMessage(_ text: String) -> Bool {
        for byte in text.utf8 where byte < 0x20 || byte >= 0x7F || (isSpecial(byte) && byte != UInt8(ascii: "\"")) { return false }
        return true
    }

    /// The printable ASCII bytes SARIF message text or a JSON string escapes.
    @inline(__always) private static func isSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\\"), UInt8(ascii: "\""): true
        default: false
        }
    }

    /// Appends `text` JSON-escaped, without its quotes.
    private static func appendInString(_ text: String, to bytes: inout [UInt8]) {
        var quoted: [UInt8] = []
        JSONWriter.appendQuoted(text, to: &quoted)
        bytes += quoted[1..<(quoted.count - 1)]
    }
}
