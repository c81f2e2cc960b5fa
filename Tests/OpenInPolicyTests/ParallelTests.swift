import Dispatch
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInKit

/// Work split across the cores (issue 43) gives what one loop gives: results in order, and the error a
/// loop in order meets first, however the parts end.
@Suite(.serialized) struct ParallelTests {
    struct Failed: Error, Equatable { let index: Int }

    @Test("parts are joined in index order, whatever order they end in")
    func joinedInOrder() {
        let squares = Parallel.map(10_000, minimum: 100) { range in range.map { $0 * $0 } }
        #expect(squares == (0..<10_000).map { $0 * $0 })
        #expect(Parallel.map(0, minimum: 1) { range in range.map { $0 } }.isEmpty)
    }

    @Test("below twice the minimum, one part: the body sees the whole range once")
    func smallWorkIsOnePart() {
        let parts = Parallel.map(150, minimum: 100) { range in [range] }
        #expect(parts == [0..<150])
    }

    @Test("the earliest part's error is thrown, as a loop in order would meet it first")
    func earliestErrorWins() {
        let failing: Set<Int> = [30, 6_000, 9_999]
        #expect(throws: Failed(index: 30)) {
            _ = try Parallel.map(10_000, minimum: 100) { (range) throws(Failed) -> [Int] in
                try range.map { (index) throws(Failed) in
                    if failing.contains(index) { throw Failed(index: index) }
                    return index
                }
            }
        }
    }

    /// Counts its live instances: what `fill` lets go must be let go once, and what it keeps kept.
    final class Tracked: @unchecked Sendable {
        static let lock = CountLock()
        nonisolated(unsafe) static var live = 0
        let index: Int
        init(_ index: Int) {
            self.index = index
            Self.lock.with { Self.live += 1 }
        }
        deinit { Self.lock.with { Self.live -= 1 } }
    }

    @Test("fill makes every result in place, in order; with a failure, the results before the first failing index and its error, the rest let go")
    func fillInPlace() {
        let all = Parallel.fill(10_000, minimum: 100) { (index) throws(Failed) in index * 3 }
        #expect(all.values == (0..<10_000).map { $0 * 3 })
        #expect(all.failure == nil)
        do {
            let failing: Set<Int> = [4_321, 7_000, 9_999]
            let some = Parallel.fill(10_000, minimum: 100) { (index) throws(Failed) -> Tracked in
                if failing.contains(index) { throw Failed(index: index) }
                return Tracked(index)
            }
            #expect(some.failure == Failed(index: 4_321))
            #expect(some.values.count == 4_321)
            #expect(some.values.enumerated().allSatisfy { $0.offset == $0.element.index })
            #expect(Tracked.live == 4_321)
        }
        #expect(Tracked.live == 0)
        let small = Parallel.fill(10, minimum: 100) { (index) throws(Failed) -> Int in
            if index == 6 { throw Failed(index: index) }
            return index
        }
        #expect(small.values == [0, 1, 2, 3, 4, 5] && small.failure == Failed(index: 6))
    }

    @Test("both gives each side's result")
    func both() {
        let (a, b) = Parallel.both({ (0..<1_000).reduce(0, +) }, { String(repeating: "x", count: 3) })
        #expect(a == 499_500)
        #expect(b == "xxx")
    }

    /// Many `both` at once from every core's threads: whichever thread takes the second side (a thread of the
    /// global queue, or the caller when its first side ends before one does), each call gets its own two results.
    @Test("both called from many threads at once: each gets its own results, however the second side is taken")
    func bothFromManyThreads() {
        final class Got: @unchecked Sendable {
            let lock = CountLock()
            var pairs = [(Int, Int)?](repeating: nil, count: 200)
        }
        let got = Got()
        DispatchQueue.concurrentPerform(iterations: got.pairs.count) { index in
            let pair = Parallel.both({ index }, { index * 2 })
            got.lock.with { got.pairs[index] = pair }
        }
        #expect(got.pairs.indices.allSatisfy { index in got.pairs[index].map { $0 == (index, index * 2) } == true })
    }

    /// Parts made inside `both`'s first side still run at the same time as each other: each part waits (up to
    /// ten seconds) until two parts have started, which never happens when nested parts run one after the other
    /// (as a `concurrentPerform` inside another does). On one core there is one part, and nothing to wait for.
    @Test("the parts of work split inside both still go to every core")
    func nestedPartsRunTogether() {
        let started = CountLock()
        var count = 0
        let together = DispatchSemaphore(value: 0)
        let (overlapped, _) = Parallel.both({
            Parallel.map(Parallel.cores * 4 * 10, minimum: 10) { range -> [Bool] in
                var now = 0
                started.with {
                    count += 1
                    now = count
                }
                if now == 2 { together.signal() }
                guard now == 1, Parallel.cores > 1 else { return [true] }
                // The first part waits for a second to start beside it, then lets the semaphore be for the rest.
                let met = together.wait(timeout: .now() + 10) == .success
                return [met]
            }
        }, { (0..<100).reduce(0, +) })
        if Parallel.cores > 1 {
            #expect(overlapped.allSatisfy { $0 })
        } else {
            #expect(overlapped == [true])
        }
    }

    /// An Intune devices file of `count` profiles read in parts: the profiles in file order, and of two broken ones
    /// the first in file order is the error (not the one a part ends with first).
    @Test("an Intune devices file read in parts: profiles in order, the first broken profile's error")
    func intuneDevicesInParts() throws {
        func file(_ profile: (Int) -> String?) -> [UInt8] {
            let profiles = (0..<600).map { "\"d\($0)\": \(profile($0) ?? #"{"installed": ["com.a"], "mdmEnrolled": false, "intuneMAMUPN": false}"#)" }
            return Array(#"{"apps": [{"bundleID": "com.a"}], "devices": {\#(profiles.joined(separator: ",\n"))}}"#.utf8)
        }
        let read = try IntuneDevicesJSON.read(file { _ in nil }, file: "devices.json")
        #expect(read.devices.map(\.name) == (0..<600).map { "d\($0)" })
        let broken = file {
            switch $0 {
            case 150: #"{"installed": ["com.a"], "mdmEnrolled": "yes", "intuneMAMUPN": false}"#
            case 590: #"{"installed": [1], "mdmEnrolled": false, "intuneMAMUPN": false}"#
            default: nil
            }
        }
        #expect {
            _ = try IntuneDevicesJSON.read(broken, file: "devices.json")
        } throws: { error in
            "\(error)".contains("devices.d150.mdmEnrolled") && "\(error)".contains("devices.json:151:")
        }
    }

    /// A fleet of `count` apps, each with a container policy; `app(n)` and `policy(n)` may replace the n-th.
    static func fleet(_ count: Int, app: (Int) -> String? = { _ in nil }, policy: (Int) -> String? = { _ in nil }) -> [UInt8] {
        let apps = (0..<count).map { app($0) ?? #"{"bundleID": "com.p.app\#($0)", "appconnect": true}"# }
        let policies = (0..<count).map { policy($0) ?? #"{"name": "P\#($0)", "app": "com.p.app\#($0)", "labels": ["L"], "openInPolicy": "authorized"}"# }
        let installed = (0..<count).map { "\"com.p.app\($0)\"" }
        let text = """
            {"global": {"authorizeAppsWithoutContainerPolicy": false, "openInPolicy": "authorized", "openFromPolicy": "authorized",
                        "pasteboardPolicy": "authorized", "printPolicy": "authorized", "dragAndDropPolicy": "all"},
             "containerPolicies": [\(policies.joined(separator: ",\n"))],
             "apps": [\(apps.joined(separator: ",\n"))],
             "devices": {"d": {"labels": ["L"], "installed": [\(installed.joined(separator: ", "))]}}}
            """
        return Array(text.utf8)
    }

    static func readError(_ bytes: [UInt8]) -> String? {
        do throws(FormatError) {
            _ = try FleetJSON.read(bytes, file: "fleet.json")
            return nil
        } catch {
            return error.description
        }
    }

    @Test("a fleet read in parts: an app listed twice before a malformed app in a later part is the error, as one loop reads them")
    func repeatedAppBeforeLaterError() throws {
        let bytes = Self.fleet(2_000, app: { n in
            switch n {
            case 300: #"{"bundleID": "com.p.app5", "appconnect": true}"#
            case 1_900: #"{"bundleID": "not a bundle id", "appconnect": true}"#
            default: nil
            }
        })
        let error = try #require(Self.readError(bytes))
        #expect(error.contains("apps[300]: com.p.app5 is listed twice"), "\(error)")
    }

    @Test("a fleet read in parts: of two malformed policies in different parts, the first is the error")
    func firstMalformedPolicyWins() throws {
        let bytes = Self.fleet(2_000, policy: { n in
            n == 100 || n == 1_800 ? #"{"name": "P\#(n)", "app": "com.p.app\#(n)", "labels": ["L"], "openInPolicy": "sometimes"}"# : nil
        })
        let error = try #require(Self.readError(bytes))
        #expect(error.contains("containerPolicies[100].openInPolicy"), "\(error)")
    }

    @Test("a device resolved in parts: of two apps whose configurations conflict, the first listed is the error")
    func firstConflictingConfigurationWins() throws {
        var fleet = try FleetJSON.read(Self.fleet(2_000), file: "fleet.json")
        for n in [1_700, 40] {
            for name in ["A", "B"] {
                fleet.appConfigurations.append(AppConfiguration(name: "\(name)\(n)", app: try BundleID("com.p.app\(n)"), labels: ["L"], config: AppConfig([:]), line: n))
            }
        }
        let profile = try #require(fleet.devices.first)
        #expect(throws: FleetError.self) { _ = try FleetDevice(fleet: fleet, resolving: profile) }
        do throws(FleetError) {
            _ = try FleetDevice(fleet: fleet, resolving: profile)
        } catch {
            #expect(error.description.contains("app configurations for com.p.app40"), "\(error)")
        }
    }

    @Test("the file's error checks run beside the resolution, and their error comes first, as when they ran first")
    func fileErrorBeforeResolutionError() throws {
        var fleet = try FleetJSON.read(Self.fleet(600), file: "fleet.json")
        for name in ["A", "B"] {
            fleet.appConfigurations.append(AppConfiguration(name: name, app: try BundleID("com.p.app7"), labels: ["L"], config: AppConfig([:]), line: 9))
        }
        #expect(throws: FleetError.self) { _ = try FleetDevice(fleet: fleet, resolving: fleet.devices[0]) }
        // A container policy for an app the fleet does not list: fleet lint's FL005 error, which every deciding verb refuses.
        fleet.containerPolicies.append(ContainerPolicy(name: "X", app: try BundleID("com.p.unlisted"), labels: ["L"], controls: PolicyControls(), line: 3))
        do throws(FleetError) {
            _ = try FleetDevice(fleet: fleet, profile: fleet.devices[0])
            Issue.record("decided a fleet lint refuses")
        } catch {
            #expect(error.description.contains("FL005"), "\(error)")
        }
    }

    @Test("lint's Open From refusals, classified and counted in parts, are those of deciding every pair")
    func refusalsInPartsAreEveryPairs() throws {
        let count = 520
        let bytes = Self.fleet(count, policy: { n in
            let openFrom = switch n % 3 {
            case 0: #""openFromPolicy": "whitelist", "openFromWhitelist": ["com.p.app\#((n + count - 1) % count)"]"#
            case 1: #""openFromPolicy": "authorized""#
            default: #""openFromPolicy": "unauthorized""#
            }
            let openIn = n % 5 == 0 ? #""openInPolicy": "authorized""# : #""openInPolicy": "whitelist", "openInWhitelist": ["com.p.app\#((n + 1) % count)", "com.p.app\#((n + 7) % count)"]"#
            return #"{"name": "P\#(n)", "app": "com.p.app\#(n)", "labels": ["L"], \#(openIn), \#(openFrom), "pasteboardPolicy": "authorized", "printPolicy": "authorized"}"#
        })
        let fleet = try FleetJSON.read(bytes, file: "fleet.json")
        let device = try FleetDevice(fleet: fleet, resolving: fleet.devices[0])
        let apps = fleet.apps.map(\.bundleID).filter(device.appConnectApps.contains)
        #expect(apps.count == count)
        let found = FleetLint.openFromRefusals(device), expected = FleetLint.openFromRefusalsPairByPair(device, apps)
        #expect(!found.isEmpty)
        #expect(found.map(\.receiver) == expected.map(\.receiver))
        #expect(found.map(\.count) == expected.map(\.count))
        #expect(found.map(\.first) == expected.map(\.first))
    }

    @Test("a device resolved in parts has every app's policy, as resolved one by one")
    func partsResolveEveryApp() throws {
        let fleet = try FleetJSON.read(Self.fleet(1_500), file: "fleet.json")
        let device = try FleetDevice(fleet: fleet, resolving: try #require(fleet.devices.first))
        #expect(device.table.sides.count == 1_500)
        for n in [0, 749, 750, 1_499] {
            let id = try BundleID("com.p.app\(n)")
            // Each app's own container policy: a result taken for the wrong app would name another.
            guard case .containerPolicy(let name, _) = device.effectivePolicy(for: id).source(of: .openIn) else {
                Issue.record("app \(n): \(device.effectivePolicy(for: id).source(of: .openIn))")
                continue
            }
            #expect(name == "P\(n)")
            #expect(device.side(for: id).prepared.policy == device.effectivePolicy(for: id).policy)
        }
    }
}

/// A lock for the test's instance count (a semaphore: no Foundation needed).
final class CountLock: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 1)
    func with(_ body: () -> Void) {
        semaphore.wait()
        body()
        semaphore.signal()
    }
}
