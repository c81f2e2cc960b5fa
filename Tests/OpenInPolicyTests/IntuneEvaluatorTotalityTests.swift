import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// Every ``Channel`` is decided under Intune, under several policies, by the unit the catalog's
/// first match names: `IntuneEvaluator` has no request it cannot decide.
@Suite("Intune evaluator is total")
struct IntuneEvaluatorTotalityTests {
    /// Policies that differ in every setting a channel depends on.
    static func contexts() -> [(String, IntuneContext)] {
        var strict = IntunePolicy(displayName: "strict")
        strict.send = .none
        strict.receive = .none
        strict.clipboard = .blocked
        strict.printBlocked = true
        strict.thirdPartyKeyboardsBlocked = true
        strict.dialer = .blocked
        strict.messaging = .blocked
        var managed = IntunePolicy(displayName: "managed")
        managed.send = .managedApps
        managed.filterOpenInToOnlyManagedApps = true
        managed.receive = .managedApps
        managed.clipboard = .managedApps
        managed.managedBrowserRequired = true
        managed.managedBrowser = .microsoftEdge
        var pasteIn = IntunePolicy(displayName: "paste in")
        pasteIn.send = .managedApps
        pasteIn.clipboard = .managedAppsWithPasteIn
        var contexts: [(String, IntuneContext)] = [("not targeted", IntuneContext(policy: nil))]
        for policy in [IntunePolicy(displayName: "defaults"), strict, managed, pasteIn] {
            var context = IntuneContext(policy: policy)
            context.managedApps = [BundleID(known: "com.microsoft.Office.Word")]
            context.app = BundleID(known: "com.corp.hr")
            contexts.append((policy.displayName, context))
        }
        return contexts
    }

    /// Requests on `channel`: with and without each optional field the channel takes.
    static func requests(_ channel: Channel) -> [ShareRequest] {
        let targets: [String?] = [nil, "com.microsoft.Office.Word", "com.getdropbox.Dropbox", "com.apple.keyboard"]
        let urls: [String?] = [nil, "mailto:a@example.com", "tel:1", "sms:1", "https://example.com/", "skype:x"]
        let sources: [String?] = [nil, "com.corp.hr", "com.microsoft.Office.Word", "com.getdropbox.Dropbox"]
        var requests: [ShareRequest] = []
        for target in targets {
            for url in urls {
                for source in sources {
                    if let request = try? ShareRequest(channel: channel.rawValue, target: target, url: url, source: source) { requests.append(request) }
                }
            }
        }
        return requests
    }

    @Test("every channel, under five policies: decided by an Intune rule of the unit the catalog's first match names", arguments: Channel.allCases)
    func everyChannel(_ channel: Channel) {
        let requests = Self.requests(channel)
        #expect(!requests.isEmpty, "no valid request on \(channel)")
        for (name, context) in Self.contexts() {
            for request in requests {
                let decision = IntuneEvaluator(context: context).decide(request)
                let first = IntuneRuleCatalog.units.first { $0.covers(request, context) }
                #expect(first != nil, "\(name) \(channel): no unit of the catalog covers it")
                guard let first else { continue }
                #expect(ObjectIdentifier(first) == ObjectIdentifier(IntuneEvaluator.unit(for: request, context)), "\(name) \(channel): the dispatch and the catalog disagree")
                #expect(first.rules.contains { $0.id == decision.rule }, "\(name) \(channel): rule \(decision.rule) is not one of its unit's")
                #expect(decision.callbacks.isEmpty && decision.openInUI == .enabled, "\(name) \(channel): an Intune decision calls nothing and keeps the Open In UI")
            }
        }
    }

    @Test("paste and keyboard are no longer left to a crash: each has its own unit, after print")
    func newUnits() {
        let units = IntuneRuleCatalog.units.map { "\($0)" }
        #expect(units.suffix(3) == ["IntunePrintRule", "IntunePasteRule", "IntuneKeyboardRule"])
    }
}
