import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// The Intune rules of `Rules/intune/*.md` written again from their prose, on plain strings, without
/// calling the Intune evaluator: what a row's cells say should happen. The evaluator must agree on
/// every Intune row and on a seeded sweep of settings × requests.
struct IntuneReferenceModel {
    // The sending app's policy, as strings.
    var targeted = true
    var send = "allApps", receive = "allApps", clipboard = "allApps", dialer = "allApps", messaging = "anyApp"
    var filter = false, osSharing = false, orgData = false, printBlocked = false, keyboardsBlocked = false
    var app: String? = nil  // the app's own bundle ID (app=)
    var exempt: [String] = [], exemptedLinks: [String] = [], managedLinks: [String] = []
    var browser: String? = nil  // "edge" or "custom:P"
    var dialerScheme = "", messagingScheme = ""
    // The device.
    var managed: [String] = [], mdm: [String] = []
    var enrolled = false, upn = false
    var sdk: [Int]? = nil
    var handlers: [String: String] = [:]
    var own: [String] = []

    struct Answer: Equatable, CustomStringConvertible {
        var outcome: String
        var to: String?
        var audience: String?
        var rule: String
        var description: String { "\(outcome) to \(to ?? "-") audience \(audience ?? "-") [\(rule)]" }
    }

    func isManaged(_ id: String?) -> Bool { id.map { id in managed.contains { $0.lowercased() == id.lowercased() } } ?? false }
    func isMDM(_ id: String?) -> Bool { id.map { id in mdm.contains { $0.lowercased() == id.lowercased() } } ?? false }

    /// The handler of a scheme, with iOS's own apps where the device names none.
    func handler(_ scheme: String) -> String? {
        if let found = handlers[scheme] { return found }
        return ["mailto": "com.apple.mobilemail", "http": "com.apple.mobilesafari", "https": "com.apple.mobilesafari"][scheme]
    }

    /// Whether the Graph constraints hold.
    var valid: Bool {
        if osSharing && send != "managedApps" { return false }
        if filter && (send != "managedApps" || osSharing) { return false }
        if orgData && receive != "allApps" { return false }
        return true
    }

    func answer(channel: String, target: String?, url: String?, source: String?) -> Answer {
        func a(_ outcome: String, _ to: String?, _ rule: String, _ audience: String? = nil) -> Answer {
            Answer(outcome: outcome, to: outcome == "deny" ? nil : to, audience: audience, rule: rule)
        }
        let scheme = url.map { String($0.prefix { $0 != ":" }).lowercased() } ?? "mailto"
        if !targeted {
            var to = target
            if channel == "open-url" { to = own.contains(scheme) ? nil : handler(scheme) }
            if channel == "mail-link" { to = handler("mailto") }
            if channel == "mail-compose" { to = "com.apple.mobilemail" }
            return a("allow", to, "intune.unmanaged.allow", channel == "copy" ? "all-apps" : nil)
        }
        switch channel {
        case "document-interaction", "quick-look", "app-extension", "activity-view":
            if send == "allApps" { return a("allow", target, "intune.send.all-apps") }
            if send == "none" { return a("deliver-encrypted", target, "intune.send.none-encrypted") }
            if isManaged(target) { return a("allow", target, "intune.send.managed-target") }
            if osSharing && enrolled && upn && isMDM(target) { return a("allow", target, "intune.send.os-sharing") }
            if filter { return a("deny", nil, "intune.send.filtered") }
            return a("deliver-encrypted", target, "intune.send.unmanaged-target-encrypted")
        case "drag-and-drop":
            if send == "allApps" { return a("allow", target, "intune.drag-and-drop.all-apps") }
            if send == "managedApps" && isManaged(target) { return a("allow", target, "intune.drag-and-drop.managed-target") }
            return a("deny", nil, "intune.drag-and-drop.blocked")
        case "mail-compose":
            if send == "allApps" { return a("allow", "com.apple.mobilemail", "intune.mail-compose.all-apps") }
            if exempt.contains("mailto"), let sdk, sdk.lexicographicallyPrecedes([14, 5, 0]) == false {
                return a("allow", "com.apple.mobilemail", "intune.mail-compose.mailto-exempted")
            }
            return a("deny", nil, "intune.mail-compose.blocked")
        case "open-url", "mail-link":
            let h = handler(scheme)
            if own.contains(scheme) { return a("allow", nil, "intune.url.own-scheme") }
            if scheme == "http" || scheme == "https" {
                let text = url ?? ""
                if exemptedLinks.contains(where: { linkMatches($0, text) }) { return a("allow", h, "intune.url.exempted-universal-link") }
                if let claimed = handlers[scheme], isManaged(claimed), managedLinks.contains(where: { linkMatches($0, text) }) {
                    return a("allow", claimed, "intune.url.managed-universal-link")
                }
                guard let browser else { return a("allow", h, "intune.url.any-browser") }
                if browser == "edge" { return a("redirect", "com.microsoft.msedge", "intune.url.managed-browser") }
                let p = String(browser.dropFirst("custom:".count)).lowercased()
                if let app = handlers[scheme == "https" ? p + "s" : p] ?? handlers[p] { return a("redirect", app, "intune.url.custom-browser") }
                return a("deny", nil, "intune.url.custom-browser-unknown")
            }
            if exempt.contains(scheme) { return a("allow", h, "intune.url.exempted-scheme") }
            if scheme == "tel" || scheme == "telprompt" {
                switch dialer {
                case "allApps": return a("allow", h, "intune.url.dialer-any")
                case "managedApps": return isManaged(h) ? a("allow", h, "intune.url.dialer-managed") : a("deny", nil, "intune.url.dialer-blocked")
                case "customApp":
                    if let app = handlers[dialerScheme.lowercased()] { return a("redirect", app, "intune.url.dialer-custom") }
                    return a("deny", nil, "intune.url.dialer-blocked")
                default: return a("deny", nil, "intune.url.dialer-blocked")
                }
            }
            if scheme == "sms" {
                switch messaging {
                case "anyApp": return a("allow", h, "intune.url.messaging-any")
                case "anyManagedApp": return isManaged(h) ? a("allow", h, "intune.url.messaging-managed") : a("deny", nil, "intune.url.messaging-blocked")
                case "specificApps":
                    if let app = handlers[messagingScheme.lowercased()] { return a("redirect", app, "intune.url.messaging-specific") }
                    return a("deny", nil, "intune.url.messaging-blocked")
                default: return a("deny", nil, "intune.url.messaging-blocked")
                }
            }
            if send == "allApps" { return a("allow", h, "intune.url.all-apps") }
            if send == "managedApps" && isManaged(h) { return a("allow", h, "intune.url.managed-handler") }
            return a("deny", nil, "intune.url.blocked")
        case "open-from":
            switch receive {
            case "allApps": return a("allow", nil, orgData && enrolled && upn ? "intune.receive.incoming-org-data" : "intune.receive.all-apps")
            case "managedApps": return isManaged(source) ? a("allow", nil, "intune.receive.managed-source") : a("deny", nil, "intune.receive.unmanaged-source")
            default: return a("deny", nil, "intune.receive.none")
            }
        case "copy":
            switch clipboard {
            case "allApps": return a("allow", target, "intune.copy.all-apps", "all-apps")
            case "blocked": return a("deny", nil, "intune.copy.blocked")
            default:
                if target != nil && !isManaged(target) { return a("deny", nil, "intune.copy.unmanaged-target") }
                return a("allow", target, "intune.copy.managed-apps", "managed-apps")
            }
        case "paste":
            // Read from paste-and-keyboards.md: the receiving app's clipboard level decides; a copy from the app itself always pastes.
            if let source, let app, source.lowercased() == app.lowercased() { return a("allow", nil, "intune.paste.own-app") }
            if clipboard == "allApps" { return a("allow", nil, "intune.paste.all-apps") }
            if clipboard == "managedAppsWithPasteIn" { return a("allow", nil, "intune.paste.paste-in") }
            if clipboard == "managedApps" {
                return isManaged(source) ? a("allow", nil, "intune.paste.managed-source") : a("deny", nil, "intune.paste.unmanaged-source")
            }
            return a("deny", nil, "intune.paste.blocked")
        case "keyboard":
            if target == nil || target == "com.apple.keyboard" { return a("allow", target, "intune.keyboard.system") }
            return keyboardsBlocked ? a("deny", nil, "intune.keyboard.third-party-blocked") : a("allow", target, "intune.keyboard.third-party-allowed")
        case "print":
            return printBlocked ? a("deny", nil, "intune.print.blocked") : a("allow", nil, "intune.print.allowed")
        default:
            return a("no-model", nil, "no model for channel \(channel)")
        }
    }

    /// A universal-link pattern against a URL, with a regular expression (the engine walks bytes).
    func linkMatches(_ pattern: String, _ url: String) -> Bool {
        var regex = "^" + NSRegularExpression.escapedPattern(for: pattern.lowercased()).replacingOccurrences(of: "\\*", with: ".*")
        if !pattern.hasSuffix("*") { regex += "([/?#].*)?" }
        return url.lowercased().range(of: regex + "$", options: .regularExpression) != nil
    }

    /// The model of a row's `context` cell.
    init(context: String) {
        for raw in context == "-" ? [] : context.split(separator: ";") {
            let s = raw.trimmingCharacters(in: .whitespaces)
            func after(_ prefix: String) -> String { String(s.dropFirst(prefix.count)) }
            func list(_ prefix: String) -> [String] { after(prefix).split(separator: ",").map(String.init) }
            switch s {
            case "not-targeted": targeted = false
            case "filter-open-in": filter = true
            case "os-sharing": osSharing = true
            case "incoming-org-data": orgData = true
            case "print-blocked": printBlocked = true
            case "keyboards-blocked": keyboardsBlocked = true
            case "mdm-enrolled": enrolled = true
            case "upn": upn = true
            default:
                if s.hasPrefix("send=") { send = after("send=") }
                else if s.hasPrefix("receive=") { receive = after("receive=") }
                else if s.hasPrefix("clipboard-exception=") { continue }
                else if s.hasPrefix("clipboard=") { clipboard = after("clipboard=") }
                else if s.hasPrefix("exempt=") { exempt += list("exempt=").map { $0.lowercased() } }
                else if s.hasPrefix("exempted-link=") { exemptedLinks.append(after("exempted-link=")) }
                else if s.hasPrefix("managed-link=") { managedLinks.append(after("managed-link=")) }
                else if s.hasPrefix("browser=") { browser = after("browser=") }
                else if s.hasPrefix("dialer=customApp:") { dialer = "customApp"; dialerScheme = after("dialer=customApp:").trimmingCharacters(in: CharacterSet(charactersIn: ":/")) }
                else if s.hasPrefix("dialer=") { dialer = after("dialer=") }
                else if s.hasPrefix("messaging=specificApps:") { messaging = "specificApps"; messagingScheme = after("messaging=specificApps:") }
                else if s.hasPrefix("messaging=") { messaging = after("messaging=") }
                else if s.hasPrefix("managed-apps=") { managed += list("managed-apps=") }
                else if s.hasPrefix("mdm-apps=") { mdm += list("mdm-apps=") }
                else if s.hasPrefix("app=") { app = after("app=") }
                else if s.hasPrefix("sdk=") {
                    var parts = after("sdk=").split(separator: ".").compactMap { Int($0) }
                    while parts.count < 3 { parts.append(0) }
                    sdk = parts
                } else if s.hasPrefix("handler:") {
                    let pair = after("handler:").split(separator: "=", maxSplits: 1).map(String.init)
                    handlers[pair[0].lowercased()] = pair[1]
                } else if s.hasPrefix("app-scheme=") { own.append(after("app-scheme=").lowercased()) }
            }
        }
    }
}

@Suite("Intune reference model")
struct IntuneReferenceModelTests {
    /// The rows on app channels (the location channels have their own test, `IntuneLocationTests`).
    static let rows: [TableCase] = RulesFolder.cases.filter { $0.cells["policy"] == "intune" && IntuneLocationChannel(named: $0.cells["channel"] ?? "") == nil }

    static func cell(_ row: TableCase, _ column: String) -> String? {
        guard let text = row.cells[column], text != "-", !text.isEmpty else { return nil }
        return text
    }

    @Test("the model agrees with every Intune row's expectation, and the evaluator with the model")
    func rowsAgree() {
        #expect(Self.rows.count >= 90)
        for row in Self.rows {
            let model = IntuneReferenceModel(context: row.cells["context"] ?? "-")
            guard case .intune(let context, let request) = row.inputs else {
                #expect(row.expected.outcome == nil, "\(row.location): the row is invalid but expects a decision")
                continue
            }
            #expect(model.valid, "\(row.location): the model finds the settings invalid")
            let want = model.answer(channel: row.cells["channel"] ?? "", target: Self.cell(row, "target"), url: Self.cell(row, "url"), source: Self.cell(row, "source"))
            let decision = IntuneEvaluator(context: context).decide(request)
            let got = IntuneReferenceModel.Answer(outcome: decision.outcome.rawValue, to: decision.target?.rawValue,
                                                  audience: decision.audience?.rawValue, rule: decision.rule.rawValue)
            #expect(got == want, "\(row.location): evaluator \(got), model \(want)")
            if let expected = row.expected.outcome { #expect(expected.rawValue == want.outcome, "\(row.location): model \(want)") }
        }
    }

    @Test("a seeded sweep of settings × requests: the evaluator agrees with the model")
    func sweep() throws {
        var random = SplitMix64(seed: 0x1A7E)
        let apps = ["com.microsoft.Office.Word", "com.microsoft.office.outlook", "com.getdropbox.Dropbox", "com.corp.viewer", "com.apple.mobilemail"]
        let urls = ["mailto:a@example.com", "tel:1", "telprompt:1", "sms:1", "https://contoso.sharepoint.com/x", "http://maps.apple.com",
                    "https://example.com", "skype:x", "dropbox://x", "corp://x", "ms-word:x"]
        let channels = ["document-interaction", "quick-look", "app-extension", "activity-view", "drag-and-drop", "open-url", "mail-link",
                        "mail-compose", "open-from", "copy", "print", "paste", "keyboard"]
        #expect(Set(channels) == Set(Channel.allCases.map(\.rawValue)), "the sweep covers every channel")
        let keyboards = ["com.apple.keyboard", "com.apple.Keyboard", "com.example.swipekeys", "com.microsoft.Office.Word"]
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        func some(_ items: [String]) -> [String] { items.filter { _ in random.next() % 2 == 0 } }
        var checked = 0
        var seen: Set<String> = []
        for _ in 0..<400 {
            var settings: [String] = []
            if random.next() % 10 == 0 { settings.append("not-targeted") }
            let send = pick(["allApps", "managedApps", "none"])
            settings.append("send=" + send)
            if send == "managedApps" {
                switch random.next() % 3 { case 0: settings.append("filter-open-in"); case 1: settings.append("os-sharing"); default: break }
            }
            let receive = pick(["allApps", "managedApps", "none"])
            settings.append("receive=" + receive)
            if receive == "allApps", random.next() % 2 == 0 { settings.append("incoming-org-data") }
            settings.append("clipboard=" + pick(["allApps", "managedAppsWithPasteIn", "managedApps", "blocked"]))
            if random.next() % 2 == 0 { settings.append("print-blocked") }
            if random.next() % 2 == 0 { settings.append("keyboards-blocked") }
            if random.next() % 2 == 0 { settings.append("app=" + pick(apps)) }
            let exempt = some(["mailto", "tel", "sms", "skype", "dropbox"])
            if !exempt.isEmpty { settings.append("exempt=" + exempt.joined(separator: ",")) }
            if random.next() % 2 == 0 { settings.append("exempted-link=http://maps.apple.com") }
            if random.next() % 2 == 0 { settings.append("managed-link=https://*.sharepoint.com/*") }
            switch random.next() % 3 { case 0: settings.append("browser=edge"); case 1: settings.append("browser=custom:corp"); default: break }
            settings.append(pick(["dialer=allApps", "dialer=managedApps", "dialer=blocked", "dialer=customApp:skype"]))
            settings.append(pick(["messaging=anyApp", "messaging=anyManagedApp", "messaging=blocked", "messaging=specificApps:skype"]))
            let managed = some(apps)
            if !managed.isEmpty { settings.append("managed-apps=" + managed.map { random.next() % 2 == 0 ? $0.lowercased() : $0 }.joined(separator: ",")) }
            let mdm = some(apps)
            if !mdm.isEmpty { settings.append("mdm-apps=" + mdm.joined(separator: ",")) }
            if random.next() % 2 == 0 { settings.append("mdm-enrolled") }
            if random.next() % 2 == 0 { settings.append("upn") }
            if random.next() % 2 == 0 { settings.append("sdk=" + pick(["14.4.9", "14.5.0", "19.0"])) }
            for scheme in some(["mailto", "tel", "sms", "https", "skype", "dropbox", "corps", "ms-word"]) {
                settings.append("handler:\(scheme)=\(pick(apps))")
            }
            if random.next() % 4 == 0 { settings.append("app-scheme=corp") }
            let context = settings.joined(separator: "; ")
            let model = IntuneReferenceModel(context: context)
            for _ in 0..<6 {
                let channel = pick(channels)
                var cells = ["id": "sweep", "policy": "intune", "context": context, "channel": channel, "outcome": "allow"]
                var target: String?, url: String?, source: String?
                switch channel {
                case "document-interaction", "quick-look", "app-extension", "drag-and-drop": target = pick(apps)
                case "activity-view", "copy": target = random.next() % 3 == 0 ? nil : pick(apps)
                case "open-url": url = pick(urls)
                case "mail-link": url = random.next() % 3 == 0 ? nil : "mailto:b@example.com"
                case "open-from", "paste": source = random.next() % 3 == 0 ? nil : pick(apps)
                case "keyboard": target = random.next() % 4 == 0 ? nil : pick(keyboards)
                default: break
                }
                cells["target"] = target ?? "-"
                cells["url"] = url ?? "-"
                cells["source"] = source ?? "-"
                let built = try IntuneRowInputs.build(cells, at: Place(file: "sweep", line: 0))
                guard case .success(let (intuneContext, request)) = built else {
                    #expect(!model.valid, "\(context): refused but the model finds it valid")
                    continue
                }
                #expect(model.valid, "\(context): accepted but breaks a constraint")
                let decision = IntuneEvaluator(context: intuneContext).decide(request)
                let got = IntuneReferenceModel.Answer(outcome: decision.outcome.rawValue, to: decision.target?.rawValue,
                                                      audience: decision.audience?.rawValue, rule: decision.rule.rawValue)
                let want = model.answer(channel: channel, target: target, url: url, source: source)
                #expect(got == want, "\(context) | \(channel) \(target ?? url ?? source ?? ""): evaluator \(got), model \(want)")
                seen.insert(got.rule)
                checked += 1
            }
        }
        #expect(checked > 2000)
        // The sweep reaches every paste and keyboard rule, not only the tables' rows.
        let newRules = RuleInfo.intune.map(\.id.rawValue).filter { $0.hasPrefix("intune.paste.") || $0.hasPrefix("intune.keyboard.") }
        #expect(newRules.count == 9 && newRules.allSatisfy(seen.contains), "not reached: \(newRules.filter { !seen.contains($0) })")
    }
}
