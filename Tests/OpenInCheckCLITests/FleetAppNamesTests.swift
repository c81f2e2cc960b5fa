import Testing
@testable import OpenInCheckCLI
@testable import OpenInPolicy

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
}
