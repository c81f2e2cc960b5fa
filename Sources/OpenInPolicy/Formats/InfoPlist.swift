/// The app's Info.plist, as far as Open In is concerned: the `MI_APP_CONNECT`
/// dictionary's `MI_AC_DISABLE_SCHEME_BLOCKING`.
///
/// "add the key MI_AC_DISABLE_SCHEME_BLOCKING with the value YES in the
/// MI_APP_CONNECT dictionary in the app’s Info.plist" (open-in-policy.txt).
/// The value must be a Boolean (`<true/>` or `<false/>`; Xcode's "Boolean,
/// YES"). It fails closed: any other type — a string `"YES"` included — is an
/// error naming the key path, not a guess. A missing dictionary or key means
/// no override. Other keys of the Info.plist and of `MI_APP_CONNECT` are ignored.
public enum InfoPlist {
    /// `MI_APP_CONNECT`, the AppConnect dictionary of an Info.plist.
    public static let appConnectKey = "MI_APP_CONNECT"
    /// `MI_AC_DISABLE_SCHEME_BLOCKING`, the override of scheme blocking for `openURL:` with `mailto:`.
    public static let disableSchemeBlockingKey = "MI_AC_DISABLE_SCHEME_BLOCKING"

    private static let keyPath = "\(appConnectKey).\(disableSchemeBlockingKey)"

    /// Reads the overrides from an Info.plist file's bytes, XML or binary.
    /// - Throws: ``FormatError`` for a file that is not a property list, or a value of the wrong type.
    public static func read<Bytes: Collection>(_ bytes: Bytes) throws(FormatError) -> InfoPlistOverrides where Bytes.Element == UInt8 {
        guard case .dictionary(let root) = try PropertyList.read(bytes) else {
            throw FormatError("an Info.plist must hold a <dict> at the top level")
        }
        guard let appConnect = root[appConnectKey] else { return InfoPlistOverrides() }
        guard case .dictionary(let dictionary) = appConnect else {
            throw FormatError("\(appConnectKey): must be a <dict>, not \(appConnect.found)")
        }
        guard let value = dictionary[disableSchemeBlockingKey] else { return InfoPlistOverrides() }
        guard case .bool(let flag) = value else {
            throw FormatError("\(keyPath): must be a Boolean, not \(value.found): write <true/> (in Xcode: type Boolean, value YES)")
        }
        return InfoPlistOverrides(disableSchemeBlocking: flag)
    }

    /// Reads the overrides from the Info.plist dictionary written as JSON (a policy file's `infoPlist`).
    static func overrides(_ field: JSONCursor) throws(FormatError) -> InfoPlistOverrides {
        let root = try field.anyMembers(what: "the Info.plist dictionary")
        guard let appConnect = root.first(where: { ExactText.same($0.key, appConnectKey) })?.value else { return InfoPlistOverrides() }
        let members = try appConnect.anyMembers(what: "the MI_APP_CONNECT dictionary")
        guard let value = members.first(where: { ExactText.same($0.key, disableSchemeBlockingKey) })?.value else { return InfoPlistOverrides() }
        guard case .bool(let flag) = value.value else {
            throw value.error("must be true or false (a Boolean in the Info.plist), not \(value.found): write true")
        }
        return InfoPlistOverrides(disableSchemeBlocking: flag)
    }
}
