import Testing

@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// A hop's URL is part of a path's identity (its SARIF fingerprint), so it never follows the order of a devices file.
@Suite struct IntuneSchemeOrderTests {
    /// An app that handles two schemes the sender may open: the hop takes the scheme smallest by bytes, whichever the
    /// devices file lists first.
    @Test func aHopOpensTheSmallestSchemeWhateverTheHandlersOrder() throws {
        let policies = """
            [{"@odata.type": "#microsoft.graph.iosManagedAppProtection", "displayName": "P", "allowedOutboundDataTransferDestinations": "none",
              "allowedOutboundClipboardSharingLevel": "blocked", "exemptedAppProtocols": [{"name": "x", "value": "zeta;alpha;"}],
              "apps": [{"mobileAppIdentifier": {"@odata.type": "#microsoft.graph.iosMobileAppIdentifier", "bundleId": "com.a.one"}}]}]
            """
        func devices(_ handlers: String) -> String {
            """
            {"apps": [], "devices": {"d": {"installed": ["com.a.one", "com.b.two"], "mdmEnrolled": false, "intuneMAMUPN": true, "mdmManagedApps": [],
             "schemeHandlers": {\(handlers)}}}}
            """
        }
        var urls: [[String?]] = []
        for handlers in ["\"zeta\": \"com.b.two\", \"alpha\": \"com.b.two\"", "\"alpha\": \"com.b.two\", \"zeta\": \"com.b.two\""] {
            let device = try FleetSettingsTests.analysis(intune: policies, devices: devices(handlers)).device(named: "d")
            let path = try #require(try device.paths(from: try BundleID("com.a.one")).first { $0.to.description == "com.b.two" })
            urls.append(path.hops.map { $0.request.url?.rawValue })
        }
        #expect(urls[0] == ["alpha://report.pdf"])
        #expect(urls[1] == ["alpha://report.pdf"])
    }
}
