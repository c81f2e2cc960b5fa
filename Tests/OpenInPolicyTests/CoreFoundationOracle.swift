import Foundation
@testable import OpenInPolicy

/// The device's reader, as near as this machine has it: swift-corelibs-foundation's
/// `PropertyListSerialization`, which runs CoreFoundation's CFPropertyList and CFBinaryPList,
/// the code Apple ships. Tests (never the product) compare the package's readers with it.
enum CoreFoundationOracle {
    /// The tree CoreFoundation reads from `bytes`, as a canonical text, or `nil` when it refuses them.
    static func shape(_ bytes: [UInt8]) -> String? {
        var format = PropertyListSerialization.PropertyListFormat.xml
        guard let value = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &format) else { return nil }
        return shape(of: value)
    }

    /// The tree the package's reader reads, in the same canonical text, or its error.
    static func ours(_ bytes: [UInt8]) -> Result<String, FormatError> {
        do throws(FormatError) {
            return .success(PropertyListReaderTests.shape(try PropertyList.read(bytes)))
        } catch {
            return .failure(error)
        }
    }

    /// Where the two readers disagree in the way the project forbids, a description; else `nil`.
    ///
    /// Both read: the trees must be equal. Only ours reads: a failure (we would decide under a
    /// file the device cannot load). Only CoreFoundation reads, or neither: allowed (stricter).
    static func disagreement(_ bytes: [UInt8]) -> String? {
        let theirs = shape(bytes)
        switch ours(bytes) {
        case .success(let tree):
            guard let theirs else { return "only we read it: \(tree)" }
            return tree == theirs ? nil : "the trees differ:\n ours \(tree)\n CF   \(theirs)"
        case .failure:
            return nil
        }
    }

    /// A Foundation value in ``PropertyListReaderTests/shape(_:)``'s text.
    static func shape(of value: Any) -> String {
        switch value {
        case let dictionary as [AnyHashable: Any]:
            let entries = dictionary.map { (key: ($0.key.base as? String) ?? "\($0.key)", value: $0.value) }
                .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            return "{" + entries.map { "\(Array($0.key.utf8))=\(shape(of: $0.value))" }.joined(separator: ",") + "}"
        case let array as [Any]:
            return "[" + array.map { shape(of: $0) }.joined(separator: ",") + "]"
        case let text as String:
            return "s\(Array(text.utf8))"
        case let flag as Bool where type(of: value) == Bool.self:
            return flag ? "T" : "F"
        case let number as NSNumber:
            let kind = String(cString: number.objCType)
            if kind == "d" || kind == "f" { return "r\(number.doubleValue.bitPattern)" }
            if kind == "Q", number.uint64Value > UInt64(Int64.max) { return "u\(number.uint64Value)" }
            return "i\(number.int64Value)"
        case is Date:
            return "date"
        case is Data:
            return "data"
        default:
            return "?\(type(of: value))"
        }
    }
}
