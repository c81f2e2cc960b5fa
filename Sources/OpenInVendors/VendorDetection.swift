import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// Which vendor's policies a file holds, told from its bytes (read once: a pipe cannot be read twice).
package enum VendorDetection {
    /// Whether `bytes` hold Intune policies (Graph JSON: an object with `@odata.type` or `value`, or an
    /// array) rather than an AppConnect fleet file; a UTF-8 byte order mark is skipped.
    package static func holdsIntunePolicies(_ bytes: [UInt8]) -> Bool {
        IntuneFleet.holdsPolicies(withoutByteOrderMark(bytes))
    }

    /// Whether `bytes` are an AppConnect fleet file: a JSON object with `global`.
    package static func isFleetFile(_ bytes: [UInt8]) -> Bool {
        if case .object(let object)? = try? JSONReader().read(withoutByteOrderMark(bytes)) { return object["global"] != nil }
        return false
    }

    private static func withoutByteOrderMark(_ bytes: [UInt8]) -> [UInt8] {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }
}
