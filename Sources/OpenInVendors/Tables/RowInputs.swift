import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// Builds a row's policy and request from its input cells.
enum RowInputs {
    /// A row's inputs as built when the row is parsed: a policy and a request, or why they are invalid.
    enum Built: Sendable, Hashable {
        case valid(Policy, ShareRequest)
        /// An Intune row (`policy` is `intune`): the sending app's context and the request.
        case intune(IntuneContext, ShareRequest)
        /// An Intune row on a location channel (`save-as`, `open-into-org-document`).
        case intuneLocation(IntuneContext, LocationRequest)
        case invalid(InputError)
        /// A fleet table's row (``FleetTables``).
        case fleet(FleetTables.Row)
        /// A conflict table's row (``MergeTables``): several Intune policies merged.
        case merge(MergeTables.Row)

        package init(_ result: Result<(Policy, ShareRequest), InputError>) {
            switch result {
            case .success(let (policy, request)): self = .valid(policy, request)
            case .failure(let error): self = .invalid(error)
            }
        }
    }

    /// The policy and request of a row, or the input error that makes them invalid.
    /// - Parameter base: the policy the table names (``TableSource``), which the row's cells override;
    ///   nil when the row states the whole policy.
    /// - Throws: ``TableError`` when a cell is not in the table format (an unknown setting, a missing `=`).
    static func build(_ cells: [String: String], base: PolicyInputs? = nil, at place: Place) throws(TableError) -> Result<(Policy, ShareRequest), InputError> {
        let settings = try Settings(parsing: cells["context"] ?? "-", at: place)
        do {
            return .success(try inputs(cells, settings, base: base, at: place))
        } catch let error as InputError {
            return .failure(error)
        } catch let error as TableError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    private static func inputs(_ cells: [String: String], _ settings: Settings, base: PolicyInputs?, at place: Place) throws -> (Policy, ShareRequest) {
        func value(_ column: String) -> String? {
            guard let text = cells[column], !text.isEmpty, text != "-" else { return nil }
            return text
        }
        // Without a named policy the row states it all: its `policy` cell is required, `-` in
        // `whitelist` means none. Under a named policy, `-` (or no column) keeps the policy's value.
        var inputs = base ?? PolicyInputs(setting: .status(.unauthorized))
        if base == nil || value("policy") != nil {
            inputs.setting = try PolicySetting(parsing: cells["policy"] ?? "")
        }
        let whitelistText = value("whitelist")
        if inputs.setting == .allAppConnectApps, whitelistText != nil {
            throw place.error("the appconnect policy takes its whitelist from the device: move the IDs to the context as appconnect-apps=ID,ID")
        }
        if base == nil || whitelistText != nil {
            inputs.stated.whitelist = try Whitelist(parsing: (whitelistText ?? "").split { $0 == "," || $0 == " " }.map(String.init))
        }
        try settings.apply(to: &inputs.stated, at: place)
        var policy = inputs.policy
        let openFromList = try settings.openFromWhitelist.map { try Whitelist(parsing: $0) }
        if let text = settings.openFrom {
            let openFrom = try OpenFromPolicy.Setting(parsing: text)
            if openFrom == .allAppConnectApps, openFromList != nil {
                throw place.error("open-from=appconnect takes its whitelist from the device: move the IDs to appconnect-apps=ID,ID")
            }
            policy.openFrom = OpenFromPolicy(openFrom, whitelist: openFromList ?? .empty)
        } else if let openFromList, policy.openFrom != nil {
            if policy.openFrom?.setting == .allAppConnectApps {
                throw place.error("the policy's Open From is appconnect, which takes its whitelist from the device: move the IDs to appconnect-apps=ID,ID")
            }
            policy.openFrom?.whitelist = openFromList
        }
        if let text = settings.pasteboard { policy.pasteboard = try PasteboardPolicy(parsing: text) }
        if let text = settings.print { policy.print = try PrintPolicy(parsing: text) }
        if let text = settings.webDLP { policy.webDLP = try WebDLPPolicy(parsing: text) }
        if !settings.excludedActivities.isEmpty { policy.excludedActivityTypes = try settings.excludedActivities.map { try BundleID($0) } }
        let request = try ShareRequest(channel: cells["channel"] ?? "", target: value("target"), url: value("url"),
                                       source: value("source"), document: value("document"))
        // A request the policy cannot decide (a control it does not set) is an error row, as in eval.
        try policy.check(request)
        if value("location") != nil {
            throw InputError.intuneLocation("an AppConnect row takes no location: locations belong to Intune's save-as and open-into-org-document, which AppConnect has no control for")
        }
        return (policy, request)
    }

    /// The `context` cell's settings.
    struct Settings {
        var enforcing = true
        var emailPlus = false
        var emailPlusIDs: [String] = []
        var plistOverride = false
        package var config: [(key: String, value: String)] = []
        var handlers: [(String, String)] = []
        var appSchemes: [String] = []
        package var dragAndDrop: String?
        var appConnectApps: [String] = []
        package var openFrom: String?
        package var openFromWhitelist: [String]?
        package var pasteboard: String?
        package var print: String?
        var secureServices: String?
        package var webDLP: String?
        var webAtWork = false
        var webAtWorkIDs: [String] = []
        var excludedActivities: [String] = []
        var appCustomKeyboards: String?

        package static let names = ["not-enforcing", "email-plus", "email-plus-id=", "plist-override", "config:KEY=VALUE",
                            "handler:SCHEME=ID", "app-scheme=", "dnd=", "appconnect-apps=",
                            "open-from=", "open-from-whitelist=", "pasteboard=", "print=", "secure-services=",
                            "web-dlp=", "web-at-work", "web-at-work-id=", "excluded-activity=", "app-custom-keyboards="]

        /// Sets what the settings say on `policy` and leaves the rest (the Open From, pasteboard and
        /// print controls are set by the caller, after "All AppConnect apps" is resolved).
        /// - Throws: ``InputError`` for an invalid bundle ID or scheme; ``TableError`` for a malformed setting.
        package func apply(to policy: inout Policy, at place: Place) throws {
            if !enforcing { policy.enforcing = false }
            if emailPlus { policy.device.emailPlusInstalled = true }
            if !emailPlusIDs.isEmpty { policy.device.emailPlusBundleIDs = try emailPlusIDs.map { try BundleID($0) } }
            if plistOverride { policy.infoPlist.disableSchemeBlocking = true }
            if !config.isEmpty {
                for (key, value) in config {
                    do throws(AppConfig.KeyProblem) {
                        policy.config = try policy.config.replacing(key, with: value)
                    } catch {
                        throw place.error("context setting config:\(Printable.text(key))\(KeySpelling.difference(key)): \(error.message)")
                    }
                }
            }
            for (scheme, handler) in handlers { try policy.device.setHandler(try BundleID(handler), for: scheme) }
            if !appConnectApps.isEmpty { policy.device.appConnectApps = Set(try appConnectApps.map { try BundleID($0) }) }
            for scheme in appSchemes { try policy.app.addScheme(scheme) }
            if let text = secureServices {
                switch text {
                case "available": policy.device.secureServicesAvailable = true
                case "unavailable": policy.device.secureServicesAvailable = false
                default: throw place.error("context setting 'secure-services=\(text)': write secure-services=available or secure-services=unavailable")
                }
            }
            if let text = dragAndDrop { policy.dragAndDrop = try DragAndDropPolicy(parsing: text) }
            if webAtWork { policy.device.webAtWorkInstalled = true }
            if !webAtWorkIDs.isEmpty { policy.device.webAtWorkBundleIDs = try webAtWorkIDs.map { try BundleID($0) } }
            if let text = appCustomKeyboards {
                switch text {
                case "allowed": policy.app.allowsCustomKeyboards = true
                case "refused": policy.app.allowsCustomKeyboards = false
                default: throw place.error("context setting 'app-custom-keyboards=\(text)': write app-custom-keyboards=allowed or app-custom-keyboards=refused")
                }
            }
        }

        package init(parsing text: String, at place: Place) throws(TableError) {
            guard text != "-" else { return }
            for item in text.split(separator: ";") {
                let setting = item.trimmingSpaces
                if setting.isEmpty { continue }
                func argument(after prefix: String) throws(TableError) -> String {
                    let rest = String(setting.dropFirst(prefix.count).trimmingSpaces)
                    if rest.isEmpty { throw place.error("context setting '\(setting)' needs a value after '\(prefix)'") }
                    return rest
                }
                func pair(after prefix: String) throws(TableError) -> (String, String) {
                    let rest = try argument(after: prefix)
                    guard let equals = rest.firstIndex(of: "="), equals != rest.startIndex else {
                        throw place.error("context setting '\(setting)' needs the form \(prefix)NAME=VALUE")
                    }
                    return (String(rest[..<equals]), String(rest[rest.index(after: equals)...]))
                }
                if setting == "not-enforcing" {
                    enforcing = false
                } else if setting == "email-plus" {
                    emailPlus = true
                } else if setting == "plist-override" {
                    plistOverride = true
                } else if setting == "web-at-work" {
                    webAtWork = true
                } else if setting.hasPrefix("web-at-work-id=") {
                    webAtWorkIDs.append(try argument(after: "web-at-work-id="))
                } else if setting.hasPrefix("web-dlp=") {
                    webDLP = try argument(after: "web-dlp=")
                } else if setting.hasPrefix("excluded-activity=") {
                    excludedActivities.append(try argument(after: "excluded-activity="))
                } else if setting.hasPrefix("app-custom-keyboards=") {
                    appCustomKeyboards = try argument(after: "app-custom-keyboards=")
                } else if setting.hasPrefix("email-plus-id=") {
                    emailPlusIDs.append(try argument(after: "email-plus-id="))
                } else if setting.hasPrefix("config:") {
                    let (key, value) = try pair(after: "config:")
                    config.append((key, value))
                } else if setting.hasPrefix("handler:") {
                    handlers.append(try pair(after: "handler:"))
                } else if setting.hasPrefix("app-scheme=") {
                    appSchemes.append(try argument(after: "app-scheme="))
                } else if setting.hasPrefix("dnd=") {
                    dragAndDrop = try argument(after: "dnd=")
                } else if setting.hasPrefix("open-from-whitelist=") {
                    openFromWhitelist = (openFromWhitelist ?? []) + (try argument(after: "open-from-whitelist=")).split { $0 == "," || $0 == " " }.map(String.init)
                } else if setting.hasPrefix("open-from=") {
                    openFrom = try argument(after: "open-from=")
                } else if setting.hasPrefix("pasteboard=") {
                    pasteboard = try argument(after: "pasteboard=")
                } else if setting.hasPrefix("print=") {
                    print = try argument(after: "print=")
                } else if setting.hasPrefix("secure-services=") {
                    secureServices = try argument(after: "secure-services=")
                } else if setting.hasPrefix("appconnect-apps=") {
                    appConnectApps += try argument(after: "appconnect-apps=").split { $0 == "," || $0 == " " }.map(String.init)
                } else {
                    let name = String(setting.prefix { $0 != "=" && $0 != ":" })
                    throw place.error("unknown context setting '\(setting)': settings are \(Settings.names.joined(separator: ", ")).\(Suggestion.phrase(for: name, among: Settings.names))")
                }
            }
        }
    }
}
