import AppConnectRuntime
import Foundation
import OpenInPolicy
import Testing

/// Many tasks at once: no torn snapshots, callbacks one at a time and in order.
@Suite struct ConcurrencyTests {
    /// Two complete server updates: policy, whitelist and config change together.
    static let strict: [ServerChange] = [
        .openInPolicy(.whitelist, whitelist: Whitelist([Fixture.viewer])),
        .config([:]),
    ]
    static let open: [ServerChange] = [
        .openInPolicy(.unauthorized, whitelist: Whitelist([Fixture.other])),
        .config([AppConfig.disableOpenInEnforcementKey: "yes"]),
    ]

    /// A delegate that notices overlapping deliveries and records Open In changes in arrival order.
    final class WatchfulApp: AppConnectDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var inside = false
        private(set) var overlaps = 0
        let openInChanges = CallLog()

        private func enter() {
            lock.lock()
            if inside { overlaps += 1 }
            inside = true
            lock.unlock()
            // Widen the window in which another thread could deliver at the same time, if the
            // runtime let it; nothing here depends on how long this takes.
            Thread.sleep(forTimeInterval: 0.000_05)
            lock.lock()
            inside = false
            lock.unlock()
        }

        func appConnectIsReady(_ appConnect: AppConnect) { enter() }
        func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String) {
            enter()
            try? appConnect.authStateApplied(.applied, message: "")
        }
        func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo newOpenInPolicy: OpenInStatus, whitelist newWhitelist: Whitelist) {
            enter()
            openInChanges.append(newOpenInPolicy.name)
            appConnect.openInPolicyApplied(.applied, message: "")
        }
        func appConnect(_ appConnect: AppConnect, configChangedTo newConfig: [String: String]) {
            enter()
            // A delegate may read the properties from inside a callback.
            _ = try? appConnect.config
            appConnect.configApplied(.applied, message: "")
        }
        func appConnect(_ appConnect: AppConnect, openInAttemptedWhenACOpenInPolicyBlocked openInPolicy: OpenInStatus) { enter() }

        var overlapCount: Int {
            lock.lock()
            defer { lock.unlock() }
            return overlaps
        }
    }

    @Test func decisionsNeverSeeAHalfAppliedUpdateAndCallbacksComeInOrder() async throws {
        let device = SimulatedDevice(server: Fixture.whitelistedServer)
        let app = WatchfulApp()
        let appConnect = try Fixture.readyLibrary(app, on: device)
        let request = try Fixture.documentShare(to: Fixture.other)

        let torn = await withTaskGroup(of: Int.self) { group in
            for pusher in 0..<4 {
                group.addTask {
                    for round in 0..<100 { device.push((round + pusher) % 2 == 0 ? Self.open : Self.strict) }
                    return 0
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    var torn = 0
                    for _ in 0..<200 {
                        let policy = appConnect.currentPolicy
                        let strict = policy.status == .whitelist && policy.whitelist.contains(Fixture.viewer) && !policy.config.disablesOpenInEnforcement
                        let open = policy.status == .unauthorized && policy.whitelist.contains(Fixture.other) && policy.config.disablesOpenInEnforcement
                        if !(strict || open) { torn += 1 }
                        // Under either update the decision is one of two: a dummy file (strict) or allow (open).
                        let decision = appConnect.share(request)
                        if decision.rule.rawValue != "document.unlisted-target" && decision.rule.rawValue != "enforcement-disabled.allow" { torn += 1 }
                    }
                    return torn
                }
            }
            return await group.reduce(0, +)
        }
        #expect(torn == 0)
        #expect(app.overlapCount == 0)
        // The delegate heard the Open In changes exactly in the order the device recorded them.
        let recorded = Fixture.callbacks(device).compactMap { callback, _ -> String? in
            if case .openInPolicyChanged(let policy, _) = callback { return policy.name }
            return nil
        }
        #expect(app.openInChanges.all == recorded)
        #expect(recorded.count > 1)
        // Consecutive deliveries alternate: a change is delivered only when the value changed.
        #expect(zip(recorded, recorded.dropFirst()).allSatisfy { $0 != $1 })
        #expect(device.awaitedAcknowledgments.isEmpty)
    }

    @Test func manyDevicesInParallelKeepTheirOwnProbes() async throws {
        // Each task's delegate implements a different set; the automatic acknowledgments must match each one.
        let counts = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for index in 0..<16 {
                group.addTask {
                    let device = SimulatedDevice()
                    _ = try Fixture.readyLibrary(index % 2 == 0 ? FullApp() : MinimalApp(), on: device)
                    return (index, device.acknowledgments.filter(\.automatic).count)
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(counts.count == 16)
        #expect(counts.allSatisfy { index, automatic in automatic == (index % 2 == 0 ? 0 : 6) })
    }
}
