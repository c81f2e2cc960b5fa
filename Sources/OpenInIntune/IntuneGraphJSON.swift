import OpenInCore
import OpenInFleet
import OpenInKit

/// Reads Microsoft Intune app protection policies for iOS as Microsoft Graph (beta) JSON: one
/// `iosManagedAppProtection` object, an array of them, a Graph list response (`{"value": [...]}`),
/// or (``read(path:)``) a folder of exported files, as backup tools write them.
///
/// An object is recognised by its `@odata.type`, `#microsoft.graph.iosManagedAppProtection`. The
/// data-transfer properties are read and checked (enum values, types, Graph's constraints
/// between them, ``IntunePolicy/validate()``); every other property Graph documents for the
/// resource is read, its JSON type checked, and ignored (``ignoredProperties``); OData annotations
/// (`@odata.context`, `NAME@odata.type`, …) and the action links exports carry
/// (`#microsoft.graph.assign`) are accepted; anything else is an error naming the file, line,
/// column and property path, with "Did you mean" for a misspelt property.
public enum IntuneGraphJSON {
    /// The `@odata.type` of the resource read.
    public static let odataType = "#microsoft.graph.iosManagedAppProtection"

    /// Other platforms' app protection types, which a folder of exports may hold beside the iOS ones.
    static let otherPlatformTypes = ["#microsoft.graph.androidManagedAppProtection", "#microsoft.graph.windowsManagedAppProtection",
                                     "#microsoft.graph.mdmWindowsInformationProtectionPolicy", "#microsoft.graph.windowsInformationProtectionPolicy",
                                     "#microsoft.graph.defaultManagedAppProtection", "#microsoft.graph.targetedManagedAppConfiguration",
                                     "#microsoft.graph.iosManagedAppConfiguration", "#microsoft.graph.androidManagedAppConfiguration"]

    /// The JSON kind a documented property has.
    package enum Kind { case string, bool, integer, stringArray, object, array, any }

    /// The data-transfer properties the reader uses.
    static let dataTransferProperties = [
        "displayName", "id", "allowedOutboundDataTransferDestinations", "filterOpenInToOnlyManagedApps",
        "disableProtectionOfManagedOutboundOpenInData", "allowedInboundDataTransferSources", "protectInboundDataFromUnknownSources",
        "allowedOutboundClipboardSharingLevel", "allowedOutboundClipboardSharingExceptionLength", "printBlocked", "thirdPartyKeyboardsBlocked", "exemptedAppProtocols",
        "exemptedUniversalLinks", "managedUniversalLinks", "managedBrowserToOpenLinksRequired", "managedBrowser", "customBrowserProtocol",
        "dialerRestrictionLevel", "customDialerAppProtocol", "protectedMessagingRedirectAppType", "messagingRedirectAppUrlScheme",
        "saveAsBlocked", "allowedDataStorageLocations", "blockDataIngestionIntoOrganizationDocuments", "allowedDataIngestionLocations",
        "appGroupType", "apps",
    ]

    /// The properties that say who a policy reaches (read into ``IntunePolicy/assignments``,
    /// ``IntunePolicy/managementLevels`` and ``IntunePolicy/isAssigned``).
    static let scopeProperties = ["assignments", "targetedAppManagementLevels", "isAssigned"]

    /// The data-transfer properties Graph declares non-nullable (enums, Booleans, Int32, collections):
    /// `null` for one of them is an error. Strings (`id`, the protocols, the messaging scheme) may be
    /// `null`, which reads as empty; `displayName` and `apps` are required anyway.
    static let nonNullableProperties = [
        "allowedOutboundDataTransferDestinations", "filterOpenInToOnlyManagedApps", "disableProtectionOfManagedOutboundOpenInData",
        "allowedInboundDataTransferSources", "protectInboundDataFromUnknownSources", "allowedOutboundClipboardSharingLevel",
        "allowedOutboundClipboardSharingExceptionLength", "printBlocked", "thirdPartyKeyboardsBlocked", "exemptedAppProtocols",
        "exemptedUniversalLinks", "managedUniversalLinks", "managedBrowserToOpenLinksRequired", "managedBrowser",
        "dialerRestrictionLevel", "protectedMessagingRedirectAppType", "appGroupType",
    ]

    /// Refuses a partial collection: Graph pages a long list, marking every page but the last with
    /// `@odata.nextLink` (`NAME@odata.nextLink` for a collection inside an object), and
    /// `@odata.count` (`NAME@odata.count`) gives the size of the whole collection. Read as the whole
    /// export, a page would leave every policy (or targeted app) on a later page out, and its apps
    /// would be decided as not targeted: allowed everything.
    static func checkWhole(_ object: JSONObject, count: Int, listed name: String, path: String, fix: String) throws(FormatError) {
        let prefix = ExactText.same(name, "value") ? "" : name
        let what = ExactText.same(name, "value") ? "the list of policies" : "the policy's apps"
        let full = path.isEmpty ? "" : "\(path)."
        if let next = object.member(prefix + "@odata.nextLink") {
            throw FormatError("\(full)\(next.key): \(what) is one page of several, not the whole export: \(fix)", at: next.keyPosition)
        }
        if let total = object.member(prefix + "@odata.count") {
            guard case .number(let number) = total.value, let whole = number.intValue, whole >= 0 else {
                throw FormatError("\(full)\(total.key): must be a whole number (the size of the collection)", at: total.valuePosition ?? total.keyPosition)
            }
            if whole > count {
                throw FormatError("\(full)\(total.key): says \(whole) but \(name) holds \(count): \(what) is partial: \(fix)", at: total.keyPosition)
            }
            if whole < count {
                throw FormatError("\(full)\(total.key): says \(whole) but \(name) holds \(count): the file was edited after export; make them agree or remove \(total.key)", at: total.keyPosition)
            }
        }
    }

    /// Properties Graph documents for `iosManagedAppProtection` (and the types it inherits from) that
    /// do not concern moving data between apps: read, their JSON type checked, and ignored.
    /// (`null` is accepted for each: exports write it for what is not set.)
    public static let ignoredProperties: [(name: String, why: String)] = [
        ("description", "the policy's description"), ("createdDateTime", "metadata"), ("lastModifiedDateTime", "metadata"),
        ("roleScopeTagIds", "scope tags (admin roles)"), ("version", "metadata"),
        ("periodOfflineBeforeAccessCheck", "access checks"), ("periodOnlineBeforeAccessCheck", "access checks"),
        ("organizationalCredentialsRequired", "sign-in"), ("dataBackupBlocked", "backup of the app's own data"),
        ("deviceComplianceRequired", "device conditions"),
        ("periodOfflineBeforeWipeIsEnforced", "wipe"), ("pinRequired", "PIN"), ("maximumPinRetries", "PIN"), ("simplePinBlocked", "PIN"),
        ("minimumPinLength", "PIN"), ("pinCharacterSet", "PIN"), ("periodBeforePinReset", "PIN"),
        ("contactSyncBlocked", "contact sync"),
        ("fingerprintBlocked", "PIN"), ("disableAppPinIfDevicePinIsSet", "PIN"), ("maximumRequiredOsVersion", "OS version"),
        ("maximumWarningOsVersion", "OS version"), ("maximumWipeOsVersion", "OS version"), ("minimumRequiredOsVersion", "OS version"),
        ("minimumWarningOsVersion", "OS version"), ("minimumRequiredAppVersion", "app version"), ("minimumWarningAppVersion", "app version"),
        ("minimumWipeOsVersion", "OS version"), ("minimumWipeAppVersion", "app version"),
        ("appActionIfDeviceComplianceRequired", "device conditions"), ("appActionIfMaximumPinRetriesExceeded", "PIN"),
        ("pinRequiredInsteadOfBiometricTimeout", "PIN"), ("notificationRestriction", "notifications"), ("previousPinBlockCount", "PIN"),
        ("maximumAllowedDeviceThreatLevel", "threat level"), ("mobileThreatDefenseRemediationAction", "threat level"),
        ("mobileThreatDefensePartnerPriority", "threat level"),
        ("appActionIfUnableToAuthenticateUser", "sign-in"), ("gracePeriodToBlockAppsDuringOffClockHours", "working time"),
        ("genmojiConfigurationState", "Apple Intelligence"), ("screenCaptureConfigurationState", "Apple Intelligence"),
        ("writingToolsConfigurationState", "Apple Intelligence"), ("appDataEncryptionType", "encryption at rest"),
        ("minimumRequiredSdkVersion", "SDK version"), ("deployedAppCount", "metadata"), ("faceIdBlocked", "PIN"),
        ("allowWidgetContentSync", "widgets"), ("minimumWipeSdkVersion", "SDK version"), ("allowedIosDeviceModels", "device models"),
        ("appActionIfIosDeviceModelNotAllowed", "device models"), ("appActionIfAccountIsClockedOut", "working time"),
        ("minimumWarningSdkVersion", "SDK version"),
        ("deploymentSummary", "deployment status (relationship)"),
    ]

    /// The JSON kind of each ignored property.
    package static func kind(ofIgnored name: String) -> Kind {
        switch name {
        case "roleScopeTagIds": .stringArray
        case "organizationalCredentialsRequired", "dataBackupBlocked", "deviceComplianceRequired", "pinRequired",
             "simplePinBlocked", "contactSyncBlocked", "fingerprintBlocked", "disableAppPinIfDevicePinIsSet",
             "faceIdBlocked", "allowWidgetContentSync": .bool
        case "maximumPinRetries", "minimumPinLength", "previousPinBlockCount", "deployedAppCount": .integer
        case "deploymentSummary": .object
        default: .string
        }
    }

    /// Reads a file's text: one policy, an array, or a Graph list response, in UTF-8 or UTF-16 with a byte
    /// order mark; a list's entries that hold another platform's policy are left out (``export(_:file:)``
    /// names them).
    /// - Throws: `FormatError` located in `file`, with the line, column and property path of the first problem.
    public static func read<Bytes: Collection>(_ bytes: Bytes, file: String) throws(FormatError) -> [IntunePolicy] where Bytes.Element == UInt8 {
        try export(bytes, file: file).policies
    }

    /// Reads policies from a parsed document whose value starts at `start` (a list's entries that hold
    /// another platform's policy left out, as ``entries(_:at:)`` reads them).
    package static func read(_ value: JSONValue, at start: JSONPosition = JSONPosition(line: 1, column: 1)) throws(FormatError) -> [IntunePolicy] {
        try entries(value, at: start).policies
    }

    /// The `@odata.type` of an object, when it has one.
    static func odataType(of cursor: JSONCursor) -> String? {
        guard case .object(let object) = cursor.value, case .string(let type)? = object["@odata.type"] else { return nil }
        return type
    }

    /// Reads one `iosManagedAppProtection` object.
    static func readPolicy(_ cursor: JSONCursor) throws(FormatError) -> IntunePolicy {
        guard case .object(let object) = cursor.value else { throw cursor.error("must be an iosManagedAppProtection object, not \(cursor.found)") }
        func child(_ member: JSONObject.Member) -> JSONCursor {
            JSONCursor(member.value, path: cursor.path.isEmpty ? member.key : "\(cursor.path).\(member.key)", position: member.valuePosition)
        }
        guard let typeMember = object.member("@odata.type") else {
            throw cursor.error("has no @odata.type: an Intune export names its resource type, \"@odata.type\": \"\(odataType)\" (the reader takes no object it cannot identify)")
        }
        guard case .string(let type) = typeMember.value else { throw child(typeMember).error("must be a string, not \(child(typeMember).found)") }
        guard ExactText.same(type, odataType) else {
            let platform = otherPlatformTypes.contains { ExactText.same($0, type) } ? " (an app protection policy for another platform, or another resource: only iOS app protection policies are read)" : ""
            throw child(typeMember).error("unknown @odata.type \(JSONWriter.quoted(type))\(platform): expected \(odataType).\(Suggestion.phrase(for: type, among: [odataType]))")
        }
        let known = dataTransferProperties + scopeProperties + ignoredProperties.map(\.name)
        var policy = IntunePolicy(displayName: "")
        policy.sources = SettingSources(object: cursor)
        var sawName = false
        var sawApps = false
        for member in object.members {
            let key = member.key
            let field = child(member)
            if key.hasPrefix("@odata.") { continue }
            if key.hasPrefix("#microsoft.graph.") { continue }  // the actions an export advertises (assign, targetApps)
            if let property = annotatedProperty(key) {
                guard ExactText.isOne(property, of: known) else {
                    throw FormatError("\(field.path): an annotation of \(property), which is not a property of iosManagedAppProtection.\(Suggestion.phrase(for: property, among: known))",
                                      at: member.keyPosition)
                }
                continue
            }
            guard ExactText.isOne(key, of: known) else {
                let nonASCII = ExactText.asciiProblem(in: key).map { " (\($0))" } ?? ""
                throw FormatError("\(field.path): unknown property\(nonASCII) of iosManagedAppProtection.\(Suggestion.phrase(for: key, among: known)) Graph's beta resource documents no such property; the reader refuses what it does not know rather than ignore a setting",
                                  at: member.keyPosition)
            }
            if case .null = member.value {
                // Graph declares its enum, Boolean and Int32 properties and its collections non-nullable
                // (only strings may be null): a null there is not "unset", and the documented default
                // (All apps, for the transfer levels) would be an allow the service never gives.
                if ExactText.isOne(key, of: nonNullableProperties) || ExactText.isOne(key, of: scopeProperties) {
                    throw field.error("is null, and Graph's \(key) is not nullable: write its value (the export is damaged or hand-edited; export the policy again)")
                }
                continue
            }
            policy.sources.keys[key] = ValueSource(field)
            switch key {
            case "displayName": policy.displayName = try field.string(); sawName = true
            case "id": policy.id = try field.string()
            case "allowedOutboundDataTransferDestinations": policy.send = try choice(field, IntuneTransferLevel.self, "managedAppDataTransferLevel")
            case "allowedInboundDataTransferSources": policy.receive = try choice(field, IntuneTransferLevel.self, "managedAppDataTransferLevel")
            case "filterOpenInToOnlyManagedApps": policy.filterOpenInToOnlyManagedApps = try field.bool()
            case "disableProtectionOfManagedOutboundOpenInData": policy.disableProtectionOfManagedOutboundOpenInData = try field.bool()
            case "protectInboundDataFromUnknownSources": policy.protectInboundDataFromUnknownSources = try field.bool()
            case "allowedOutboundClipboardSharingLevel": policy.clipboard = try choice(field, IntuneClipboardLevel.self, "managedAppClipboardSharingLevel")
            case "allowedOutboundClipboardSharingExceptionLength":
                guard case .number(let number) = member.value, let length = number.intValue else { throw field.error("must be a whole number (Int32, 0 to 65535), not \(field.found)") }
                policy.clipboardExceptionLength = length
            case "printBlocked": policy.printBlocked = try field.bool()
            case "thirdPartyKeyboardsBlocked": policy.thirdPartyKeyboardsBlocked = try field.bool()
            case "exemptedAppProtocols": policy.exemptions = try readExemptions(field)
            case "exemptedUniversalLinks": policy.exemptedUniversalLinks = try field.strings(what: "universal link patterns").map(\.text)
            case "managedUniversalLinks": policy.managedUniversalLinks = try field.strings(what: "universal link patterns").map(\.text)
            case "managedBrowserToOpenLinksRequired": policy.managedBrowserRequired = try field.bool()
            case "managedBrowser": policy.managedBrowser = try choice(field, IntuneManagedBrowser.self, "managedBrowserType")
            case "customBrowserProtocol": policy.customBrowserProtocol = try field.string()
            case "dialerRestrictionLevel": policy.dialer = try choice(field, IntuneDialerLevel.self, "managedAppPhoneNumberRedirectLevel")
            case "customDialerAppProtocol": policy.customDialerAppProtocol = try field.string()
            case "protectedMessagingRedirectAppType": policy.messaging = try choice(field, IntuneMessagingLevel.self, "messagingRedirectAppType")
            case "messagingRedirectAppUrlScheme": policy.messagingRedirectAppUrlScheme = try field.string()
            case "saveAsBlocked": policy.saveAsBlocked = try field.bool()
            case "allowedDataStorageLocations": policy.allowedDataStorageLocations = try locations(field, DataLocation.storage, "managedAppDataStorageLocation")
            case "blockDataIngestionIntoOrganizationDocuments": policy.blockDataIngestion = try field.bool()
            case "allowedDataIngestionLocations": policy.allowedDataIngestionLocations = try locations(field, DataLocation.ingestion, "managedAppDataIngestionLocation")
            case "appGroupType":
                let group = try field.string()
                let groups = IntuneAppGroups.names
                guard ExactText.isOne(group, of: groups) else {
                    throw field.error("unknown targetedManagedAppGroupType \(JSONWriter.quoted(group)): use \(groups.joined(separator: ", ")).\(Suggestion.phrase(for: group, among: groups))")
                }
                policy.appGroupType = group
            case "assignments": policy.assignments = try IntuneAssignmentsJSON.read(field)
            case "targetedAppManagementLevels": policy.managementLevels = try IntuneAssignmentsJSON.levels(field)
            case "isAssigned": policy.isAssigned = try field.bool()
            case "apps":
                policy.apps = try readApps(field)
                sawApps = true
                if case .array(let listed) = member.value {
                    try checkWhole(object, count: listed.count, listed: "apps", path: cursor.path,
                                   fix: "export the policy with all its apps (GET /beta/deviceAppManagement/iosManagedAppProtections/{id}/apps, following each @odata.nextLink, or $expand=apps as backup tools do) and list them all in apps")
                }
            default:
                try check(field, kind(ofIgnored: key))
            }
        }
        if !sawName { throw cursor.error("has no displayName: Graph requires one for every policy") }
        if !sawApps, let group = policy.appGroupType, !ExactText.same(group, "selectedPublicApps") {
            // Resolved with the devices file (IntuneAppGroups): the export names the group, not its apps.
            policy.appsFromGroup = .unresolved
        } else if !sawApps {
            let group = policy.appGroupType.map { " Its appGroupType is \($0), and Microsoft publishes no fixed list of the apps in that group, so the reader cannot resolve it." } ?? ""
            throw cursor.error("has no apps, so its targeted apps are unknown.\(group) Export the policy with its apps (Graph: GET /beta/deviceAppManagement/iosManagedAppProtections/{id}?$expand=apps, as backup tools do)")
        }
        do throws(InputError) {
            try policy.validate()
        } catch {
            // Located at the property the message starts with (the one whose value breaks the constraint).
            let message = "\(error)"
            let property = String(message.prefix { $0 != " " })
            if let member = object.member(property) { throw child(member).error(String(message.dropFirst(property.count + 1))) }
            throw cursor.error(message)
        }
        return policy
    }

    /// A list of Graph location names (`managedAppDataStorageLocation` or `managedAppDataIngestionLocation`),
    /// each once, with "Did you mean" for an unknown one.
    static func locations(_ field: JSONCursor, _ known: [DataLocation], _ enumName: String) throws(FormatError) -> [DataLocation] {
        var found: [DataLocation] = []
        let names = known.map(\.rawValue)
        for (text, cursor) in try field.strings(what: "\(enumName) values").map({ ($0.text, $0.cursor) }) {
            guard let location = known.first(where: { ExactText.same($0.rawValue, text) }) else {
                let future = ExactText.same(text, "unknownFutureValue") ? " (Graph's marker for values this API version cannot name: export with the beta API, which names them)" : ""
                throw cursor.error("unknown \(enumName) value \(JSONWriter.quoted(text))\(future): use \(names.joined(separator: ", ")).\(Suggestion.phrase(for: text, among: names))")
            }
            if !found.contains(location) { found.append(location) }
        }
        return found
    }

    /// An enum property's value, with "Did you mean".
    package static func choice<E: RawRepresentable & CaseIterable>(_ field: JSONCursor, _ type: E.Type, _ enumName: String) throws(FormatError) -> E where E.RawValue == String {
        let text = try field.string()
        guard let value = E.allCases.first(where: { ExactText.same($0.rawValue, text) }) else {
            let names = E.allCases.map(\.rawValue)
            throw field.error("unknown \(enumName) value \(JSONWriter.quoted(text)): use \(names.joined(separator: ", ")).\(Suggestion.phrase(for: text, among: names))")
        }
        return value
    }

    /// Checks an ignored property's JSON type.
    package static func check(_ field: JSONCursor, _ kind: Kind) throws(FormatError) {
        switch (kind, field.value) {
        case (.string, .string), (.bool, .bool), (.object, .object), (.array, .array), (.any, _): return
        case (.integer, .number(let number)) where number.intValue != nil: return
        case (.stringArray, .array): _ = try field.strings(what: "strings")
        case (.string, _): throw field.error("must be a string, not \(field.found)")
        case (.bool, _): throw field.error("must be true or false, not \(field.found)")
        case (.integer, _): throw field.error("must be a whole number, not \(field.found)")
        case (.stringArray, _), (.array, _): throw field.error("must be an array, not \(field.found)")
        case (.object, _): throw field.error("must be an object, not \(field.found)")
        }
    }

    /// `exemptedAppProtocols`: `keyValuePair` objects whose `value` is a `;`-separated list of URL schemes.
    static func readExemptions(_ field: JSONCursor) throws(FormatError) -> [IntuneExemption] {
        var exemptions: [IntuneExemption] = []
        for element in try field.elements(what: "keyValuePair objects {\"name\", \"value\"}") {
            let fields = try element.members(allowed: ["@odata.type", "name", "value"], what: "a keyValuePair")
            if let type = fields["@odata.type"] {
                let text = try type.string()
                guard ExactText.same(text, "#microsoft.graph.keyValuePair") || ExactText.same(text, "microsoft.graph.keyValuePair") else {
                    throw type.error("unknown @odata.type \(JSONWriter.quoted(text)): an exemption is a #microsoft.graph.keyValuePair")
                }
            }
            guard let nameField = fields["name"] else { throw element.error("has no name: an exemption is {\"name\": \"LABEL\", \"value\": \"scheme;scheme;\"}") }
            guard let valueField = fields["value"] else { throw element.error("has no value: an exemption is {\"name\": \"LABEL\", \"value\": \"scheme;scheme;\"}") }
            let value = try valueField.string()
            var schemes: [String] = []
            for piece in value.split(separator: ";") {
                var scheme = Substring(piece.trimmingSpaces)
                if scheme.isEmpty { continue }
                if scheme.hasSuffix("://") { scheme = scheme.dropLast(3) }
                do throws(InputError) {
                    schemes.append(try URLScheme.normalize(String(scheme)))
                } catch {
                    throw valueField.error("\(error) (in the exemption \(JSONWriter.quoted(value)): write URL schemes separated by ';', such as skype;app-settings;)")
                }
            }
            exemptions.append(IntuneExemption(name: try nameField.string(), schemes: schemes))
        }
        return exemptions
    }

    /// `apps`: `managedMobileApp` objects whose `mobileAppIdentifier` is an iOS bundle ID.
    static func readApps(_ field: JSONCursor) throws(FormatError) -> [BundleID] {
        var apps: [BundleID] = []
        var seen: Set<ExactKey> = []
        for element in try field.elements(what: "managedMobileApp objects") {
            let fields = try element.members(allowed: ["@odata.type", "@odata.id", "@odata.editLink", "id", "version", "mobileAppIdentifier"], what: "a managedMobileApp")
            if let type = fields["@odata.type"], !ExactText.same(try type.string(), "#microsoft.graph.managedMobileApp") {
                throw type.error("unknown @odata.type \(type.found): a targeted app is a #microsoft.graph.managedMobileApp")
            }
            for key in ["@odata.id", "@odata.editLink", "id", "version"] { if let value = fields[key], !isNull(value) { _ = try value.string() } }
            guard let identifier = fields["mobileAppIdentifier"] else {
                throw element.error("has no mobileAppIdentifier: a targeted iOS app is {\"mobileAppIdentifier\": {\"@odata.type\": \"#microsoft.graph.iosMobileAppIdentifier\", \"bundleId\": \"…\"}}")
            }
            let identifierFields = try identifier.members(allowed: ["@odata.type", "bundleId"], what: "an iosMobileAppIdentifier")
            if let type = identifierFields["@odata.type"] {
                let text = try type.string()
                guard ExactText.same(text, "#microsoft.graph.iosMobileAppIdentifier") else {
                    throw type.error("unknown @odata.type \(JSONWriter.quoted(text)): an iOS policy targets apps by #microsoft.graph.iosMobileAppIdentifier")
                }
            }
            guard let bundle = identifierFields["bundleId"] else { throw identifier.error("has no bundleId") }
            let text = try bundle.string()
            do throws(InputError) {
                let id = try BundleID(text)
                if seen.insert(IntuneBundleID.key(id)).inserted { apps.append(id) }
            } catch {
                throw bundle.error("\(error)")
            }
        }
        return apps
    }

    /// `NAME` of a property annotation `NAME@odata.…`, or `nil` when `key` is not one.
    static func annotatedProperty(_ key: String) -> String? {
        let bytes = Array(key.utf8), marker = Array("@odata.".utf8)
        guard bytes.count > marker.count else { return nil }
        for start in 1...(bytes.count - marker.count) where Array(bytes[start..<start + marker.count]) == marker {
            return String(decoding: bytes[..<start], as: UTF8.self)
        }
        return nil
    }

    static func isNull(_ cursor: JSONCursor) -> Bool { if case .null = cursor.value { true } else { false } }
}
