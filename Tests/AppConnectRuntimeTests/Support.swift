import AppConnectRuntime
import Foundation
import OpenInPolicy

/// A thread-safe list of what a test delegate heard, in order.
final class CallLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ entry: String) {
        lock.lock()
        entries.append(entry)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}

/// An app that implements only the two required callbacks, and acknowledges the auth state.
final class MinimalApp: AppConnectDelegate {
    let log = CallLog()

    func appConnectIsReady(_ appConnect: AppConnect) { log.append("ready") }
    func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String) {
        log.append("auth \(newAuthState.name)")
        try? appConnect.authStateApplied(.applied, message: "auth applied")
    }
}

/// An app that implements every callback and acknowledges every change with `state`.
final class FullApp: AppConnectDelegate {
    let log = CallLog()
    let state: ACPolicyState

    init(acknowledging state: ACPolicyState = .applied) { self.state = state }

    func appConnectIsReady(_ appConnect: AppConnect) { log.append("ready") }
    func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String) {
        log.append("auth \(newAuthState.name)")
        try? appConnect.authStateApplied(state == .unsupported ? .applied : state, message: "auth")
    }
    func appConnect(_ appConnect: AppConnect, managedPolicyChangedTo newManagedPolicy: ACManagedPolicy) {
        log.append("managed \(newManagedPolicy.name)")
    }
    func appConnect(_ appConnect: AppConnect, configChangedTo newConfig: [String: String]) {
        log.append("config \(newConfig.keys.sorted())")
        appConnect.configApplied(state, message: "config")
    }
    func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo newOpenInPolicy: OpenInStatus, whitelist newWhitelist: Whitelist) {
        log.append("openIn \(newOpenInPolicy.name) \(newWhitelist.ids.map(\.rawValue).sorted())")
        appConnect.openInPolicyApplied(state, message: "openIn")
    }
    func appConnect(_ appConnect: AppConnect, openFromPolicyChangedTo newOpenFromPolicy: ACOpenFromPolicy, whitelist newWhitelist: Whitelist) {
        log.append("openFrom \(newOpenFromPolicy.name) \(newWhitelist.ids.map(\.rawValue).sorted())")
        appConnect.openFromPolicyApplied(state, message: "openFrom")
    }
    func appConnect(_ appConnect: AppConnect, openFromAttemptedWhenACOpenFromPolicyBlocked openFromPolicy: ACOpenFromPolicy,
                    sourceApplication: BundleID?) {
        log.append("openFromBlocked \(openFromPolicy.name) \(sourceApplication?.rawValue ?? "nil")")
    }
    func appConnect(_ appConnect: AppConnect, openInAttemptedWhenACOpenInPolicyBlocked openInPolicy: OpenInStatus) {
        log.append("openInBlocked \(openInPolicy.name)")
    }
    func appConnect(_ appConnect: AppConnect, openURLAttemptedWhenUnauthorizedForURL url: ShareURL) {
        log.append("openURLBlocked \(url.rawValue)")
    }
    func appConnectAttemptedDragAndDropToNonAppConnectApp(_ appConnect: AppConnect) { log.append("dragBlocked") }
    func appConnect(_ appConnect: AppConnect, pasteboardPolicyChangedTo newPasteboardPolicy: ACPasteboardPolicy) {
        log.append("pasteboard \(newPasteboardPolicy.name)")
        appConnect.pasteboardPolicyApplied(state, message: "pasteboard")
    }
    func appConnect(_ appConnect: AppConnect, copyAttemptedWhenUnauthorized pasteboardPolicy: ACPasteboardPolicy) {
        log.append("copyBlocked \(pasteboardPolicy.name)")
    }
    func appConnect(_ appConnect: AppConnect, printPolicyChangedTo newPrintPolicy: ACPrintPolicy) {
        log.append("print \(newPrintPolicy.name)")
        appConnect.printPolicyApplied(state, message: "print")
    }
    func appConnect(_ appConnect: AppConnect, secureServicesAvailabilityChangedTo availability: ACSecureServicesAvailability) {
        log.append("secureServices \(availability.name)")
    }
    func appConnect(_ appConnect: AppConnect, secureFileIOPolicyChangedTo newSecureFileIOPolicy: ACSecureFileIOPolicy) {
        log.append("secureFileIO \(newSecureFileIOPolicy.name)")
        appConnect.secureFileIOPolicyApplied(state, message: "secureFileIO")
    }
    func appConnect(_ appConnect: AppConnect, logLevelChangedTo newLogLevel: ACLogLevel) { log.append("logLevel \(newLogLevel.name)") }
    func applicationWillResignActive(forAppConnect appConnect: AppConnect) { log.append("resign") }
    func applicationDidBecomeActive(fromAppConnect appConnect: AppConnect) { log.append("active") }
}

/// Bundle IDs and values the tests use.
enum Fixture {
    static let viewer = try! BundleID("com.example.viewer")
    static let other = try! BundleID("com.example.other")

    /// WHITELIST of the viewer app.
    static var whitelistedServer: ServerState {
        ServerState(openInPolicy: .whitelist, openInWhitelist: Whitelist([viewer]))
    }

    /// Starts a library for `delegate` on `device` and answers its check-in.
    static func readyLibrary(_ delegate: any AppConnectDelegate, on device: SimulatedDevice) throws -> AppConnect {
        let appConnect = AppConnect(delegate: delegate, device: device)
        try appConnect.start(launchOptions: nil)
        device.checkIn()
        return appConnect
    }

    static func documentShare(to target: BundleID, document: String? = "report.pdf") throws -> ShareRequest {
        try ShareRequest(channel: .documentInteraction, target: target, document: document)
    }

    /// The callbacks in a device's timeline, as (selector, implemented).
    static func callbacks(_ device: SimulatedDevice) -> [(DelegateCallback, Bool)] {
        device.timeline.compactMap { event in
            if case .callback(let callback, let implemented) = event { return (callback, implemented) }
            return nil
        }
    }
}
