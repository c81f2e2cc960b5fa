import OpenInCore
import OpenInFleet
import OpenInKit

/// A policy file of either kind: the JSON policy file (``PolicyJSON``) or the
/// SDK's `AppConnect.plist` (``AppConnectPlist``), told apart by content.
public enum PolicyFile {
    /// Which kind of policy file some bytes are.
    public enum Kind: Sendable, Hashable {
        /// The JSON policy file: the first character (after a byte order mark and whitespace) is `{`.
        case json
        /// A property list: binary (`bplist`) or XML (starts with `<`).
        case appConnectPlist
    }

    /// Tells the kind of a policy file from its first bytes.
    /// - Throws: `FormatError` for an empty file or one that is neither kind.
    public static func kind<Bytes: Collection>(of bytes: Bytes) throws(FormatError) -> Kind where Bytes.Element == UInt8 {
        try kind(ofArray: Array(bytes))
    }

    /// ``kind(of:)`` on an array: the generic entry points copy (an array: take) their bytes into
    /// one and go on in code compiled for it, so a caller in another module, which gets the
    /// unspecialized generic function, does not make the runtime build metadata for slices of
    /// its collection type (that was a seventh of a one-request run).
    package static func kind(ofArray bytes: [UInt8]) throws(FormatError) -> Kind {
        if bytes.starts(with: Array("bplist".utf8)) { return .appConnectPlist }
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        guard let first = rest.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else {
            throw FormatError("the policy file is empty: write a JSON policy ({\"openInPolicy\": …}) or an AppConnect.plist")
        }
        switch first {
        case UInt8(ascii: "{"): return .json
        case UInt8(ascii: "<"): return .appConnectPlist
        default:
            throw FormatError("not a policy file: a policy is a JSON object (starting with '{') or an AppConnect.plist (XML or binary property list)", line: 1)
        }
    }

    /// Reads a policy file of either kind.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the path to name in errors.
    ///   - buildSettings: values for build-setting references in a JSON policy's `infoPlist`.
    /// - Throws: `FormatError` located in `file`.
    public static func read<Bytes: Collection>(_ bytes: Bytes, file: String,
                                               buildSettings: BuildSettings = BuildSettings()) throws(FormatError) -> PolicyInputs where Bytes.Element == UInt8 {
        try read(array: Array(bytes), file: file, buildSettings: buildSettings)
    }

    /// ``read(_:file:buildSettings:)`` on an array (see ``kind(ofArray:)``).
    package static func read(array bytes: [UInt8], file: String, buildSettings: BuildSettings) throws(FormatError) -> PolicyInputs {
        do throws(FormatError) {
            switch try kind(ofArray: bytes) {
            case .json: return try PolicyJSON.read(bytes, buildSettings: buildSettings)
            case .appConnectPlist: return try AppConnectPlist.read(bytes)
            }
        } catch {
            throw error.inFile(file)
        }
    }

    /// Reads the policy file at `path`, of either kind (no Foundation needed).
    ///
    /// ```swift
    /// let inputs = try PolicyFile.read(path: "Examples/policies/whitelist-mail-pair.json")
    /// let evaluator = Evaluator(policy: inputs.policy)
    /// ```
    /// - Parameters:
    ///   - path: the file; at most 16 MiB is read.
    ///   - buildSettings: values for build-setting references in a JSON policy's `infoPlist`.
    /// - Returns: the inputs, which keep "All AppConnect apps" (``PolicyInputs/policy`` is the policy to decide under).
    /// - Throws: `FormatError` located in `path`: the file cannot be read, or it is not a valid policy.
    public static func read(path: String, buildSettings: BuildSettings = BuildSettings()) throws(FormatError) -> PolicyInputs {
        var bytes: [UInt8]
        do throws(CappedFile.Failure) {
            bytes = try CappedFile.read(path: path, what: "policy file")
        } catch {
            throw FormatError(file: path, line: 0, message: "cannot read the policy file: \(error.reason)")
        }
        return try read(owning: &bytes, file: path, buildSettings: buildSettings)
    }

    /// Reads a policy file of either kind from a buffer the caller gives up: a JSON policy's
    /// whitelists keep their bundle IDs in it (`PolicyJSON.read(owning:reader:buildSettings:)`), so the file is held once.
    /// - Throws: `FormatError` located in `file`.
    public static func read(owning bytes: inout [UInt8], file: String,
                            buildSettings: BuildSettings = BuildSettings()) throws(FormatError) -> PolicyInputs {
        do throws(FormatError) {
            switch try kind(ofArray: bytes) {
            case .json: return try PolicyJSON.read(owning: &bytes, buildSettings: buildSettings)
            case .appConnectPlist: return try AppConnectPlist.read(bytes)
            }
        } catch {
            throw error.inFile(file)
        }
    }
}
