import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// Which vendor's policies a file holds, told from its bytes (read once: a pipe cannot be read twice).
public enum VendorDetection {
    /// Whether `bytes` hold Intune policies (Graph JSON: an object with `@odata.type` or `value`, or an
    /// array) rather than an AppConnect fleet file, in UTF-8 or UTF-16 with a byte order mark (as
    /// ``IntuneGraphJSON/read(_:file:)`` reads them). YAML naming a Graph type (IntuneCD
    /// `--output=yaml`) counts as Intune's too, so the Intune reader refuses it with the fix.
    public static func holdsIntunePolicies(_ bytes: [UInt8]) -> Bool {
        guard let text = decoded(bytes) else { return false }
        return IntuneFleet.holdsPolicies(text) || (IntuneGraphJSON.looksLikeYAML(text) && ExactText.contains(bytes: text, Array("#microsoft.graph.".utf8)))
    }

    /// Whether `bytes` are an AppConnect fleet file: a JSON object with `global`.
    public static func isFleetFile(_ bytes: [UInt8]) -> Bool {
        if let text = decoded(bytes), case .object(let object)? = try? JSONReader().read(text) { return object["global"] != nil }
        return false
    }

    /// What reads Intune app protection policies, when `verb` (`lint`, `diff` or `eval`, which read
    /// AppConnect policy files) is given them at `path` (`bytes`: the file's bytes, `nil` for a folder);
    /// `nil` when the path does not hold Intune policies.
    public static func intuneVerb(for verb: String, path: String, bytes: [UInt8]?) -> String? {
        if let bytes {
            guard holdsIntunePolicies(bytes) else { return nil }
        } else {
            guard let folder = try? IntuneExportFiles.list(path), !folder.paths(.policy).isEmpty || !folder.paths(.yaml).isEmpty else { return nil }
        }
        let quoted = "'\(Printable.text(path))'"
        let command = switch verb {
        case "diff": "'openin-check fleet diff OLD NEW --devices DEVICES' (each side an Intune export, or one an AppConnect fleet)"
        case "eval": "'openin-check eval --policy \(Printable.text(path)) --from BUNDLE_ID --channel CHANNEL [--devices DEVICES]'"
        default: "'openin-check fleet lint --fleet \(Printable.text(path)) --devices DEVICES'"
        }
        return "\(quoted) holds Microsoft Intune app protection policies (Graph JSON), and \(verb) reads AppConnect policy files: read it with \(command)"
    }

    /// The document `lint` reads from a file's bytes; an Intune export (which `fleet lint` reads) is one
    /// read error saying so, not a list of the AppConnect keys it lacks.
    public static func lintDocument(_ bytes: [UInt8], file: String, buildSettings: BuildSettings) -> PolicyDocument {
        guard let hint = intuneVerb(for: "lint", path: file, bytes: bytes) else { return PolicyDocument(contentsOf: bytes, file: file, buildSettings: buildSettings) }
        return PolicyDocument(kind: .policyFile, file: file, readErrors: [Written(hint, at: SourceLocation(file: file, line: 1, keyPath: ""))])
    }

    /// `bytes` as UTF-8 without a byte order mark, or `nil` when their encoding is not read.
    private static func decoded(_ bytes: [UInt8]) -> [UInt8]? {
        try? TextEncoding.decode(bytes).utf8
    }
}
