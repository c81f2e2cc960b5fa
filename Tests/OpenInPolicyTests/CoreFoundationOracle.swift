import Foundation
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// (Also compiled into the `plist-oracle` fuzz target by `.ci/fuzz.sh`.)
///
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
            return .success(shape(of: try PropertyList.read(bytes)))
        } catch {
            return .failure(error)
        }
    }

    /// Where the two readers disagree in the way the project forbids, a description; else `nil`.
    ///
    /// Both read: the trees must be equal. Only ours reads: a failure (we would decide under a
    /// file the device cannot load). Only CoreFoundation reads, or neither: allowed (stricter).
    ///
    /// CoreFoundation is asked only about what we read: the files we refuse include ones it
    /// crashes on (a binary set), and whatever it does with them is allowed.
    static func disagreement(_ bytes: [UInt8]) -> String? {
        switch ours(bytes) {
        case .success(let tree):
            guard let theirs = shape(bytes) else { return "only we read it: \(tree)" }
            return tree == theirs ? nil : "the trees differ:\n ours \(tree)\n CF   \(theirs)"
        case .failure:
            return nil
        }
    }

    /// What our reader read, as a canonical text: dictionaries in byte order of their keys, reals by their bits.
    static func shape(of value: PropertyListValue) -> String {
        switch value {
        case .dictionary(let dictionary):
            // The dictionary iterates in byte order of its keys already.
            return "{" + dictionary.map { "\(Array($0.key.utf8))=\(shape(of: $0.value))" }.joined(separator: ",") + "}"
        case .array(let elements): return "[" + elements.map { shape(of: $0) }.joined(separator: ",") + "]"
        case .string(let text): return "s\(Array(text.utf8))"
        case .integer(let number): return "i\(number)"
        case .real(let number): return real(number)
        case .bool(let flag): return flag ? "T" : "F"
        case .date: return "date"
        case .data: return "data"
        }
    }

    /// A real by its bits; every NaN alike (CoreFoundation keeps no payload).
    static func real(_ number: Double) -> String { number.isNaN ? "rnan" : "r\(number.bitPattern)" }

    /// A Foundation value in the same text.
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
            if kind == "d" || kind == "f" { return real(number.doubleValue) }
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
