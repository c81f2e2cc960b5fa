import OpenInCore
import OpenInFleet
import OpenInKit

/// The app's Info.plist, as far as Open In is concerned: the `MI_APP_CONNECT`
/// dictionary's `MI_AC_DISABLE_SCHEME_BLOCKING`, and the app's own URL schemes
/// (`CFBundleURLTypes`, each entry's `CFBundleURLSchemes`).
///
/// "add the key MI_AC_DISABLE_SCHEME_BLOCKING with the value YES in the
/// MI_APP_CONNECT dictionary in the app’s Info.plist" (AppConnect for iOS SDK
/// Developer Guide: Open In policy API details). The value must be a Boolean
/// (`<true/>` or `<false/>`; Xcode's "Boolean, YES"). The URL schemes are the
/// ones iOS opens the app for; opening one of them is not Open In (rule 9).
///
/// It fails closed: a value of the wrong type (a string `"YES"` for the
/// override, a `CFBundleURLTypes` that is not an array of dictionaries, an
/// entry without `CFBundleURLSchemes`, a scheme that is not an ASCII string
/// in a scheme's form) is an error naming the key path, never a guess and
/// never a scheme left out. Build-setting references in a scheme
/// (`$(PRODUCT_BUNDLE_IDENTIFIER)`) are resolved with ``BuildSettings``; one
/// left unresolved is an error. Keys are compared by their bytes, as the SDK's
/// `NSDictionary` lookups do. A missing dictionary or key means no override
/// and no scheme; other keys are ignored.
public enum InfoPlist {
    /// `MI_APP_CONNECT`, the AppConnect dictionary of an Info.plist.
    public static let appConnectKey = "MI_APP_CONNECT"
    /// `MI_AC_DISABLE_SCHEME_BLOCKING`, the override of scheme blocking for `openURL:` with `mailto:`.
    public static let disableSchemeBlockingKey = "MI_AC_DISABLE_SCHEME_BLOCKING"
    /// `CFBundleURLTypes`, the array of the app's URL types.
    public static let urlTypesKey = "CFBundleURLTypes"
    /// `CFBundleURLSchemes`, a URL type's array of schemes.
    public static let urlSchemesKey = "CFBundleURLSchemes"

    private static let keyPath = "\(appConnectKey).\(disableSchemeBlockingKey)"

    /// What openin-check reads from an Info.plist.
    public struct Contents: Sendable, Hashable {
        /// The `MI_APP_CONNECT` overrides.
        public var overrides: InfoPlistOverrides
        /// The app's own URL schemes, in the order the file declares them (duplicates kept).
        public var urlSchemes: [DeclaredScheme]

        /// Creates contents; none by default.
        public init(overrides: InfoPlistOverrides = InfoPlistOverrides(), urlSchemes: [DeclaredScheme] = []) {
            self.overrides = overrides
            self.urlSchemes = urlSchemes
        }
    }

    /// One of the app's URL schemes as an Info.plist declares it.
    public struct DeclaredScheme: Sendable, Hashable {
        /// The scheme, build-setting references resolved (letter case kept).
        public let scheme: String
        /// Where: `CFBundleURLTypes[0].CFBundleURLSchemes[1]`.
        public let keyPath: String
        /// The string as written, when references were resolved in it.
        public let written: String?

        /// Creates a declared scheme.
        public init(scheme: String, keyPath: String, written: String? = nil) {
            self.scheme = scheme
            self.keyPath = keyPath
            self.written = written
        }
    }

    /// Reads an Info.plist file's bytes, XML or binary.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - buildSettings: values for the `$(NAME)` references of a source-tree Info.plist.
    /// - Throws: `FormatError` for a file that is not a property list, a value of the wrong
    ///   type, a malformed scheme, or a reference `buildSettings` does not resolve.
    public static func read<Bytes: Collection>(_ bytes: Bytes, buildSettings: BuildSettings = BuildSettings()) throws(FormatError) -> Contents where Bytes.Element == UInt8 {
        let rootValue = try PropertyList.read(bytes)
        guard let root = rootValue.pairs else {
            throw FormatError("an Info.plist must hold a <dict> at the top level")
        }
        var contents = Contents()
        if let appConnect = member(appConnectKey, of: root) {
            guard let dictionary = appConnect.pairs else {
                throw FormatError("\(appConnectKey): must be a <dict>, not \(appConnect.found)")
            }
            if let value = member(disableSchemeBlockingKey, of: dictionary) {
                guard case .bool(let flag) = value else {
                    throw FormatError("\(keyPath): must be a Boolean, not \(value.found): write <true/> (in Xcode: type Boolean, value YES)")
                }
                contents.overrides.disableSchemeBlocking = flag
            }
        }
        if let types = member(urlTypesKey, of: root) {
            contents.urlSchemes = try schemes(types, path: urlTypesKey, buildSettings: buildSettings)
        }
        return contents
    }

    /// Reads the Info.plist dictionary written as JSON (a policy file's `infoPlist`).
    package static func read(json field: JSONCursor, buildSettings: BuildSettings) throws(FormatError) -> Contents {
        let root = try field.anyMembers(what: "the Info.plist dictionary").map { ($0.key, $0.value) }
        var contents = Contents()
        if let appConnect = member(appConnectKey, of: root) {
            let members = try appConnect.anyMembers(what: "the MI_APP_CONNECT dictionary").map { ($0.key, $0.value) }
            if let value = member(disableSchemeBlockingKey, of: members) {
                guard case .bool(let flag) = value.value else {
                    throw value.error("must be true or false (a Boolean in the Info.plist), not \(value.found): write true")
                }
                contents.overrides.disableSchemeBlocking = flag
            }
        }
        if let types = member(urlTypesKey, of: root) {
            contents.urlSchemes = try schemes(types, path: urlTypesKey, buildSettings: buildSettings)
        }
        return contents
    }

    /// The value of `key` among `members`, the key compared by its bytes.
    private static func member<Value>(_ key: String, of members: [(String, Value)]) -> Value? {
        members.first { $0.0.utf8.elementsEqual(key.utf8) }?.1
    }

    /// Every scheme of `CFBundleURLTypes`, checked and resolved.
    private static func schemes<Node: InfoPlistNode>(_ types: Node, path: String, buildSettings: BuildSettings) throws(FormatError) -> [DeclaredScheme] {
        guard let entries = types.elements else {
            throw types.error("must be an <array> of URL types (each a <dict> with \(urlSchemesKey)), not \(types.found)", path: path)
        }
        var result: [DeclaredScheme] = []
        for (index, entry) in entries.enumerated() {
            let entryPath = "\(path)[\(index)]"
            guard let members = entry.pairs else {
                throw entry.error("must be a <dict> (a URL type with \(urlSchemesKey)), not \(entry.found)", path: entryPath)
            }
            guard let list = member(urlSchemesKey, of: members) else {
                throw entry.error("has no \(urlSchemesKey): add the array of this URL type's schemes, or remove the entry", path: entryPath)
            }
            let listPath = "\(entryPath).\(urlSchemesKey)"
            guard let schemes = list.elements else {
                throw list.error("must be an <array> of <string> schemes, not \(list.found)", path: listPath)
            }
            for (position, node) in schemes.enumerated() {
                let schemePath = "\(listPath)[\(position)]"
                guard let written = node.text else {
                    throw node.error("must be a <string> (a URL scheme), not \(node.found)", path: schemePath)
                }
                let scheme: String
                do throws(BuildSettings.Problem) {
                    scheme = try buildSettings.resolve(written)
                } catch {
                    throw node.error(unresolved(error, in: written), path: schemePath)
                }
                if let problem = problem(in: scheme, written: written) {
                    throw node.error(problem, path: schemePath)
                }
                result.append(DeclaredScheme(scheme: scheme, keyPath: schemePath, written: scheme == written ? nil : written))
            }
        }
        return result
    }

    /// The message for a reference that cannot be resolved, with both remedies where they apply.
    private static func unresolved(_ problem: BuildSettings.Problem, in written: String) -> String {
        let message = problem.description(in: written)
        guard case .unresolved(_, let name) = problem else { return message }
        return "\(message): pass the built app's Info.plist (the one inside the .app, where Xcode has resolved it), or give the value with --build-setting \(name)=VALUE"
    }

    /// What is wrong with `scheme` as one of the app's URL schemes, if anything.
    package static func problem(in scheme: String, written: String) -> String? {
        let shown = scheme == written ? Printable.quoted(scheme) : "\(Printable.quoted(scheme)) (written \(Printable.quoted(written)))"
        if let character = scheme.unicodeScalars.first(where: { !$0.isASCII }) {
            let hex = String(character.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            // Marks, format and control characters (RTL overrides among them) are named by code point alone.
            let printable: Bool
            switch character.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .nonspacingMark, .spacingMark, .enclosingMark,
                 .privateUse, .surrogate, .unassigned:
                printable = false
            default:
                printable = true
            }
            let rule = "a URL scheme is ASCII letters, digits, '+', '-' and '.'"
            if printable { return "the scheme \(shown) holds the non-ASCII character '\(character)' (\(code)): \(rule)" }
            return "the scheme holds the non-ASCII character \(code), which does not print: \(rule)"
        }
        if scheme.hasSuffix(":") {
            return "the scheme \(shown) ends with ':': write the scheme alone, without the colon"
        }
        do throws(InputError) {
            _ = try URLScheme.normalize(scheme)
        } catch {
            return "the scheme \(shown) is not a URL scheme: a scheme is a letter followed by letters, digits, '+', '-' or '.'"
        }
        return nil
    }
}

/// A value of an Info.plist, read from a property list or from a policy file's JSON.
private protocol InfoPlistNode {
    /// The dictionary's members, or nil when the value is not a dictionary.
    var pairs: [(String, Self)]? { get }
    /// The array's elements, or nil when the value is not an array.
    var elements: [Self]? { get }
    /// The string, or nil when the value is not a string.
    var text: String? { get }
    /// How a message names the value.
    var found: String { get }
    /// An error about this value at `path` (from the Info.plist's root).
    func error(_ problem: String, path: String) -> FormatError
}

extension PropertyListValue: InfoPlistNode {
    var pairs: [(String, PropertyListValue)]? {
        if case .dictionary(let members) = self { return members.map { ($0.key, $0.value) } }
        return nil
    }

    package var elements: [PropertyListValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    package var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    package func error(_ problem: String, path: String) -> FormatError { FormatError("\(path): \(problem)") }
}

extension JSONCursor: InfoPlistNode {
    var pairs: [(String, JSONCursor)]? {
        guard case .object = value else { return nil }
        return (try? anyMembers(what: ""))?.map { ($0.key, $0.value) }
    }

    package var elements: [JSONCursor]? {
        guard case .array = value else { return nil }
        return try? elements(what: "")
    }

    package var text: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// The cursor knows its own path (with the policy file's `infoPlist.` in front).
    package func error(_ problem: String, path: String) -> FormatError { error(problem) }
}
