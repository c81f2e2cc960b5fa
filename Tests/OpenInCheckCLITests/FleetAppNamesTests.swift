import Testing
@testable import OpenInCheckCLI
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import OpenInTestSupport

/// The apps a fleet knows are found by key (byte for byte for AppConnect, ignoring ASCII case for
/// Intune), each once, in file order; a device's installed apps likewise.
@Suite struct FleetAppNamesTests {
    static func id(_ text: String) -> BundleID { try! BundleID(text) }

    @Test func intuneAppsAreKnownOnceIgnoringCase() {
        let apps = (0..<2_000).map { Self.id("com.growth.App\($0)") }
        let device = IntuneDeviceProfile(name: "d", installed: apps, schemeHandlers: [(scheme: "box", app: Self.id("com.BOX.ios"))])
        var policy = IntunePolicy(displayName: "P")
        policy.apps = [Self.id("com.growth.app0"), Self.id("com.other.app")]
        let fleet = IntuneFleet(policies: [policy],
                                apps: apps.map { IntuneApp(bundleID: $0) }, devices: [device])
        let names = FleetAppNames(fleet, policies: "p.json", devicesFile: "d.json")
        // Each app once (the policy's com.growth.app0 is the devices file's com.growth.App0), file order kept.
        #expect(names.known.count == 2_002)
        #expect(names.known.prefix(2) == [Self.id("com.growth.App0"), Self.id("com.growth.App1")])
        #expect(names.known.suffix(2) == [Self.id("com.BOX.ios"), Self.id("com.other.app")])
        #expect(names.knownKeys.count == names.known.count)
        #expect(names.isKnown(Self.id("COM.GROWTH.APP1999")) && names.isKnown(Self.id("com.box.IOS")) && names.isKnown(.mobileMail))
        #expect(!names.isKnown(Self.id("com.growth.app2000")))
        #expect(names.devices(installing: Self.id("com.growth.app7")) == ["d"])
        #expect(names.devices(installing: Self.id("com.other.app")).isEmpty)
    }

    @Test func appConnectAppsAreKnownByteForByte() throws {
        let fleet = try FleetJSON.read(Array("""
            {"global": {"authorizeAppsWithoutContainerPolicy": true, "openInPolicy": "authorized", "openFromPolicy": "authorized",
                        "pasteboardPolicy": "authorized", "printPolicy": "authorized", "dragAndDropPolicy": "all"},
             "apps": [{"bundleID": "com.acme.hr", "appconnect": true}, {"bundleID": "com.acme.HR2", "appconnect": false}],
             "devices": {"d": {"labels": [], "installed": ["com.acme.hr", "com.example.other"]}}}
            """.utf8), file: "f.json")
        let names = FleetAppNames(fleet, file: "f.json")
        #expect(names.known == [Self.id("com.acme.hr"), Self.id("com.acme.HR2"), Self.id("com.example.other")])
        #expect(names.isKnown(Self.id("com.acme.HR2")) && !names.isKnown(Self.id("com.acme.hr2")) && !names.isKnown(Self.id("com.acme.HR")))
        #expect(names.devices(installing: Self.id("com.example.other")) == ["d"])
        #expect(names.devices(installing: Self.id("com.example.Other")).isEmpty)
    }

    @Test("the nearest known app is the one a walk of every app finds, ignoring case for Intune and not for AppConnect")
    func nearestAgreesWithAWalkOfEveryApp() throws {
        var state: UInt64 = 32
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let letters = Array("aAbB0")
        func word() -> String { String((0..<(1 + next(5))).map { _ in letters[next(letters.count)] }) }
        let apps = (0..<300).map { _ in Self.id("com.\(word()).\(word())") }
        let device = IntuneDeviceProfile(name: "d", installed: apps, schemeHandlers: [])
        let intune = FleetAppNames(IntuneFleet(policies: [], apps: apps.map { IntuneApp(bundleID: $0) }, devices: [device]),
                                   policies: "p.json", devicesFile: "d.json")
        var seen: Set<[UInt8]> = []
        let listed = apps.filter { seen.insert(Array($0.rawValue.utf8)).inserted }.map { #"{"bundleID": "\#($0)", "appconnect": false}"# }.joined(separator: ", ")
        let fleet = try FleetJSON.read(Array("""
            {"global": {"authorizeAppsWithoutContainerPolicy": true, "openInPolicy": "authorized", "openFromPolicy": "authorized",
                        "pasteboardPolicy": "authorized", "printPolicy": "authorized", "dragAndDropPolicy": "all"},
             "apps": [\(listed)], "devices": {"d": {"labels": [], "installed": []}}}
            """.utf8), file: "f.json")
        let appConnect = FleetAppNames(fleet, file: "f.json")
        #expect(appConnect.known.count > intune.known.count, "AppConnect keeps IDs that differ only in case apart")
        var found = 0
        for names in [intune, appConnect] {
            for _ in 0..<Soak.size(400) {
                let typed = Self.id("com.\(word()).\(word())")
                guard !names.isKnown(typed) else { continue }
                // The walk the index replaces: every known app within two edits, the nearest, the first of ties.
                let key = Array(names.key(typed))
                var best: (id: BundleID, distance: Int)? = nil
                for candidate in names.known {
                    let distance = Suggestion.editDistance(key, Array(names.key(candidate)))
                    if distance <= 2, distance < (best?.distance ?? 3) { best = (candidate, distance) }
                }
                #expect(names.nearest(to: typed) == best?.id, "\(typed)")
                if best != nil { found += 1 }
            }
        }
        #expect(found > Soak.least(150))
    }

    @Test("where an app is installed names a few device profiles and counts the rest")
    func whereInstalledListsAFewDevices() throws {
        let app = Self.id("com.acme.hr")
        let devices = (0..<20_000).map { IntuneDeviceProfile(name: "d\($0)", installed: [app], schemeHandlers: []) }
        let names = FleetAppNames(IntuneFleet(policies: [], apps: [IntuneApp(bundleID: app)], devices: devices), policies: "p.json", devicesFile: "d.json")
        #expect(names.whereInstalled(app) == "installed on d0, d1, d2, d3, d4 and 19995 more")
        #expect(names.whereInstalled(Self.id("com.other")) == "no device profile installs it")
        #expect(names.notes(try FleetRequest(from: app, channel: .documentInteraction, target: Self.id("com.other")), device: "d7")
                == ["com.other is not an app of the policies in p.json or the devices file d.json: decided as any other app"])
    }
}
