import OpenInKit

/// Why an input cannot be decided: the engine fails closed with one of these, never a decision.
public enum InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A policy value that is none of the SDK's (or `appconnect` where that is allowed).
    case unknownPolicy(String)
    /// A channel name that is not one of the eight channels.
    case unknownChannel(String)
    /// A drag-and-drop policy that is not `all`, `appconnect` or `none`.
    case unknownDragAndDropPolicy(String)
    /// A bundle ID that is not well formed.
    case malformedBundleID(String, reason: String)
    /// A URL that is not well formed.
    case malformedURL(String, reason: String)
    /// A request whose channel needs a target and has none.
    case missingTarget(Channel)
    /// A request whose channel needs a URL and has none.
    case missingURL(Channel)
    /// A request that carries a field its channel does not take.
    case unexpectedField(String, Channel)
    /// A `mail-link` request whose URL is not `mailto:`.
    case notMailto(String)
    /// A URL scheme (in the app's schemes or handler map) that is not well formed.
    case malformedScheme(String)
    /// An Open From policy value that is none of the SDK's (or `appconnect`).
    case unknownOpenFromPolicy(String)
    /// A pasteboard policy value that is none of the SDK's.
    case unknownPasteboardPolicy(String)
    /// A print policy value that is none of the SDK's.
    case unknownPrintPolicy(String)
    /// A Web DLP setting that is not `allowed` or `not-allowed`.
    case unknownWebDLPPolicy(String)
    /// A request on a channel whose control the policy does not set: the
    /// policy key to add, and the channel that needs it.
    case policyKeyNotSet(String, Channel)
    /// An Intune app protection policy that breaks one of Microsoft Graph's constraints on its properties.
    case intuneConstraint(String)
    /// A `save-as` or `open-into-org-document` request with a missing or unknown location, or asked of a
    /// policy that has no such setting (AppConnect).
    case intuneLocation(String)

    public var description: String {
        switch self {
        case .unknownPolicy(let value):
            "unknown Open In policy '\(Printable.shortened(value))'\(Self.nonASCII(value))\(Self.quotedNumber(value)): use unauthorized, authorized, whitelist, appconnect, an SDK constant name (ACOPENINPOLICY_WHITELIST or ACOpenInPolicyWhitelist), or 0, 1, 2"
                + DataControlName.didYouMean(value, among: ["unauthorized", "authorized", "whitelist", "appconnect"])
        case .unknownChannel(let value):
            if let intune = LocationChannel(named: value) {
                "channel \(value) is Intune's \(intune.setting): AppConnect has no such control, so an AppConnect policy cannot decide it; ask it of an Intune policy (eval --policy INTUNE.json, or fleet eval on Intune policies)"
            } else {
                "unknown channel '\(Printable.shortened(value))'\(Self.nonASCII(value)): use one of \(Channel.allCases.map(\.rawValue).joined(separator: ", "))"
            }
        case .unknownDragAndDropPolicy(let value):
            "unknown drag-and-drop policy '\(Printable.shortened(value))'\(Self.nonASCII(value)): use all, appconnect or none"
                + DataControlName.didYouMean(value, among: ["all", "appconnect", "none"])
        case .malformedBundleID(let value, let reason):
            "malformed bundle ID '\(Printable.shortened(value))': \(reason)"
        case .malformedURL(let value, let reason):
            "malformed URL '\(Printable.shortened(value))': \(reason)"
        case .missingTarget(let channel):
            "channel \(channel.rawValue) needs a target bundle ID"
        case .missingURL(let channel):
            "channel \(channel.rawValue) needs a url"
        case .unexpectedField(let field, let channel):
            "channel \(channel.rawValue) does not take '\(field)': \(channel.fieldHint)"
        case .notMailto(let url):
            "channel mail-link takes a mailto: URL, not '\(Printable.shortened(url))'"
        case .malformedScheme(let value):
            "malformed URL scheme '\(Printable.shortened(value))'\(Self.nonASCII(value)): a scheme is a letter followed by letters, digits, '+', '-' or '.'"
        case .unknownOpenFromPolicy(let value):
            "unknown Open From policy '\(Printable.shortened(value))'\(Self.nonASCII(value))\(Self.quotedNumber(value)): use unauthorized, authorized, whitelist, appconnect, an ACOpenFromPolicy constant name, or 0, 1, 2"
                + DataControlName.didYouMean(value, among: ["unauthorized", "authorized", "whitelist", "appconnect"])
        case .unknownPasteboardPolicy(let value):
            "unknown pasteboard policy '\(Printable.shortened(value))'\(Self.nonASCII(value))\(Self.quotedNumber(value)): use unauthorized, authorized, securecopy, an ACPasteboardPolicy constant name, or 0, 1, 2"
                + DataControlName.didYouMean(value, among: ["unauthorized", "authorized", "securecopy"])
        case .unknownPrintPolicy(let value):
            "unknown print policy '\(Printable.shortened(value))'\(Self.nonASCII(value))\(Self.quotedNumber(value)): use unauthorized, authorized, an ACPrintPolicy constant name, or 0, 1"
                + DataControlName.didYouMean(value, among: ["unauthorized", "authorized"])
        case .unknownWebDLPPolicy(let value):
            "unknown Web DLP setting '\(Printable.shortened(value))'\(Self.nonASCII(value)): use allowed or not-allowed"
                + DataControlName.didYouMean(value, among: ["allowed", "not-allowed"])
        case .policyKeyNotSet(let key, let channel):
            "channel \(channel.rawValue) needs \(key), which the policy does not set (there is no default: the engine fails closed): \(PolicyKeyHint.hint(for: key))"
        case .intuneConstraint(let message), .intuneLocation(let message):
            message
        }
    }

    /// `` (it contains 'K' (U+212A KELVIN SIGN), which is not ASCII …)`` when `value` is not ASCII, else nothing.
    /// One rule for every control, in every input: a policy's number is written as a number, and a
    /// number in quotes (`"1"`, `'1'`, `“1”`) is refused, saying so (as the policy and fleet files do).
    private static func quotedNumber(_ value: String) -> String {
        let quotes: [(String, String)] = [("\"", "\""), ("'", "'"), ("\u{201C}", "\u{201D}"), ("\u{2018}", "\u{2019}")]
        for (open, close) in quotes where value.utf8.count > open.utf8.count + close.utf8.count {
            guard value.utf8.starts(with: open.utf8), value.utf8.reversed().starts(with: close.utf8.reversed()) else { continue }
            let inner = value.utf8.dropFirst(open.utf8.count).dropLast(close.utf8.count)
            guard inner.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { continue }
            let number = String(decoding: inner, as: UTF8.self)
            return " (a number in quotes is not a policy value: write \(number) without quotes)"
        }
        return ""
    }

    private static func nonASCII(_ value: String) -> String {
        ExactText.asciiProblem(in: value).map { " (\($0))" } ?? ""
    }
}
