import OpenInCore
import OpenInFleet
import OpenInKit

/// A read-only map from URL schemes (lowercase) to values: a ``ByteKeyTable`` that a
/// ``ShareURL`` (which carries its scheme's ``TableHash``) looks up without hashing.
struct SchemeTable<Value: Sendable>: Sendable {
    private let table: ByteKeyTable<Value>

    /// A table of `entries`; the schemes must be lowercase (for a scheme given twice, the first is kept).
    package init(_ entries: [(scheme: String, value: Value)]) {
        table = ByteKeyTable(entries.map { (key: $0.scheme, value: $0.value) })
    }

    /// The value for `url`'s scheme, if the table has it.
    package func value(for url: ShareURL) -> Value? { table.value(for: url.scheme, hash: url.schemeHash) }
}
