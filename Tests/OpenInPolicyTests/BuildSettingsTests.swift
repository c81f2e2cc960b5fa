import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

@Suite struct BuildSettingsTests {
    static let settings: BuildSettings = {
        var settings = BuildSettings()
        try! settings.set("PRODUCT_BUNDLE_IDENTIFIER", to: "com.example.App")
        try! settings.set("PRODUCT_NAME", to: "Travel Docs_2")
        return settings
    }()

    @Test(arguments: [
        ("ac$(PRODUCT_BUNDLE_IDENTIFIER)", "accom.example.App"),
        ("${PRODUCT_BUNDLE_IDENTIFIER}.open", "com.example.App.open"),
        ("$(PRODUCT_BUNDLE_IDENTIFIER:lower)", "com.example.app"),
        ("$(PRODUCT_BUNDLE_IDENTIFIER:upper)", "COM.EXAMPLE.APP"),
        ("$(PRODUCT_NAME:rfc1034identifier)", "Travel-Docs-2"),
        ("$(PRODUCT_NAME:rfc1034identifier:lower)x$(PRODUCT_NAME:upper)", "travel-docs-2xTRAVEL DOCS_2"),
        ("plain", "plain"),
        ("a$b$", "a$b$"),
        ("$$(PRODUCT_NAME)", "$Travel Docs_2"),
    ])
    func resolves(written: String, resolved: String) throws {
        #expect(try Self.settings.resolve(written) == resolved)
    }

    @Test func failsOnWhatItCannotResolve() {
        #expect(throws: BuildSettings.Problem.unresolved(reference: "$(EXECUTABLE_NAME)", name: "EXECUTABLE_NAME")) {
            try Self.settings.resolve("a$(EXECUTABLE_NAME)")
        }
        #expect(throws: BuildSettings.Problem.unsupportedModifier(reference: "$(PRODUCT_NAME:identifier)", modifier: "identifier")) {
            try Self.settings.resolve("$(PRODUCT_NAME:identifier)")
        }
        #expect(throws: BuildSettings.Problem.malformedReference("$(PRODUCT_NAME")) { try Self.settings.resolve("ac$(PRODUCT_NAME") }
        #expect(throws: BuildSettings.Problem.malformedReference("$(A B)")) { try Self.settings.resolve("$(A B)") }
        // ${…} closes with }, not ).
        #expect(throws: BuildSettings.Problem.malformedReference("${PRODUCT_NAME)")) { try Self.settings.resolve("${PRODUCT_NAME)") }
        var settings = BuildSettings()
        #expect(throws: BuildSettings.Problem.malformedName("MY-NAME")) { try settings.set("MY-NAME", to: "x") }
    }

    @Test func infoPlistSchemesAreReplacedButOthersStay() throws {
        var app = AppFacts()
        try app.addScheme("acme", from: .infoPlist(file: "a/Info.plist", keyPath: "CFBundleURLTypes[0].CFBundleURLSchemes[0]", written: nil))
        try app.addScheme("ACME", from: .flag("--app-scheme ACME"))
        try app.addScheme("old", from: .infoPlist(file: nil, keyPath: "CFBundleURLTypes[0].CFBundleURLSchemes[1]", written: nil))
        try app.addScheme("api")
        try app.addScheme("api", from: .infoPlist(file: nil, keyPath: "CFBundleURLTypes[1].CFBundleURLSchemes[0]", written: nil))
        app.removeInfoPlistSchemes()
        #expect(app.urlSchemes == ["acme", "api"])
        #expect(app.schemeOrigins["acme"] == [.flag("--app-scheme ACME")])
        #expect(app.schemeOrigins["old"] == nil)
    }
}
