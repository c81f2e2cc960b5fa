import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// Builds an Intune row's context and request: a row whose `policy` cell is `intune`, with the
/// policy's settings and the device's facts in its `context` cell (`Rules/intune/README.md`).
enum IntuneRowInputs {
    /// The setting names, for messages.
    package static let names = ["not-targeted", "send=", "filter-open-in", "os-sharing", "receive=", "incoming-org-data", "clipboard=",
                        "clipboard-exception=", "print-blocked", "keyboards-blocked", "app=", "exempt=", "exempted-link=", "managed-link=", "browser=",
                        "dialer=", "messaging=", "managed-apps=", "mdm-apps=", "mdm-enrolled", "upn", "sdk=", "handler:SCHEME=ID", "app-scheme=",
                        "save-as-blocked", "storage=", "ingestion-blocked", "ingestion="]

    /// The row's context and request, or the input error that makes them invalid.
    /// - Throws: ``TableError`` for a cell that is not in the table format.
    static func build(_ cells: [String: String], at place: Place) throws(TableError) -> Result<(IntuneContext, ShareRequest), InputError> {
        switch try context(cells, at: place) {
        case .failure(let error): return .failure(error)
        case .success(let context):
            func field(_ column: String) -> String? {
                guard let text = cells[column], !text.isEmpty, text != "-" else { return nil }
                return text
            }
            if field("location") != nil {
                return .failure(.intuneLocation("channel \(cells["channel"] ?? "") takes no location: only \(LocationChannel.allCases.map(\.rawValue).joined(separator: " and ")) do"))
            }
            do throws(InputError) {
                let request = try ShareRequest(channel: cells["channel"] ?? "", target: field("target"), url: field("url"),
                                               source: field("source"), document: field("document"))
                return .success((context, request))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The row's context and location request (`save-as`, `open-into-org-document` in its `channel`
    /// column, the location in its `location` column), or the input error that makes them invalid;
    /// `nil` when the row's channel is not a location channel.
    /// - Throws: ``TableError`` for a cell that is not in the table format.
    static func buildLocation(_ cells: [String: String], at place: Place) throws(TableError) -> Result<(IntuneContext, LocationRequest), InputError>? {
        guard let channel = LocationChannel(named: cells["channel"] ?? "") else { return nil }
        for column in ["target", "url", "source"] {
            if let text = cells[column], !text.isEmpty, text != "-" {
                throw place.error("a \(channel) row names a location, not a \(column): leave '\(column)' as -")
            }
        }
        switch try context(cells, at: place) {
        case .failure(let error): return .failure(error)
        case .success(let context):
            let location = cells["location"].flatMap { $0.isEmpty || $0 == "-" ? nil : $0 }
            do throws(InputError) {
                return .success((context, try LocationRequest(channel: channel, location: location)))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The row's context (the policy and the device's facts).
    /// - Throws: ``TableError`` for a cell that is not in the table format.
    package static func context(_ cells: [String: String], at place: Place) throws(TableError) -> Result<IntuneContext, InputError> {
        if let whitelist = cells["whitelist"], !whitelist.isEmpty, whitelist != "-" {
            throw place.error("an intune row takes no whitelist: put the policy-managed apps in the context as managed-apps=ID,ID")
        }
        var policy = IntunePolicy(displayName: "row")
        var targeted = true
        var managed: [String] = [], mdm: [String] = [], handlers: [(String, String)] = [], ownSchemes: [String] = []
        var enrolled = false, upn = false
        var sdk: IntuneSDKVersion?
        var app: String?
        let text = cells["context"] ?? "-"
        for item in text == "-" ? [] : text.split(separator: ";") {
            let setting = String(item.trimmingSpaces)
            if setting.isEmpty { continue }
            func value(_ prefix: String) throws(TableError) -> String {
                let rest = String(setting.dropFirst(prefix.count).trimmingSpaces)
                if rest.isEmpty { throw place.error("context setting '\(setting)' needs a value after '\(prefix)'") }
                return rest
            }
            func list(_ prefix: String) throws(TableError) -> [String] {
                try value(prefix).split { $0 == "," || $0 == " " }.map(String.init)
            }
            func locations(_ prefix: String, _ known: [DataLocation]) throws(TableError) -> [DataLocation] {
                var found: [DataLocation] = []
                for name in try list(prefix) where name != "-" {
                    guard let location = known.first(where: { ExactText.same($0.rawValue, name) }) else {
                        let names = known.map(\.rawValue)
                        throw place.error("context setting '\(setting)': unknown location '\(name)': use \(names.joined(separator: ", ")).\(Suggestion.phrase(for: name, among: names))")
                    }
                    found.append(location)
                }
                return found
            }
            func choice<E: RawRepresentable & CaseIterable>(_ prefix: String, _ type: E.Type) throws(TableError) -> E where E.RawValue == String {
                let text = try value(prefix)
                guard let found = E.allCases.first(where: { ExactText.same($0.rawValue, text) }) else {
                    let known = E.allCases.map(\.rawValue)
                    throw place.error("context setting '\(setting)': use \(known.joined(separator: ", ")).\(Suggestion.phrase(for: text, among: known))")
                }
                return found
            }
            switch setting {
            case "not-targeted": targeted = false
            case "filter-open-in": policy.filterOpenInToOnlyManagedApps = true
            case "os-sharing": policy.disableProtectionOfManagedOutboundOpenInData = true
            case "incoming-org-data": policy.protectInboundDataFromUnknownSources = true
            case "print-blocked": policy.printBlocked = true
            case "keyboards-blocked": policy.thirdPartyKeyboardsBlocked = true
            case "save-as-blocked": policy.saveAsBlocked = true
            case "ingestion-blocked": policy.blockDataIngestion = true
            case "mdm-enrolled": enrolled = true
            case "upn": upn = true
            default:
                if setting.hasPrefix("send=") { policy.send = try choice("send=", IntuneTransferLevel.self) }
                else if setting.hasPrefix("receive=") { policy.receive = try choice("receive=", IntuneTransferLevel.self) }
                else if setting.hasPrefix("clipboard-exception=") {
                    guard let length = Int(try value("clipboard-exception=")) else { throw place.error("context setting '\(setting)' needs a whole number") }
                    policy.clipboardExceptionLength = length
                } else if setting.hasPrefix("clipboard=") { policy.clipboard = try choice("clipboard=", IntuneClipboardLevel.self) }
                else if setting.hasPrefix("exempt=") { policy.exemptions.append(IntuneExemption(name: "row", schemes: try list("exempt=").map(ExactText.asciiLowercased))) }
                else if setting.hasPrefix("exempted-link=") { policy.exemptedUniversalLinks.append(try value("exempted-link=")) }
                else if setting.hasPrefix("managed-link=") { policy.managedUniversalLinks.append(try value("managed-link=")) }
                else if setting.hasPrefix("browser=") {
                    let browser = try value("browser=")
                    policy.managedBrowserRequired = true
                    if browser == "edge" { policy.managedBrowser = .microsoftEdge }
                    else if browser.hasPrefix("custom:"), browser.count > 7 { policy.customBrowserProtocol = String(browser.dropFirst(7)) }
                    else { throw place.error("context setting '\(setting)': use browser=edge or browser=custom:PROTOCOL") }
                } else if setting.hasPrefix("dialer=customApp:") {
                    policy.dialer = .customApp
                    policy.customDialerAppProtocol = try value("dialer=customApp:")
                } else if setting.hasPrefix("dialer=") { policy.dialer = try choice("dialer=", IntuneDialerLevel.self) }
                else if setting.hasPrefix("messaging=specificApps:") {
                    policy.messaging = .specificApps
                    policy.messagingRedirectAppUrlScheme = try value("messaging=specificApps:")
                } else if setting.hasPrefix("messaging=") { policy.messaging = try choice("messaging=", IntuneMessagingLevel.self) }
                else if setting.hasPrefix("storage=") { policy.allowedDataStorageLocations = try locations("storage=", DataLocation.storage) }
                else if setting.hasPrefix("ingestion=") { policy.allowedDataIngestionLocations = try locations("ingestion=", DataLocation.ingestion) }
                else if setting.hasPrefix("managed-apps=") { managed += try list("managed-apps=") }
                else if setting.hasPrefix("app=") { app = try value("app=") }
                else if setting.hasPrefix("mdm-apps=") { mdm += try list("mdm-apps=") }
                else if setting.hasPrefix("sdk=") {
                    let text = try value("sdk=")
                    guard let version = IntuneSDKVersion(text) else { throw place.error("context setting '\(setting)': write a version such as sdk=14.5.0") }
                    sdk = version
                } else if setting.hasPrefix("handler:") {
                    let rest = try value("handler:")
                    guard let equals = rest.firstIndex(of: "="), equals != rest.startIndex else {
                        throw place.error("context setting '\(setting)' needs the form handler:SCHEME=ID")
                    }
                    handlers.append((String(rest[..<equals]), String(rest[rest.index(after: equals)...])))
                } else if setting.hasPrefix("app-scheme=") { ownSchemes.append(try value("app-scheme=")) }
                else {
                    let name = String(setting.prefix { $0 != "=" && $0 != ":" })
                    throw place.error("unknown intune context setting '\(setting)': settings are \(names.joined(separator: ", ")).\(Suggestion.phrase(for: name, among: names))")
                }
            }
        }
        do throws(InputError) {
            try policy.validate()
            var context = IntuneContext(policy: targeted ? policy : nil)
            context.senderSDKVersion = sdk
            context.app = try app.map { text throws(InputError) in try BundleID(text) }
            context.managedApps = try managed.map { text throws(InputError) in try BundleID(text) }
            context.mdmManagedApps = try mdm.map { text throws(InputError) in try BundleID(text) }
            context.mdmEnrolled = enrolled
            context.intuneMAMUPN = upn
            for (scheme, handler) in handlers { try context.setHandler(try BundleID(handler), for: scheme) }
            for scheme in ownSchemes { try context.addOwnScheme(scheme) }
            return .success(context)
        } catch {
            return .failure(error)
        }
    }
}
