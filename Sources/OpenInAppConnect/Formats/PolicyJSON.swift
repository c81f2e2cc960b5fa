import OpenInCore
import OpenInFleet
import OpenInKit

/// The JSON policy file: the policy, the app's settings and the device facts `openin-check` reads.
///
/// ```json
/// {
///   "description": "Whitelist with native Mail",
///   "openInPolicy": "whitelist",
///   "openInWhitelist": ["com.apple.UIKit.activity.Mail", "com.apple.mobilemail"],
///   "config": {"MI_AC_DISABLE_SCHEME_BLOCKING": "true"},
///   "infoPlist": {"MI_APP_CONNECT": {"MI_AC_DISABLE_SCHEME_BLOCKING": true},
///                 "CFBundleURLTypes": [{"CFBundleURLSchemes": ["accom.example.app"]}]},
///   "device": {"emailPlusInstalled": true, "emailPlusBundleIDs": ["com.mobileiron.ios.emailplus"],
///              "schemeHandlers": {"box": "net.box.BoxNet"}, "appConnectApps": ["com.example.docs"]},
///   "app": {"urlSchemes": ["myapp"]},
///   "dragAndDropPolicy": "appconnect",
///   "openFromPolicy": "whitelist", "openFromWhitelist": ["com.example.docs"],
///   "pasteboardPolicy": "securecopy", "printPolicy": "unauthorized",
///   "webDLP": "not-allowed", "excludedAppleActivityTypes": ["com.apple.UIKit.activity.AirDrop"],
///   "enforcing": true
/// }
/// ```
///
/// Only `openInPolicy` is required; a request on `open-from`, `copy` or `print`
/// needs the policy to set that channel's control (``Policy/check(_:)``). It fails closed: an unknown key, a value
/// of the wrong type, an invalid bundle ID, scheme or policy value is an
/// error naming the key path and its line and column, never a default.
public enum PolicyJSON {
    /// The top-level keys.
    package static let topLevelKeys = ["description", "openInPolicy", "openInWhitelist", "config", "infoPlist", "device", "app", "dragAndDropPolicy", "enforcing",
                                "openFromPolicy", "openFromWhitelist", "pasteboardPolicy", "printPolicy", "webDLP", "excludedAppleActivityTypes", "$schema"]
    /// The keys of `device`.
    static let deviceKeys = ["emailPlusInstalled", "emailPlusBundleIDs", "schemeHandlers", "appConnectApps", "secureServicesAvailable",
                             "webAtWorkInstalled", "webAtWorkBundleIDs"]
    /// The keys of `app`.
    static let appKeys = ["urlSchemes", "allowsCustomKeyboards"]

    /// Reads a policy file's text.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - buildSettings: values for build-setting references in `infoPlist`'s URL schemes.
    /// - Throws: `FormatError` with the line and column of the first problem.
    public static func read<Bytes: Collection>(_ bytes: Bytes, buildSettings: BuildSettings = BuildSettings()) throws(FormatError) -> PolicyInputs where Bytes.Element == UInt8 {
        try read(bytes, reader: JSONReader(), buildSettings: buildSettings)
    }

    /// Reads a policy file's text with `reader`.
    /// - Throws: `FormatError` with the line and column of the first problem.
    package static func read<Bytes: Collection>(_ bytes: Bytes, reader: JSONReader,
                                                buildSettings: BuildSettings = BuildSettings()) throws(FormatError) -> PolicyInputs where Bytes.Element == UInt8 {
        var owned = Array(bytes)
        return try read(owning: &owned, reader: reader, buildSettings: buildSettings)
    }

    /// The top-level keys whose arrays are whitelists, read in place.
    static let listKeys = ["openInWhitelist", "openFromWhitelist"]

    /// Reads a policy file's text, using `bytes` as the whitelists' storage: their bundle IDs are
    /// decoded over the text they were read from (``JSONReader/readInPlace(_:listKeys:isElement:)``), so a
    /// large whitelist is neither a tree of strings nor a second copy of the file. `bytes` is
    /// changed; give a buffer no one else holds (another holder would make it copied first).
    /// - Throws: `FormatError` with the line and column of the first problem, as ``read(_:buildSettings:)``.
    package static func read(owning bytes: inout [UInt8], reader: JSONReader = JSONReader(),
                             buildSettings: BuildSettings = BuildSettings()) throws(FormatError) -> PolicyInputs {
        var read: InPlaceRead
        do throws(JSONError) {
            read = try bytes.withUnsafeMutableBufferPointer { (buffer) throws(JSONError) -> InPlaceRead in
                try reader.readInPlace(buffer, listKeys: listKeys, isElement: BundleID.isValid)
            }
        } catch {
            throw FormatError("not valid JSON: \(error.message)", at: error.position)
        }
        // Each list's table, made while the buffer is still this function's alone (indexing drops repeats
        // in place); the lists share the buffer only once every table is made, so it is never copied.
        var lists = ReadWhitelists(lists: read.lists)
        let firstTable = read.lists.count > 0 ? index(&lists.lists.first, in: &bytes) : nil
        let secondTable = read.lists.count > 1 ? index(&lists.lists.second, in: &bytes) : nil
        if let firstTable { lists.first = makeWhitelist(lists.lists.first, table: firstTable, bytes: bytes) }
        if let secondTable { lists.second = makeWhitelist(lists.lists.second, table: secondTable, bytes: bytes) }
        return try self.read(read.value, lists: lists, buildSettings: buildSettings)
    }

    /// The whitelist at `field`: read in place when `read` was, else from the tree; the errors are the same.
    package static func whitelist(_ field: JSONCursor, what: String, read: (list: InPlaceList, whitelist: Whitelist?)) throws(FormatError) -> Whitelist {
        guard read.list.wasRead else { return Whitelist(try bundleIDs(field, what: what)) }
        if let problem = read.list.firstNotString {
            throw FormatError("\(field.path)[\(problem.index)]: must be a string, not \(problem.text)", at: problem.position)
        }
        if let problem = read.list.firstInvalid {
            do throws(InputError) {
                _ = try BundleID(problem.text)
            } catch {
                throw FormatError("\(field.path)[\(problem.index)]: \(error.description)", at: problem.position)
            }
        }
        guard let whitelist = read.whitelist else {
            throw field.error("the reader found no valid list here")  // not reached: a list without a problem is indexed
        }
        return whitelist
    }

    /// The table of `list`'s IDs (when it has no problem), made dropping repeats in `bytes`.
    private static func index(_ list: inout InPlaceList, in bytes: inout [UInt8]) -> BundleIDList.Table? {
        guard list.firstNotString == nil, list.firstInvalid == nil else { return nil }
        let start = list.start
        return bytes.withUnsafeMutableBufferPointer { BundleIDList.index($0, start: start, ends: &list.ends) }
    }

    /// The whitelist of an indexed `list`, over `bytes`.
    private static func makeWhitelist(_ list: InPlaceList, table: BundleIDList.Table, bytes: [UInt8]) -> Whitelist {
        Whitelist(list: BundleIDList(bytes: bytes, start: list.start, ends: list.ends, table: table))
    }

    /// The whitelists read in place: the reader's lists, with the whitelist each list without a problem made.
    package struct ReadWhitelists {
        package var lists = InPlaceLists()
        package var first: Whitelist? = nil
        package var second: Whitelist? = nil

        /// The list read for `key` and its whitelist, or a list whose ``InPlaceList/wasRead`` is false.
        package func list(_ key: String) -> (list: InPlaceList, whitelist: Whitelist?) {
            if lists.count > 0, ExactText.same(lists.first.key, key) { return (lists.first, first) }
            if lists.count > 1, ExactText.same(lists.second.key, key) { return (lists.second, second) }
            return (InPlaceList(key: "", start: 0), nil)
        }
    }

    /// Reads a policy from a JSON value.
    /// - Parameters:
    ///   - value: the policy file's JSON.
    ///   - buildSettings: values for build-setting references in `infoPlist`'s URL schemes.
    /// - Throws: `FormatError`.
    package static func read(_ value: JSONValue, buildSettings: BuildSettings = BuildSettings()) throws(FormatError) -> PolicyInputs {
        try read(value, lists: ReadWhitelists(), buildSettings: buildSettings)
    }

    /// Reads a policy from a JSON value whose whitelists at ``listKeys`` may have been read in place (`lists`).
    package static func read(_ value: JSONValue, lists: ReadWhitelists, buildSettings: BuildSettings) throws(FormatError) -> PolicyInputs {
        let root = JSONCursor(value)
        guard case .object = value else {
            throw root.error("a policy file must hold a JSON object, not \(root.found)")
        }
        let fields = try root.members(allowed: topLevelKeys, what: "the policy")
        if let description = fields["description"] { _ = try description.string() }
        // "$schema" names the JSON Schema editors validate and complete with; the reader checks everything itself.
        if let schema = fields["$schema"] { _ = try schema.string() }
        guard let policyField = fields["openInPolicy"] else {
            throw FormatError("openInPolicy is missing: add \"openInPolicy\": \"unauthorized\", \"authorized\", \"whitelist\" or \"appconnect\"",
                              at: JSONPosition(line: 1, column: 1))
        }
        var inputs = PolicyInputs(setting: try setting(policyField))
        if let field = fields["openInWhitelist"] {
            if inputs.setting == .allAppConnectApps {
                throw field.error("cannot be combined with openInPolicy \"appconnect\": \"All AppConnect apps\" lists the device's AppConnect apps; list them in device.appConnectApps")
            }
            inputs.stated.whitelist = try whitelist(field, what: "bundle IDs", read: lists.list("openInWhitelist"))
        }
        if let field = fields["config"] { inputs.stated.config = AppConfig(try config(field)) }
        if let field = fields["infoPlist"] {
            let contents = try InfoPlist.read(json: field, buildSettings: buildSettings)
            inputs.stated.infoPlist = contents.overrides
            for declared in contents.urlSchemes {
                do throws(InputError) {
                    try inputs.stated.app.addScheme(declared.scheme, from: .infoPlist(file: nil, keyPath: declared.keyPath, written: declared.written))
                } catch {
                    throw field.error("\(declared.keyPath): \(error.description)")
                }
            }
        }
        if let field = fields["device"] { inputs.stated.device = try device(field) }
        if let field = fields["app"] {
            let app = try field.members(allowed: appKeys, what: "facts about the app")
            if let keyboards = app["allowsCustomKeyboards"] { inputs.stated.app.allowsCustomKeyboards = try keyboards.bool() }
            if let schemes = app["urlSchemes"] {
                for (scheme, cursor) in try schemes.strings(what: "the app's own URL schemes") {
                    do throws(InputError) {
                        try inputs.stated.app.addScheme(scheme, from: .policyFile(keyPath: cursor.path))
                    } catch {
                        throw cursor.error(error.description)
                    }
                }
            }
        }
        if let field = fields["dragAndDropPolicy"] {
            let text = try field.string()
            do throws(InputError) {
                inputs.stated.dragAndDrop = try DragAndDropPolicy(parsing: text)
            } catch {
                throw field.error(error.description)
            }
        }
        if let field = fields["enforcing"] { inputs.stated.enforcing = try field.bool() }
        try readDataControls(fields, lists: lists, into: &inputs)
        return inputs
    }

    /// Reads `openFromPolicy`, `openFromWhitelist`, `pasteboardPolicy` and `printPolicy`.
    /// `openFromIDs`, when given, are the entries of `openFromWhitelist`, every one a valid bundle ID, read already.
    static func readDataControls(_ fields: JSONFields, lists: ReadWhitelists, openFromIDs: [BundleID]? = nil, into inputs: inout PolicyInputs) throws(FormatError) {
        var openFromWhitelist: Whitelist? = nil
        if let field = fields["openFromWhitelist"] {
            openFromWhitelist = if let openFromIDs { Whitelist(openFromIDs) } else {
                try whitelist(field, what: "bundle IDs of the apps that may send documents to this app", read: lists.list("openFromWhitelist"))
            }
        }
        if let field = fields["openFromPolicy"] {
            let setting = try controlValue(field, range: 0...2, names: "\"unauthorized\", \"authorized\", \"whitelist\", \"appconnect\"") { text throws(InputError) in
                try OpenFromPolicy.Setting(parsing: text)
            }
            if setting == .allAppConnectApps, let list = fields["openFromWhitelist"] {
                throw list.error("cannot be combined with openFromPolicy \"appconnect\": \"All AppConnect apps\" lists the device's AppConnect apps; list them in device.appConnectApps")
            }
            inputs.stated.openFrom = OpenFromPolicy(setting, whitelist: openFromWhitelist ?? .empty)
        }
        if let field = fields["pasteboardPolicy"] {
            inputs.stated.pasteboard = try controlValue(field, range: 0...2, names: "\"unauthorized\", \"authorized\", \"securecopy\"") { text throws(InputError) in
                try PasteboardPolicy(parsing: text)
            }
        }
        if let field = fields["printPolicy"] {
            inputs.stated.print = try controlValue(field, range: 0...1, names: "\"unauthorized\", \"authorized\"") { text throws(InputError) in
                try PrintPolicy(parsing: text)
            }
        }
        if let field = fields["webDLP"] {
            guard case .string(let text) = field.value else {
                throw field.error("must be the string \"allowed\" or \"not-allowed\" (the AppConnect global policy's Web DLP setting), not \(field.found)")
            }
            do throws(InputError) {
                inputs.stated.webDLP = try WebDLPPolicy(parsing: text)
            } catch {
                throw field.error(error.description)
            }
        }
        if let field = fields["excludedAppleActivityTypes"] {
            inputs.stated.excludedActivityTypes = try bundleIDs(field, what: "Apple activity types, such as com.apple.UIKit.activity.AirDrop")
        }
    }

    /// Reads a control's value: a name (string) or an integer in `range`.
    static func controlValue<Value>(_ field: JSONCursor, range: ClosedRange<Int>, names: String,
                                    _ parse: (String) throws(InputError) -> Value) throws(FormatError) -> Value {
        let text: String
        switch field.value {
        case .string(let string):
            try refuseQuotedNumber(field, string, names: names)
            text = string
        case .number(let number):
            guard let integer = number.intValue else {
                throw field.error("the number \(number.literal) is not a policy value: write an integer from \(range.lowerBound) to \(range.upperBound), or a name: \(names)")
            }
            guard range.contains(integer) else {
                throw field.error("\(integer) is out of range: the values are \(range.lowerBound) to \(range.upperBound), or a name: \(names)")
            }
            text = String(integer)
        default:
            throw field.error("must be a name (\(names)) or a number from \(range.lowerBound) to \(range.upperBound), not \(field.found)")
        }
        do throws(InputError) {
            return try parse(text)
        } catch {
            throw field.error(error.description)
        }
    }

    /// One rule for every control: a policy's number is a JSON number, and `"1"` in quotes is a name
    /// no policy has (fail closed, and say why). The server's own files write numbers; a quoted one
    /// is a hand edit whose intent is not certain.
    static func refuseQuotedNumber(_ field: JSONCursor, _ string: String, names: String) throws(FormatError) {
        let digits = string.utf8.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return }
        let shown = Printable.prefix(string)
        throw field.error("the string \(JSONWriter.quoted(shown)) is not a policy value: write the number \(shown) without quotes, or a name \(names)")
    }

    package static func setting(_ field: JSONCursor) throws(FormatError) -> PolicySetting {
        let text: String
        switch field.value {
        case .string(let string):
            try refuseQuotedNumber(field, string, names: "such as \"whitelist\"")
            text = string
        case .number(let number):
            guard let integer = number.intValue else {
                throw field.error("the number \(number.literal) is not a policy: write 0, 1 or 2 as an integer, or a name such as \"whitelist\"")
            }
            text = String(integer)
        default:
            throw field.error("must be a name such as \"whitelist\" or a number 0, 1, 2, not \(field.found)")
        }
        do throws(InputError) {
            return try PolicySetting(parsing: text)
        } catch {
            throw field.error(error.description)
        }
    }

    static func bundleIDs(_ field: JSONCursor, what: String) throws(FormatError) -> [BundleID] {
        // Fast: an array of valid IDs needs no cursor (and key path) per element, which for a
        // 100,000-entry whitelist is most of the load. Anything else is read element by element below,
        // so errors are exactly as before.
        if case .array(let array) = field.value {
            var ids: [BundleID] = []
            ids.reserveCapacity(array.count)
            for element in array.elements {
                guard case .string(let text) = element, let id = try? BundleID(text) else { break }
                ids.append(id)
            }
            if ids.count == array.count { return ids }
        }
        var ids: [BundleID] = []
        for (text, cursor) in try field.strings(what: what) {
            do throws(InputError) {
                ids.append(try BundleID(text))
            } catch {
                throw cursor.error(error.description)
            }
        }
        return ids
    }

    package static func config(_ field: JSONCursor) throws(FormatError) -> [String: String] {
        var config: [String: String] = [:]
        for (key, cursor, _) in try field.anyMembers(what: "the app-specific configuration: string keys and values") {
            guard case .string(let value) = cursor.value else {
                let hint = switch cursor.value {
                case .bool(let value): ": write \"\(value)\" in quotes"
                default: ""
                }
                throw cursor.error("must be a string (the server sends app-specific configuration as strings), not \(cursor.found)\(hint)")
            }
            config[key] = value
        }
        return config
    }


    package static func device(_ field: JSONCursor) throws(FormatError) -> DeviceFacts {
        let fields = try field.members(allowed: deviceKeys, what: "what is installed on the device")
        var device = DeviceFacts()
        if let installed = fields["emailPlusInstalled"] { device.emailPlusInstalled = try installed.bool() }
        if let ids = fields["emailPlusBundleIDs"] {
            let list = try bundleIDs(ids, what: "Email+'s bundle IDs")
            if list.isEmpty { throw ids.error("is empty: list at least one bundle ID, or leave the key out for com.mobileiron.ios.emailplus") }
            device.emailPlusBundleIDs = list
        }
        if let handlers = fields["schemeHandlers"] {
            for handler in try DeviceFactsRules.schemeHandlers(handlers) {
                do throws(InputError) {
                    try device.setHandler(handler.app, for: handler.scheme)
                } catch {
                    throw FormatError("\(handler.cursor.path): \(error.description)", at: handler.keyPosition)
                }
            }
        }
        if let apps = fields["appConnectApps"] {
            device.appConnectApps = Set(try bundleIDs(apps, what: "the device's AppConnect apps"))
        }
        if let available = fields["secureServicesAvailable"] { device.secureServicesAvailable = try available.bool() }
        if let installed = fields["webAtWorkInstalled"] { device.webAtWorkInstalled = try installed.bool() }
        if let ids = fields["webAtWorkBundleIDs"] {
            let list = try bundleIDs(ids, what: "Web@Work's bundle IDs")
            if list.isEmpty { throw ids.error("is empty: list at least one bundle ID, or leave the key out for com.mobileiron.ios.webatwork") }
            device.webAtWorkBundleIDs = list
        }
        return device
    }
}
