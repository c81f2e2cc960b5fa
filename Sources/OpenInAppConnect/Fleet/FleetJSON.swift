import OpenInCore
import OpenInFleet
import OpenInKit

/// The fleet file (JSON): the global policy, container policies, app configurations, apps and device profiles.
///
/// ```json
/// {
///   "global": {"authorizeAppsWithoutContainerPolicy": false, "openInPolicy": "appconnect",
///              "openFromPolicy": "authorized", "pasteboardPolicy": "securecopy",
///              "printPolicy": "authorized", "dragAndDropPolicy": "appconnect"},
///   "containerPolicies": [{"name": "HR", "app": "com.corp.hr", "labels": ["Sales"],
///                          "openInPolicy": "whitelist", "openInWhitelist": ["com.corp.viewer"]}],
///   "appConfigurations": [{"app": "com.corp.hr", "labels": ["Sales"], "config": {"MI_AC_DISABLE_SCHEME_BLOCKING": "true"}}],
///   "apps": [{"bundleID": "com.corp.hr", "appconnect": true, "allowsCustomKeyboards": false}, {"bundleID": "com.getdropbox.Dropbox", "appconnect": false}],
///   "devices": {"sales-iphone": {"labels": ["Sales"], "installed": ["com.corp.hr", "com.getdropbox.Dropbox"],
///                                "schemeHandlers": {"dropbox": "com.getdropbox.Dropbox"}, "secureServicesAvailable": true}}
/// }
/// ```
///
/// An app's `allowsCustomKeyboards` (default `true`) is its own answer on custom keyboards, asked
/// only when its app configuration does not set `MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS`.
/// A policy object's controls use the policy file's keys and values (``PolicyJSON``). Fails
/// closed: an unknown key (with "Did you mean"), a value of the wrong type, an invalid bundle
/// ID, a key that belongs elsewhere in a fleet (`device`, `config`, `infoPlist`) is an error
/// naming the key path, line and column; bundle IDs and labels are compared byte for byte.
public enum FleetJSON {
    /// The top-level keys.
    package static let topLevelKeys = ["description", "global", "containerPolicies", "appConfigurations", "apps", "devices", "$schema"]
    /// The control keys a global or container policy may set: the policy file's.
    static let controlKeys = ["openInPolicy", "openInWhitelist", "openFromPolicy", "openFromWhitelist", "pasteboardPolicy", "printPolicy", "dragAndDropPolicy"]
    /// Policy-file keys that a fleet holds elsewhere, with where.
    static let movedKeys: [(key: String, whereInstead: String)] = [
        ("device", "device facts go in devices.NAME (labels, installed, schemeHandlers, emailPlusInstalled, secureServicesAvailable); a fleet's AppConnect apps follow from its container policies, so device.appConnectApps is never given"),
        ("config", "app-specific configuration goes in appConfigurations: [{\"app\", \"labels\", \"config\"}]"),
        ("infoPlist", "an app's Info.plist goes in apps[]: {\"bundleID\", \"appconnect\", \"infoPlist\"}"),
        ("enforcing", "in a fleet an app enforces when it is an authorized AppConnect app; a non-AppConnect app (\"appconnect\": false) does not"),
    ]
    /// The share-sheet activities a global or container policy excludes: not a control a request needs, a list the sender's rule 4 reads.
    static let excludedActivitiesKey = "excludedAppleActivityTypes"
    static let globalKeys = ["description", "authorizeAppsWithoutContainerPolicy"] + controlKeys + [excludedActivitiesKey]
    static let containerKeys = ["name", "description", "app", "labels"] + controlKeys + [excludedActivitiesKey]
    static let configurationKeys = ["name", "app", "labels", "config"]
    static let appKeys = ["bundleID", "appconnect", "urlSchemes", "infoPlist", "allowsCustomKeyboards"]
    static let deviceKeys = ["labels", "installed", "schemeHandlers", "emailPlusInstalled", "emailPlusBundleIDs", "secureServicesAvailable"]

    /// Reads a fleet file's text.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the path to name in errors and explanations.
    /// - Throws: `FormatError` located in `file`, with the key path, line and column of the first problem.
    public static func read<Bytes: Collection>(_ bytes: Bytes, file: String) throws(FormatError) -> Fleet where Bytes.Element == UInt8 {
        try read(bytes, file: file, partsFrom: JSONReader().partsFrom)
    }

    /// ``read(_:file:)``, its apps and container policies read in parts across the cores as the text is parsed when their
    /// lists take `partsFrom` bytes or more (`nil`: never; a test sets it low to split small fleets): each is read from its
    /// object as soon as the object is parsed, so the tree never holds them all.
    package static func read<Bytes: Collection>(_ bytes: Bytes, file: String, partsFrom: Int?) throws(FormatError) -> Fleet where Bytes.Element == UInt8 {
        var fleet = try FormatError.readJSON(bytes, file: file, partsFrom: partsFrom, mapping: ["apps", "containerPolicies"]) { key, cursor in
            key == 0 ? Element.app(Result { () throws(FormatError) in try readApp(cursor) }) : .policy(Result { () throws(FormatError) in try readContainerPolicy(cursor) })
        } _: { (value, read) throws(FormatError) in
            var read = read
            return try self.read(value, apps: read[0].take(), policies: read[1].take())
        }
        fleet.file = file
        return fleet
    }

    /// An element of `apps` or `containerPolicies` read as the text is parsed (``read(_:file:partsFrom:)``).
    enum Element {
        case app(Result<FleetApp, FormatError>)
        case policy(Result<ContainerPolicy, FormatError>)
        /// What an element's place holds once it is taken (nothing to release).
        case taken
    }

    /// What `elements` (read as the text was parsed) hold, each moved out by `take` (no policy copied), in order up to the
    /// first that failed; and that failure.
    static func values<T>(_ elements: consuming [Element], _ take: (consuming Element) -> Result<T, FormatError>) -> (values: [T], failure: FormatError?) {
        var elements = elements
        var values: [T] = []
        values.reserveCapacity(elements.count)
        for index in elements.indices {
            // Each element exchanged for `taken` in its place: moved out, not copied (nor the array reversed to pop them).
            var element = Element.taken
            swap(&element, &elements[index])
            switch take(element) {
            case .success(let value): values.append(value)
            case .failure(let error): return (values, error)
            }
        }
        return (values, nil)
    }

    /// Reads a fleet from a JSON value.
    package static func read(_ value: JSONValue) throws(FormatError) -> Fleet { try read(value, apps: nil, policies: nil) }

    /// ``read(_:)``, with `apps` and `policies`, when given, the elements of its `apps` and `containerPolicies` already read
    /// (``read(_:file:partsFrom:)``), in order.
    static func read(_ value: JSONValue, apps readApps: consuming [Element]?, policies readPolicies: consuming [Element]?) throws(FormatError) -> Fleet {
        let root = JSONCursor(value)
        guard case .object = value else { throw root.error("a fleet file must hold a JSON object, not \(root.found)") }
        let fields = try members(root, allowed: topLevelKeys, what: "the fleet")
        if let description = fields["description"] { _ = try description.string() }
        // "$schema" names the JSON Schema editors validate and complete with; the reader checks everything itself.
        if let schema = fields["$schema"] { _ = try schema.string() }
        guard let globalField = fields["global"] else {
            throw FormatError("global is missing: add \"global\": {\"authorizeAppsWithoutContainerPolicy\": false, \"openInPolicy\": …} (the AppConnect global policy)",
                              at: JSONPosition(line: 1, column: 1))
        }
        let global = try readGlobal(globalField)
        var apps: [FleetApp] = []
        var listed: Set<BundleID> = []
        if let field = fields["apps"] {
            let elements = try field.elements(what: "the organisation's apps")
            listed.reserveCapacity(elements.count)
            let check = { (read: [FleetApp], index: Int) throws(FormatError) in
                let id = read[index].bundleID
                if !listed.insert(id).inserted { throw elements[index].error("\(id) is listed twice: list each app once") }
            }
            apps = try readEach(elements, readApps.take(), readApp, checking: check) { (element) -> Result<FleetApp, FormatError> in
                if case .app(let app) = consume element { return app }
                preconditionFailure("an element of apps read as a policy")
            }
        }
        var policies: [ContainerPolicy] = []
        var names: [ExactKey: Int] = [:]
        if let field = fields["containerPolicies"] {
            let elements = try field.elements(what: "the AppConnect container policies")
            names.reserveCapacity(elements.count)
            let check = { (read: [ContainerPolicy], index: Int) throws(FormatError) in
                let name = read[index].name
                if let same = names[ExactKey(name)] {
                    throw elements[index].error("a container policy named \(JSONWriter.quoted(name)) is given twice (also on line \(read[same].line ?? 0)): give each policy its own name")
                }
                names[ExactKey(name)] = index
            }
            policies = try readEach(elements, readPolicies.take(), readContainerPolicy, checking: check) { (element) -> Result<ContainerPolicy, FormatError> in
                if case .policy(let policy) = consume element { return policy }
                preconditionFailure("an element of containerPolicies read as an app")
            }
        }
        var configurations: [AppConfiguration] = []
        if let field = fields["appConfigurations"] {
            for element in try field.elements(what: "the AppConnect app configurations") {
                configurations.append(try readConfiguration(element))
            }
        }
        var devices: [DeviceProfile] = []
        if let field = fields["devices"] {
            for (name, cursor, _) in try field.anyMembers(what: "the device profiles, by name") {
                devices.append(try readDevice(name: name, cursor))
            }
        }
        return Fleet(global: global, containerPolicies: policies, appConfigurations: configurations, apps: apps, devices: devices)
    }

    /// Each element read by `read`, in parts across the cores; then `check` sees each one in order, against those before
    /// it (given the array and the index: no element copied), and a failed read is thrown after the checks of the elements
    /// before it: the errors one loop over the elements meets, in its order.
    static func readEach<T>(_ elements: [JSONCursor], _ read: (JSONCursor) throws(FormatError) -> T,
                            checking check: ([T], Int) throws(FormatError) -> Void) throws(FormatError) -> [T] {
        let made = Parallel.fill(elements.count, minimum: 256) { (index) throws(FormatError) in try read(elements[index]) }
        for index in made.values.indices { try check(made.values, index) }
        if let failure = made.failure { throw failure }
        return made.values
    }

    /// ``readEach(_:_:checking:)``, or, when `read` holds every element already read as the text was parsed, its values (each
    /// moved out by `take`, ``values(_:_:)``) seen by `check` in order, then the failure, if any, thrown: the same errors.
    static func readEach<T>(_ elements: [JSONCursor], _ read: consuming [Element]?, _ reader: (JSONCursor) throws(FormatError) -> T,
                            checking check: ([T], Int) throws(FormatError) -> Void,
                            taking take: (consuming Element) -> Result<T, FormatError>) throws(FormatError) -> [T] {
        guard read?.count == elements.count, let read = read.take() else { return try readEach(elements, reader, checking: check) }
        let (values, failure) = values(read, take)
        for index in values.indices { try check(values, index) }
        if let failure { throw failure }
        return values
    }

    /// The object's members, after checking each key; a policy-file key that a fleet holds elsewhere says where.
    package static func members(_ cursor: JSONCursor, allowed: [String], what: String) throws(FormatError) -> JSONFields {
        do throws(FormatError) {
            return try cursor.members(allowed: allowed, what: what)
        } catch {
            // A key that is not allowed: one a fleet holds elsewhere says where, wherever it is among the members.
            if case .object(let object) = cursor.value {
                for member in object.members where !ExactText.isOne(member.key, of: allowed) {
                    if let moved = movedKeys.first(where: { ExactText.same($0.key, member.key) }) {
                        let path = cursor.path.isEmpty ? member.key : "\(cursor.path).\(member.key)"
                        throw FormatError("\(path): not in a fleet: \(moved.whereInstead)", at: member.keyPosition)
                    }
                }
            }
            throw error
        }
    }

    static func readGlobal(_ cursor: JSONCursor) throws(FormatError) -> GlobalPolicy {
        let fields = try members(cursor, allowed: globalKeys, what: "the AppConnect global policy")
        if let description = fields["description"] { _ = try description.string() }
        guard let authorize = fields["authorizeAppsWithoutContainerPolicy"] else {
            throw cursor.error("authorizeAppsWithoutContainerPolicy is missing: say whether AppConnect apps with no container policy are authorized (true or false)")
        }
        var controls = try readControls(fields)
        controls.sources.path = cursor.path
        controls.sources.line = cursor.position?.line
        return GlobalPolicy(authorizeAppsWithoutContainerPolicy: try authorize.bool(), controls: controls)
    }

    /// Reads the controls of a policy object with the policy file's readers.
    static func readControls(_ fields: JSONFields) throws(FormatError) -> PolicyControls {
        var controls = PolicyControls()
        controls.sources.record(fields)
        // The Open In whitelist and the excluded activities as read here, when every entry is a valid ID (each ID made once);
        // otherwise read again below, entry by entry, so the error names the entry.
        var openInIDs: [BundleID]? = nil, openFromIDs: [BundleID]? = nil, excludedIDs: [BundleID]? = nil
        for (n, list) in ["openInWhitelist", "openFromWhitelist", excludedActivitiesKey].enumerated() {
            guard let field = fields[list], case .array(let array) = field.value else { continue }
            // Each entry's source from the array itself: no cursor, and no key path made per entry.
            var entries = EntrySources(list: field.path, capacity: array.count)
            var ids: [BundleID]? = []
            ids?.reserveCapacity(array.count)
            for index in array.indices {
                guard case .string(let text) = array[index], let id = try? BundleID(text) else {
                    ids = nil
                    continue
                }
                ids?.append(id)
                entries.add(id, element: index, line: array.position(at: index)?.line)
            }
            controls.sources.entries[list] = entries
            if n == 0 { openInIDs = ids } else if n == 1 { openFromIDs = ids } else { excludedIDs = ids }
        }
        if let field = fields["openInPolicy"] { controls.openIn = try PolicyJSON.setting(field) }
        if let field = fields["openInWhitelist"] {
            guard let setting = controls.openIn else {
                throw field.error("a whitelist without openInPolicy in the same policy: set openInPolicy to \"whitelist\" here too (a control comes whole from one policy)")
            }
            if setting == .allAppConnectApps {
                throw field.error("cannot be combined with openInPolicy \"appconnect\": \"All AppConnect apps\" lists the device's authorized AppConnect apps, which the fleet works out")
            }
            let ids = if let openInIDs { openInIDs } else { try PolicyJSON.bundleIDs(field, what: "bundle IDs") }
            controls.openInWhitelist = Whitelist(ids)
        }
        if let list = fields["openFromWhitelist"], fields["openFromPolicy"] == nil {
            throw list.error("a whitelist without openFromPolicy in the same policy: set openFromPolicy to \"whitelist\" here too (a control comes whole from one policy)")
        }
        var inputs = PolicyInputs(setting: .status(.unauthorized))
        try PolicyJSON.readDataControls(fields, lists: PolicyJSON.ReadWhitelists(), openFromIDs: openFromIDs, into: &inputs)
        controls.openFrom = inputs.stated.openFrom
        controls.pasteboard = inputs.stated.pasteboard
        controls.print = inputs.stated.print
        if let field = fields[excludedActivitiesKey] {
            controls.excludedActivityTypes = if let excludedIDs { excludedIDs } else { try PolicyJSON.bundleIDs(field, what: "Apple activity types, such as com.apple.UIKit.activity.AirDrop") }
        }
        if let field = fields["dragAndDropPolicy"] {
            let text = try field.string()
            do throws(InputError) {
                controls.dragAndDrop = try DragAndDropPolicy(parsing: text)
            } catch {
                throw field.error(error.description)
            }
        }
        return controls
    }

    package static func bundleID(_ cursor: JSONCursor) throws(FormatError) -> BundleID {
        let text = try cursor.string()
        do throws(InputError) {
            return try BundleID(text)
        } catch {
            throw cursor.error(error.description)
        }
    }

    package static func labels(_ cursor: JSONCursor) throws(FormatError) -> [String] {
        // Fast: a few distinct names (a policy's one or two labels) need no cursor, nor a table, per element. Anything
        // else is read element by element below, so errors are exactly as before.
        if case .array(let array) = cursor.value, array.count <= 8 {
            var labels: [String] = []
            labels.reserveCapacity(array.count)
            for element in array.elements {
                guard case .string(let text) = element, !text.isEmpty, !labels.contains(where: { ExactText.same($0, text) }) else { break }
                labels.append(text)
            }
            if labels.count == array.count { return labels }
        }
        var labels: [String] = []
        var seen: Set<ExactKey> = []
        for (text, element) in try cursor.strings(what: "label names") {
            if text.isEmpty { throw element.error("is empty: a label has a name") }
            if !seen.insert(ExactKey(text)).inserted { throw element.error("the label \(JSONWriter.quoted(text)) is given twice: give it once") }
            labels.append(text)
        }
        return labels
    }

    static func readContainerPolicy(_ cursor: JSONCursor) throws(FormatError) -> ContainerPolicy {
        let fields = try members(cursor, allowed: containerKeys, what: "an AppConnect container policy")
        guard let name = fields["name"] else { throw cursor.error("name is missing: give the container policy a name") }
        guard let app = fields["app"] else { throw cursor.error("app is missing: give the bundle ID of the app the policy applies to") }
        guard let labels = fields["labels"] else { throw cursor.error("labels is missing: list the labels that bring the policy to devices") }
        if let description = fields["description"] { _ = try description.string() }
        var controls = try readControls(fields)
        controls.sources.path = cursor.path
        controls.sources.line = cursor.position?.line
        return ContainerPolicy(name: try name.string(), app: try bundleID(app), labels: try self.labels(labels),
                               controls: controls, line: cursor.position?.line)
    }

    static func readConfiguration(_ cursor: JSONCursor) throws(FormatError) -> AppConfiguration {
        let fields = try members(cursor, allowed: configurationKeys, what: "an AppConnect app configuration")
        guard let app = fields["app"] else { throw cursor.error("app is missing: give the bundle ID of the app the configuration applies to") }
        guard let labels = fields["labels"] else { throw cursor.error("labels is missing: list the labels that bring the configuration to devices") }
        guard let config = fields["config"] else { throw cursor.error("config is missing: give the key-value pairs, {\"KEY\": \"value\"}") }
        var configuration = AppConfiguration(name: try fields["name"].map { cursor throws(FormatError) in try cursor.string() }, app: try bundleID(app),
                                             labels: try self.labels(labels), config: AppConfig(try PolicyJSON.config(config)), line: cursor.position?.line)
        configuration.sources = SettingSources(object: cursor)
        configuration.sources.record(fields)
        for (key, value, _) in try config.anyMembers(what: "the key-value pairs") { configuration.sources.config[ExactKey(key)] = ValueSource(value) }
        return configuration
    }

    static func readApp(_ cursor: JSONCursor) throws(FormatError) -> FleetApp {
        let fields = try members(cursor, allowed: appKeys, what: "an app: bundleID, appconnect, urlSchemes, infoPlist, allowsCustomKeyboards")
        guard let id = fields["bundleID"] else { throw cursor.error("bundleID is missing: give the app's bundle ID") }
        guard let appConnect = fields["appconnect"] else {
            throw cursor.error("appconnect is missing: say whether the app embeds AppConnect (true or false)")
        }
        var app = FleetApp(bundleID: try bundleID(id), appConnect: try appConnect.bool())
        app.sources = SettingSources(object: cursor)
        app.sources.record(fields)
        if app.appConnect, app.bundleID.isNativeMail {
            throw appConnect.error("\(app.bundleID) is native Mail, which never embeds AppConnect: it is always outside the AppConnect apps; write \"appconnect\": false (or leave the app out: native Mail is on every device)")
        }
        if let field = fields["infoPlist"] {
            let contents = try InfoPlist.read(json: field, buildSettings: BuildSettings())
            app.infoPlist = contents.overrides
            for declared in contents.urlSchemes {
                do throws(InputError) {
                    try app.app.addScheme(declared.scheme, from: .infoPlist(file: nil, keyPath: "\(field.path).\(declared.keyPath)", written: declared.written))
                } catch {
                    throw field.error("\(declared.keyPath): \(error.description)")
                }
            }
        }
        // The app's answer to -shouldAllowExtensionPointIdentifier: for custom keyboards (default true),
        // asked only when its app configuration does not set MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS.
        if let keyboards = fields["allowsCustomKeyboards"] { app.app.allowsCustomKeyboards = try keyboards.bool() }
        if let schemes = fields["urlSchemes"] {
            for (scheme, element) in try schemes.strings(what: "the app's own URL schemes") {
                do throws(InputError) {
                    try app.app.addScheme(scheme, from: .policyFile(keyPath: element.path))
                } catch {
                    throw element.error(error.description)
                }
            }
        }
        return app
    }

    static func readDevice(name: String, _ cursor: JSONCursor) throws(FormatError) -> DeviceProfile {
        if name.isEmpty { throw cursor.error("a device profile needs a name: give it a non-empty key") }
        if let problem = ExactText.asciiProblem(in: name) { throw cursor.error("the device name \(problem)") }
        if case .object(let object) = cursor.value, let given = object.member("appConnectApps") {
            throw FormatError("\(cursor.path).appConnectApps: not in a fleet: a device's AppConnect apps are its installed apps that a container policy (or the global policy's authorizeAppsWithoutContainerPolicy) authorizes; list the apps in installed",
                              at: given.keyPosition)
        }
        let fields = try members(cursor, allowed: deviceKeys, what: "a device profile")
        guard let labels = fields["labels"] else { throw cursor.error("labels is missing: list the labels the device carries ([] for none)") }
        guard let installedField = fields["installed"] else { throw cursor.error("installed is missing: list the bundle IDs of the apps installed on the device") }
        var installed: [BundleID] = []
        var seen: Set<BundleID> = []
        guard case .array(let installedArray) = installedField.value else {
            throw installedField.error("must be an array (the installed apps' bundle IDs), not \(installedField.found)")
        }
        installed.reserveCapacity(installedArray.count)
        seen.reserveCapacity(installedArray.count)
        for index in installedArray.indices {
            // A valid ID needs no cursor; an element's cursor (its key path) is made only for an error.
            let id: BundleID
            if case .string(let text) = installedArray[index], let valid = try? BundleID(text) {
                id = valid
            } else {
                id = try bundleID(installedField.element(index)!)
            }
            if !seen.insert(id).inserted { throw installedField.element(index)!.error("\(id) is listed twice: list each app once") }
            installed.append(id)
        }
        // The policy file's device reader reads the facts it shares with a device profile.
        let shared = ["schemeHandlers", "emailPlusInstalled", "emailPlusBundleIDs", "secureServicesAvailable"]
        var subset: [JSONObject.Member] = []
        if case .object(let object) = cursor.value {
            subset = object.members.filter { ExactText.isOne($0.key, of: shared) }
        }
        var facts = try PolicyJSON.device(JSONCursor(.object(JSONObject(members: subset)), path: cursor.path, position: cursor.position))
        var handlerSources: [String: ValueSource] = [:]
        if let handlers = fields["schemeHandlers"] {
            for handler in try DeviceFactsRules.schemeHandlers(handlers) {
                if !seen.contains(handler.app) { try DeviceFactsRules.refuseHandlerNotInstalled(handler.app, handler.cursor, listed: installed.contains(handler.app), installed: installed) }
                if let scheme = try? URLScheme.normalize(handler.scheme) { handlerSources[scheme] = ValueSource(handler.cursor) }
            }
        }
        let emailPlusListed = facts.emailPlusBundleIDs.contains(where: seen.contains)
        if let given = fields["emailPlusInstalled"] {
            if facts.emailPlusInstalled != emailPlusListed {
                throw given.error("says \(facts.emailPlusInstalled) but installed \(emailPlusListed ? "lists" : "does not list") Email+ (\(facts.emailPlusTarget)): make them agree, or leave emailPlusInstalled out")
            }
        } else {
            facts.emailPlusInstalled = emailPlusListed
        }
        var profile = DeviceProfile(name: name, labels: try self.labels(labels), installed: installed, facts: facts)
        profile.sources = SettingSources(object: cursor)
        profile.sources.record(fields)
        var entries = EntrySources(list: installedField.path, capacity: installed.count)
        if case .array(let array) = installedField.value {
            // Every element is a valid ID by now, each given once (checked above).
            for (index, id) in installed.enumerated() { entries.add(id, element: index, line: array.position(at: index)?.line) }
        }
        profile.sources.entries["installed"] = entries
        for (scheme, source) in handlerSources { profile.sources.keys["schemeHandlers.\(scheme)"] = source }
        return profile
    }
}
