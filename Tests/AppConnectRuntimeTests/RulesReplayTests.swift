@testable import AppConnectRuntime
import Foundation
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing

/// `eval` and the runtime decide alike on the same facts: every decision-table
/// row of `Rules/*.md` is replayed through a simulated device and library set
/// up with the row's policy and context, and the share the app makes through
/// the runtime must get exactly the evaluator's decision, with exactly its
/// callbacks delivered to the app.
///
/// How a row becomes a runtime:
/// - the Open In policy, whitelist, config, drag-and-drop policy, Open From
///   policy and whitelist, pasteboard and print policies are what the server
///   sends; "All AppConnect apps" (`appconnect`, for Open In or Open From) is
///   the server's setting, and the row's AppConnect apps are installed on the
///   device only *after* the library is ready, so the whitelist the runtime
///   decides with is the one it follows as apps change, not one frozen at
///   launch;
/// - Email+, scheme handlers, AppConnect apps and secure services are device facts;
///   `plist-override` and `app-scheme=` are the app's Info.plist and schemes;
/// - `not-enforcing` is an app running outside AppConnect Mode (a dual-mode
///   app in Non-AppConnect Mode), with the row's policy on the server;
/// - a control the row does not set (no `open-from=`, `pasteboard=`,
///   `print=`, `secure-services=`) has the server's default in the runtime,
///   which always holds a value; the row's request does not depend on it (a
///   request that would is an input error in the table), and the policies are
///   compared without it.
///
/// Rows the runtime cannot express are listed by the test, never skipped
/// silently: those expecting `error` (their input is rejected before any
/// policy or request exists, and the runtime takes only validated values),
/// and the rows of ``RulesReplayTests/notExpressible`` with the reason.
@Suite struct RulesReplayTests {
    static let rulesFolder: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Rules").path
    }()

    /// Valid rows the runtime cannot express, by `file: id`, with why. Empty: every valid row replays.
    static let notExpressible: [String: String] = [:]

    static func rows() throws -> [TableCase] { try DecisionTables.load(paths: [rulesFolder]) }

    @Test func everyRuleRowDecidesAlikeInTheRuntime() throws {
        let rows = try Self.rows()
        var replayed = 0
        var rejectedInputs: [String] = []
        var appConnectRows = 0
        var beyondOpenInRows = 0
        var notEnforcingRows = 0
        var intuneRows = 0
        var fleetRows = 0
        for row in rows {
            let name = "\(URL(fileURLWithPath: row.file).lastPathComponent): \(row.id)"
            switch row.inputs {
            case .fleet:
                // A fleet row decides two apps end to end (each side by the evaluator), not one app's runtime.
                fleetRows += 1
            case .invalid:
                // Listed, not skipped: such a row must expect the error.
                #expect(row.expected.outcome == nil, "\(row.location): \(row.id) has invalid input but expects a decision")
                rejectedInputs.append(name)
            case .valid(let policy, let request):
                if Self.notExpressible[name] != nil { continue }
                let setting = try PolicySetting(parsing: row.cells["policy"] ?? "")
                if setting == .allAppConnectApps || policy.openFrom?.setting == .allAppConnectApps { appConnectRows += 1 }
                if [.openFrom, .copy, .print, .paste, .keyboard].contains(request.channel) { beyondOpenInRows += 1 }
                if !policy.enforcing { notEnforcingRows += 1 }
                try replay(row, policy: policy, setting: setting, request: request)
                replayed += 1
            case .intune, .intuneLocation, .merge:
                // Intune's rows (Rules/intune, its conflict tables too) concern another vendor's SDK: the AppConnect runtime does not replay them.
                intuneRows += 1
            }
        }
        let unknownExclusions = Set(Self.notExpressible.keys).subtracting(rows.map { "\(URL(fileURLWithPath: $0.file).lastPathComponent): \($0.id)" })
        #expect(unknownExclusions.isEmpty, "notExpressible names rows that do not exist: \(unknownExclusions.sorted())")
        #expect(replayed + rejectedInputs.count + fleetRows + intuneRows + Self.notExpressible.count == rows.count)
        // Not vacuous: the tables have many rows, some under "All AppConnect apps" and some not enforcing.
        #expect(replayed >= 60, "only \(replayed) rows replayed")
        #expect(appConnectRows > 0)
        #expect(beyondOpenInRows > 0, "the Open From, copy and print rows replay too")
        #expect(notEnforcingRows > 0)
    }

    /// One row: set up the device and library, make the share, compare.
    func replay(_ row: TableCase, policy: Policy, setting: PolicySetting, request: ShareRequest) throws {
        // swift-format-ignore: AlwaysUseLowerCamelCase
        let where_ = "\(row.location): \(row.id)"
        var server = ServerState(openInPolicy: policy.status, openInWhitelist: policy.whitelist,
                                 config: policy.config.values, dragAndDropPolicy: policy.dragAndDrop)
        if setting == .allAppConnectApps {
            server.openInAllAppConnectApps = true
            server.openInWhitelist = .empty
        }
        if let openFrom = policy.openFrom {
            switch openFrom.setting {
            case .allAppConnectApps: server.openFromAllAppConnectApps = true
            case .status(let status): server.openFromPolicy = ACOpenFromPolicy(status)
            }
            server.openFromWhitelist = openFrom.whitelist
        }
        if let pasteboard = policy.pasteboard { server.pasteboardPolicy = ACPasteboardPolicy(pasteboard) }
        if let print = policy.print { server.printPolicy = print == .authorized ? .authorized : .unauthorized }
        if let available = policy.device.secureServicesAvailable { server.secureServicesAvailability = available ? .available : .unavailable }
        server.webDLP = policy.webDLP
        server.excludedAppleActivityTypes = policy.excludedActivityTypes.map(\.rawValue)
        let followsApps = setting == .allAppConnectApps || policy.openFrom?.setting == .allAppConnectApps
        var facts = policy.device
        if followsApps { facts.appConnectApps = [] }
        let device = SimulatedDevice(server: server, facts: facts)
        let app = ScriptedApp(implements: Set(DelegateCallback.Kind.allCases.filter { !$0.isRequired }))
        let appConnect = AppConnect(delegate: app, device: device, infoPlist: policy.infoPlist, app: policy.app,
                                    appConnectMode: policy.enforcing)
        try appConnect.start(launchOptions: [:])
        #expect(device.checkIn(), "\(where_): the library waits for its check-in")
        if followsApps {
            // Installed after the policy arrived: the whitelist must follow.
            try device.update(.appConnectApps(policy.device.appConnectApps))
            if setting == .allAppConnectApps {
                #expect(try appConnect.openInWhitelist == Whitelist(policy.device.appConnectApps), "\(where_)")
            }
            if policy.openFrom?.setting == .allAppConnectApps {
                #expect(try appConnect.openFromWhitelist == Whitelist(policy.device.appConnectApps), "\(where_)")
            }
        }
        #expect(appConnect.isEnforcing == policy.enforcing, "\(where_)")
        var runtimePolicy = appConnect.currentPolicy
        if policy.openFrom == nil { runtimePolicy.openFrom = nil }
        if policy.pasteboard == nil { runtimePolicy.pasteboard = nil }
        if policy.print == nil { runtimePolicy.print = nil }
        if policy.device.secureServicesAvailable == nil { runtimePolicy.device.secureServicesAvailable = nil }
        #expect(runtimePolicy == policy, "\(where_): the runtime's policy is not the row's")

        let before = device.timeline.count
        let decision = appConnect.share(request)
        let expected = Evaluator(policy: policy).decide(request)
        #expect(decision == expected, "\(where_): runtime \(decision) but eval \(expected)")

        let delivered = device.timeline.dropFirst(before).compactMap { event -> DelegateCallback? in
            if case .callback(let callback, let implemented) = event, implemented { return callback }
            return nil
        }
        #expect(delivered == expected.callbacks.map(DelegateCallback.init), "\(where_): callbacks delivered to the app")

        // The user's copy (no paste target) is the same `copy` request, through the evaluator too.
        if request.channel == .copy, request.target == nil {
            #expect(appConnect.copyToPasteboard() == CopyOutcome(expected), "\(where_): copyToPasteboard")
        }
    }
}
