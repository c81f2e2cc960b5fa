import AppConnect
import AppConnectTesting
import Foundation
import Testing

/// A minimal delegate: the two required methods and the one optional callback this app cares about.
final class MinimalNotesDelegate: NSObject, AppConnectDelegate {
    var openInPolicies: [ACOpenInPolicy] = []
    func appConnectIsReady(_ appConnect: AppConnect) {}
    func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String?) {
        appConnect.authStateApplied(.applied, message: nil)
    }
    func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo newOpenInPolicy: ACOpenInPolicy, whitelist newWhitelist: Set<String>) {
        openInPolicies.append(newOpenInPolicy)
        appConnect.openInPolicyApplied(.applied, message: nil)
    }
}

/// The guide's seeds name the Open In change callback's last label `newWhitelist:`, and the dictionary of
/// `configChangedTo` is easy to type as `[String: Any]`: both compile, and the SDK calls neither.
final class NearMissNotesDelegate: NSObject, AppConnectDelegate {
    func appConnectIsReady(_ appConnect: AppConnect) {}
    func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String?) {
        appConnect.authStateApplied(.applied, message: nil)
    }
    func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo newOpenInPolicy: ACOpenInPolicy, newWhitelist: Set<String>) {}
    func appConnect(_ appConnect: AppConnect, configChangedTo newConfig: [String: Any]) {}
    func applicationDidBecomeActiveForAppConnect(_ appConnect: AppConnect) {}
    // Not near any callback: an app's own helper.
    func appConnect(_ appConnect: AppConnect, didFinishSyncing count: Int) {}
}

extension AppConnectDoubleTests {
    @Suite struct FirstTest {
        @Test func aMinimalDelegateTestIsThreeLines() throws {
            let harness = try AppConnectHarness([.openInPolicy(.whitelist, whitelist: ["com.example.viewer"])], callbacks: .declaredByTheApp)
            harness.launch(MinimalNotesDelegate())
            #expect(harness.problems.isEmpty, "\(harness.problems)")
        }

        @Test func theStrictDefaultStillListsEveryCallbackTheAppDoesNotImplement() throws {
            let harness = try AppConnectHarness([.openInPolicy(.whitelist, whitelist: ["com.example.viewer"])])
            harness.launch(MinimalNotesDelegate())
            #expect(harness.problems.count >= 5)
            #expect(harness.problems.allSatisfy { $0.hasPrefix("the app implements no method the SDK would call for ") })
            #expect(!harness.problems.contains { $0.contains("appConnect:openInPolicyChangedTo:whitelist:") })
        }

        @Test func theDelegateIsCalledAndKeptAlive() throws {
            let harness = try AppConnectHarness([.openInPolicy(.whitelist, whitelist: ["com.example.viewer"])], callbacks: .declaredByTheApp)
            harness.launch(MinimalNotesDelegate())
            let delegate = try #require(AppConnect.sharedInstance()?.appConnectDelegate as? MinimalNotesDelegate)
            #expect(delegate.openInPolicies == [.whitelist])
            #expect(harness.acknowledgments.contains { $0.selector == "openInPolicyApplied:message:" && !$0.automatic })
        }

        @Test func nearMissesAreStillProblems() throws {
            let harness = try AppConnectHarness(callbacks: .declaredByTheApp)
            harness.launch(NearMissNotesDelegate())
            let type = String(reflecting: NearMissNotesDelegate.self)
            #expect(harness.problems == [
                "\(type).appConnect(_: AppConnect, configChangedTo: Dictionary<String, Any>) nearly matches the SDK callback appConnect:configChangedTo: "
                    + "but is not it (another parameter type: Dictionary<String, Any> where the SDK passes [AnyHashable : Any]), so the SDK would never call it: "
                    + "declare it as appConnect(_: AppConnect, configChangedTo: [AnyHashable : Any])",
                "\(type).appConnect(_: AppConnect, openInPolicyChangedTo: ACOpenInPolicy, newWhitelist: Set<String>) nearly matches the SDK callback "
                    + "appConnect:openInPolicyChangedTo:whitelist: but is not it (the label newWhitelist: where the SDK's is whitelist:), so the SDK would never call it: "
                    + "declare it as appConnect(_: AppConnect, openInPolicyChangedTo: ACOpenInPolicy, whitelist: Set<String>)",
                "\(type).applicationDidBecomeActiveForAppConnect(_: AppConnect) nearly matches the SDK callback applicationDidBecomeActiveFromAppConnect: "
                    + "but is not it (the name applicationDidBecomeActiveForAppConnect where the SDK's is applicationDidBecomeActiveFromAppConnect), "
                    + "so the SDK would never call it: declare it as applicationDidBecomeActiveFromAppConnect(_: AppConnect)",
            ])
        }

        @Test func theRequirementsListIsTheProtocol() throws {
            // GuideAppDelegate (Examples/SDKSampleApp) implements every callback: each is found exactly, none is a near miss.
            let harness = try AppConnectHarness(callbacks: .declaredByTheApp)
            let everything = AllCallbacksDelegate()
            harness.launch(everything)
            #expect(harness.problems.isEmpty, "\(harness.problems)")
            #expect(harness.callbacksNotImplemented.isEmpty, "\(harness.callbacksNotImplemented)")
        }
    }
}

/// Every method of `AppConnectDelegate`, exactly as declared.
final class AllCallbacksDelegate: NSObject, AppConnectDelegate {
    func appConnectIsReady(_ appConnect: AppConnect) {}
    func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String?) {
        appConnect.authStateApplied(.applied, message: nil)
    }
    func appConnect(_ appConnect: AppConnect, managedPolicyChangedTo newManagedPolicy: ACManagedPolicy) {}
    func appConnect(_ appConnect: AppConnect, configChangedTo newConfig: [AnyHashable: Any]) { appConnect.configApplied(.applied, message: nil) }
    func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo newOpenInPolicy: ACOpenInPolicy, whitelist newWhitelist: Set<String>) {
        appConnect.openInPolicyApplied(.applied, message: nil)
    }
    func appConnect(_ appConnect: AppConnect, openFromPolicyChangedTo newOpenFromPolicy: ACOpenFromPolicy, whitelist newWhitelist: Set<String>) {
        appConnect.openFromPolicyApplied(.applied, message: nil)
    }
    func appConnect(_ appConnect: AppConnect, pasteboardPolicyChangedTo newPasteboardPolicy: ACPasteboardPolicy) {
        appConnect.pasteboardPolicyApplied(.applied, message: nil)
    }
    func appConnect(_ appConnect: AppConnect, printPolicyChangedTo newPrintPolicy: ACPrintPolicy) { appConnect.printPolicyApplied(.applied, message: nil) }
    func appConnect(_ appConnect: AppConnect, secureFileIOPolicyChangedTo newSecureFileIOPolicy: ACSecureFileIOPolicy) {
        appConnect.secureFileIOPolicyApplied(.applied, message: nil)
    }
    func appConnect(_ appConnect: AppConnect, logLevelChangedTo newLogLevel: ACLogLevel) {}
    func appConnect(_ appConnect: AppConnect, secureServicesAvailabilityChangedTo secureServicesAvailability: ACSecureServicesAvailability) {}
    func appConnect(_ appConnect: AppConnect, copyAttemptedWhenUnauthorized pasteboardPolicy: ACPasteboardPolicy) {}
    func appConnect(_ appConnect: AppConnect, openURLAttemptedWhenUnauthorizedFor openURL: URL) {}
    func appConnect(_ appConnect: AppConnect, openInAttemptedWhenACOpenInPolicyBlocked openInPolicy: ACOpenInPolicy) {}
    func appConnect(_ appConnect: AppConnect, openFromAttemptedWhenACOpenFromPolicyBlocked openFromPolicy: ACOpenFromPolicy,
                    sourceApplication sourceApplicationId: String?) {}
    func appConnectAttemptedDragAndDropToNonAppConnectApp(_ appConnect: AppConnect) {}
    func applicationWillResignActiveForAppConnect(_ appConnect: AppConnect) {}
    func applicationDidBecomeActiveFromAppConnect(_ appConnect: AppConnect) {}
}

@testable import AppConnectTesting

@Suite struct DeclaredMethodsTests {
    @Test func aFileThatIsNotAnUnstrippedELFGivesNoSymbolsNotAnEmptyList() {
        let notELF = [UInt8](repeating: 0x41, count: 200)
        #expect(notELF.withUnsafeBytes { ELFSymbols.names(in: $0) } == nil)
        #expect(ELFSymbols.functionNames(path: "/nonexistent/binary") == nil)
    }

    @Test func demangledMethodsAreReadWithTheirLabelsAndTypes() throws {
        let method = try #require(DeclaredMethods.parse("appConnect(_: AppConnect.AppConnect, configChangedTo: [Swift.AnyHashable : Any]) -> ()"))
        #expect(method.swiftName == "appConnect(_:configChangedTo:)")
        #expect(method.types == ["AppConnect.AppConnect", "[Swift.AnyHashable : Any]"])
        #expect(DeclaredMethods.parse("configs.getter : Swift.Int") == nil)
        #expect(NearMisses.canonical("Swift.Dictionary<Swift.AnyHashable, Any>") == NearMisses.canonical("[AnyHashable : Any]"))
        #expect(NearMisses.canonical("Swift.Optional<Swift.String>") == "String?")
    }
}
