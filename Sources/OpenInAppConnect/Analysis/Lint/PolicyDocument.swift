import OpenInCore
import OpenInFleet
import OpenInKit

/// A policy source as its author wrote it, before validation: what lint reads.
///
/// The engine's readers fail closed at the first invalid value; lint needs to
/// see every value, valid or not, and where each one is. A document holds the
/// parts of a policy file, an `AppConnect.plist` or an Info.plist that the
/// checks look at, each with its ``SourceLocation``, plus the error the
/// format's strict reader reports, if any.
public struct PolicyDocument: Sendable, Hashable {
    /// Which format the document was read from.
    public enum Kind: String, Sendable, Hashable, CustomStringConvertible {
        /// A JSON policy file (<doc:PolicyFormats#The-JSON-policy-file>).
        case policyFile = "policy file"
        /// The SDK's local test file, `AppConnect.plist`.
        case appConnectPlist = "AppConnect.plist"
        /// An app's Info.plist.
        case infoPlist = "Info.plist"

        public var description: String { rawValue }
    }

    /// The document's format.
    public var kind: Kind
    /// The file, as the user named it.
    public var file: String
    /// The Open In policy, when the document gives one that can be read.
    public var setting: Written<PolicySetting>?
    /// The whitelist as written, when the document has one.
    public var whitelist: WrittenList?
    /// The server's app-specific configuration, every entry as written.
    public var config: [WrittenEntry]
    /// The Info.plist's `MI_APP_CONNECT` dictionary, and any top-level key
    /// spelled close enough to it to be meant as it (each with its entries).
    public var appConnectSections: [WrittenSection]
    /// Email+'s bundle IDs as the document gives them (empty: the default).
    public var emailPlusBundleIDs: [String]
    /// An Info.plist's URL schemes (`CFBundleURLTypes`), every string as written.
    public var urlSchemes: [WrittenScheme] = []
    /// The device's mail app as written: its `mailto` handler (`device.schemeHandlers.mailto`), when given.
    public var mailHandler: Written<String>? = nil
    /// What the format's strict reader rejects, if anything (readers stop at the first problem).
    public var readErrors: [Written<String>]
    /// The Open From policy, when the document gives one that can be read.
    public var openFromSetting: Written<OpenFromPolicy.Setting>? = nil
    /// The Open From whitelist as written, when the document has one.
    public var openFromWhitelist: WrittenList? = nil
    /// The pasteboard policy, when the document gives one that can be read.
    public var pasteboard: Written<PasteboardPolicy>? = nil
    /// Whether the document says if the device's secure services are available.
    public var givesSecureServices = false
    /// The Web DLP setting, when the document gives one that can be read.
    public var webDLP: Written<WebDLPPolicy>? = nil
    /// Whether the document says Web@Work is installed (`device.webAtWorkInstalled: true`).
    public var webAtWorkInstalled = false
    /// `excludedAppleActivityTypes` as written, when the document has it.
    public var excludedActivityTypes: WrittenList? = nil

    /// Creates a document; everything but the kind and file starts empty.
    public init(kind: Kind, file: String, setting: Written<PolicySetting>? = nil, whitelist: WrittenList? = nil,
                config: [WrittenEntry] = [], appConnectSections: [WrittenSection] = [],
                emailPlusBundleIDs: [String] = [], readErrors: [Written<String>] = []) {
        self.kind = kind
        self.file = file
        self.setting = setting
        self.whitelist = whitelist
        self.config = config
        self.appConnectSections = appConnectSections
        self.emailPlusBundleIDs = emailPlusBundleIDs
        self.readErrors = readErrors
    }
}

/// One of the app's URL schemes as an Info.plist writes it, and what it resolves to.
public struct WrittenScheme: Sendable, Hashable {
    /// The string as written, at its key path (`CFBundleURLTypes[0].CFBundleURLSchemes[1]`).
    public let written: Written<String>
    /// The scheme with its build-setting references resolved; nil when they cannot be.
    public let resolved: String?
    /// Why the references cannot be resolved, when they cannot.
    public let problem: BuildSettings.Problem?

    /// Resolves `written` with `buildSettings`.
    public init(_ written: Written<String>, buildSettings: BuildSettings) {
        self.written = written
        do throws(BuildSettings.Problem) {
            resolved = try buildSettings.resolve(written.value)
            problem = nil
        } catch {
            resolved = nil
            problem = error
        }
    }
}

/// A value as written, and where.
public struct Written<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The value.
    public let value: Value
    /// Where it is written.
    public let location: SourceLocation

    /// Wraps a value with its location.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

/// A scalar as a format holds it, before any key's rules are applied.
public enum WrittenValue: Sendable, Hashable, CustomStringConvertible {
    /// A string.
    case string(String)
    /// A boolean: JSON `true`/`false`, plist `<true/>`/`<false/>`.
    case bool(Bool)
    /// A number, as written.
    case number(String)
    /// Anything else (an array, a dictionary, null, a date…), by its kind.
    case other(String)

    /// How a message shows the value: `"True"` (quoted) for a string, `true`, `1`, `an array`.
    public var description: String {
        switch self {
        case .string(let text): JSONWriter.quoted(text)
        case .bool(let flag): flag ? "true" : "false"
        case .number(let literal): literal
        case .other(let kind): kind
        }
    }
}

/// A whitelist as written: where the key is, and each entry with its own location.
public struct WrittenList: Sendable, Hashable {
    /// Where the whitelist's key is (`openInWhitelist`, `policy.openinwhitelist`).
    public let location: SourceLocation
    /// The entries, in order, as written (not trimmed or validated).
    public let entries: [Written<String>]

    /// Creates a written whitelist.
    public init(at location: SourceLocation, entries: [Written<String>]) {
        self.location = location
        self.entries = entries
    }
}

/// A key-value pair as written: the key's location, and the value's.
public struct WrittenEntry: Sendable, Hashable {
    /// The key, where the key is written.
    public let key: Written<String>
    /// The value, where the value is written.
    public let value: Written<WrittenValue>

    /// Creates an entry.
    public init(key: Written<String>, value: Written<WrittenValue>) {
        self.key = key
        self.value = value
    }
}

/// A dictionary such as `MI_APP_CONNECT`: its key as written and its entries.
public struct WrittenSection: Sendable, Hashable {
    /// The dictionary's key, as written.
    public let key: Written<String>
    /// Its entries, in order.
    public let entries: [WrittenEntry]

    /// Creates a section.
    public init(key: Written<String>, entries: [WrittenEntry]) {
        self.key = key
        self.entries = entries
    }
}
