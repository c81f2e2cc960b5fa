import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// The app's own URL schemes read from an Info.plist, through the library: XML and binary alike.
@Suite struct InfoPlistSchemesTests {
    static var plist: [String: Any] { [
        "CFBundleURLTypes": [
            ["CFBundleURLName": "one", "CFBundleURLSchemes": ["acme", "ac$(PRODUCT_BUNDLE_IDENTIFIER)"]],
            ["CFBundleURLSchemes": []],
            ["CFBundleURLSchemes": ["ACME"]],
        ],
        "MI_APP_CONNECT": ["MI_AC_DISABLE_SCHEME_BLOCKING": true],
    ] }

    @Test(arguments: [false, true])
    func readsEverySchemeInOrderWithItsKeyPath(binary: Bool) throws {
        var settings = BuildSettings()
        try settings.set("PRODUCT_BUNDLE_IDENTIFIER", to: "com.example.app")
        let contents = try InfoPlist.read(try Plist.bytes(Self.plist, binary: binary), buildSettings: settings)
        #expect(contents.overrides == InfoPlistOverrides(disableSchemeBlocking: true))
        #expect(contents.urlSchemes == [
            InfoPlist.DeclaredScheme(scheme: "acme", keyPath: "CFBundleURLTypes[0].CFBundleURLSchemes[0]"),
            InfoPlist.DeclaredScheme(scheme: "accom.example.app", keyPath: "CFBundleURLTypes[0].CFBundleURLSchemes[1]",
                                     written: "ac$(PRODUCT_BUNDLE_IDENTIFIER)"),
            InfoPlist.DeclaredScheme(scheme: "ACME", keyPath: "CFBundleURLTypes[2].CFBundleURLSchemes[0]"),
        ])
    }

    @Test(arguments: [false, true])
    func anUnresolvedReferenceIsAnErrorNotAMissingScheme(binary: Bool) throws {
        #expect(throws: FormatError("CFBundleURLTypes[0].CFBundleURLSchemes[1]: the build setting reference $(PRODUCT_BUNDLE_IDENTIFIER) in \"ac$(PRODUCT_BUNDLE_IDENTIFIER)\" is not resolved: pass the built app's Info.plist (the one inside the .app, where Xcode has resolved it), or give the value with --build-setting PRODUCT_BUNDLE_IDENTIFIER=VALUE")) {
            try InfoPlist.read(try Plist.bytes(Self.plist, binary: binary))
        }
    }

    @Test func aPolicyFilesInfoPlistAddsItsSchemesToTheAppsWithTheirOrigin() throws {
        let json = #"{"openInPolicy": "whitelist", "infoPlist": {"CFBundleURLTypes": [{"CFBundleURLSchemes": ["Acme"]}]}, "app": {"urlSchemes": ["acme", "other"]}}"#
        let inputs = try PolicyJSON.read(Array(json.utf8))
        #expect(inputs.stated.app.urlSchemes == ["acme", "other"])
        #expect(inputs.stated.app.schemeOrigins["acme"] == [
            .infoPlist(file: nil, keyPath: "CFBundleURLTypes[0].CFBundleURLSchemes[0]", written: nil),
            .policyFile(keyPath: "app.urlSchemes[0]"),
        ])
        let request = try ShareRequest(channel: .openURL, url: ShareURL("ACME://x"))
        #expect(Evaluator(policy: inputs.policy).decide(request).rule.rawValue == "open-url.own-scheme")
    }
}
