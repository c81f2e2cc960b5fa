internal import AppConnectRuntime
internal import OpenInPolicy
import Foundation

/// The runtime's delegate: forwards each callback to the app's SDK-style
/// delegate with the SDK's types. When the app has no method for it, the
/// protocol's default runs and tells the runtime, which acknowledges
/// UNSUPPORTED as the SDK does.
final class RuntimeBridge: AppConnectRuntime.AppConnectDelegate, @unchecked Sendable {
    // Set once, right after the owner's init; read on delivery.
    weak var owner: AppConnect?
    let world: DoubleWorld

    init(world: DoubleWorld) { self.world = world }

    /// Delivers one callback; an optional method the app lacks runs the protocol's default, which tells the runtime.
    private func deliver(_ kind: DelegateCallback.Kind, _ runtime: AppConnectRuntime.AppConnect,
                         _ call: (any AppConnectDelegate, AppConnect) -> Void) {
        guard let owner, let delegate = owner.appConnectDelegate else {
            world.problem("\(kind.selector) was due but the delegate is gone (the SDK holds it weakly): nothing was called")
            // An optional callback then counts as not implemented (UNSUPPORTED, as the SDK would find no method);
            // the auth state is never acknowledged UNSUPPORTED.
            if !kind.isRequired { DeliveryProbe.notImplemented() }
            return
        }
        Delivering.$selector.withValue(kind.selector) { call(delegate, owner) }
    }

    func appConnectIsReady(_ appConnect: AppConnectRuntime.AppConnect) {
        deliver(.isReady, appConnect) { $0.appConnectIsReady($1) }
    }
    func appConnect(_ appConnect: AppConnectRuntime.AppConnect, authStateChangedTo newAuthState: AppConnectRuntime.ACAuthState,
                    withMessage message: String) {
        deliver(.authStateChanged, appConnect) {
            $0.appConnect($1, authStateChangedTo: sdk(newAuthState, or: .unauthorized), withMessage: message)
        }
    }
    func appConnect(_ appConnect: AppConnectRuntime.AppConnect, managedPolicyChangedTo newManagedPolicy: AppConnectRuntime.ACManagedPolicy) {
        deliver(.managedPolicyChanged, appConnect) { $0.appConnect($1, managedPolicyChangedTo: sdk(newManagedPolicy, or: .unknown)) }
    }
    func appConnect(_ appConnect: AppConnectRuntime.AppConnect, configChangedTo newConfig: [String: String]) {
        deliver(.configChanged, appConnect) { $0.appConnect($1, configChangedTo: sdkConfig(newConfig)) }
    }
    func appConnect(_ appConnect: AppConnectRuntime.AppConnect, openInPolicyChangedTo newOpenInPolicy: OpenInStatus,
                    whitelist newWhitelist: Whitelist) {
        deliver(.openInPolicyChanged, appConnect) {
            $0.appConnect($1, openInPolicyChangedTo: sdk(newOpenInPolicy, or: ACOpenInPolicy.unauthorized),
                          whitelist: Set(newWhitelist.ids.map(\.rawValue)))
        }
    }
    func appConnect(_ appConnect: AppConnectRuntime.AppConnect, openInAttemptedWhenACOpenInPolicyBlocked openInPolicy: OpenInStatus) {
        deliver(.openInAttemptedWhenBlocked, appConnect) {
            $0.appConnect($1, openInAttemptedWhenACOpenInPolicyBlocked: sdk(openInPolicy, or: ACOpenInPolicy.unauthorized))
        }
    }
    func appConnect(_ appConnect: AppConnectRuntime.AppConnect, openFromPolicyChangedTo newOpenFromPolicy: AppConnectRuntime.ACOpenFromPolicy,
                    whitelist newWhitelist: Whitelist) {
        deliver(.openFromPolicyChanged, appConnect) {
            $0.appConnect($1, openFromPolicyChangedTo: sdk(newOpenFromPolicy, or: ACOpenFromPolicy.unauthorized),
                          whitelist: Set(newWhitelist.ids.map(\.rawValue)))
        }
    }
    func appConnect(_ appConnect: AppConnectRuntime.AppConnect,
                    openFromAttemptedWhenACOpenFromPolicyBlocked openFromPolicy: AppConnectRuntime.ACOpenFromPolicy,
                    sourceApplication: BundleID?) {
        deliver(.openFromAttemptedWhenBlocked, appConnect) {
            $0.appConnect($1, openFromAttemptedWhenACOpenFromPolicyBlocked: sdk(openFromPolicy, or: ACOpenFromPolicy.unauthorized),
                          sourceApplication: sourceApplication?.rawValue)
        }
    }
    func appConnect(_ appConnect: AppConnectRuntime.AppConnect, openURLAttemptedWhenUnauthorizedForURL url: ShareURL) {
        guard let foundationURL = URL(string: url.rawValue) else {
            world.problem("appConnect:openURLAttemptedWhenUnauthorizedForURL: not delivered: Foundation cannot read \(url.rawValue) as a URL")
            return
        }
        deliver(.openURLAttemptedWhenUnauthorized, appConnect) { $0.appConnect($1, openURLAttemptedWhenUnauthorizedFor: foundationURL) }
    }
    func appConnectAttemptedDragAndDropToNonAppConnectApp(_ appConnect: AppConnectRuntime.AppConnect) {
        deliver(.dragAndDropToNonAppConnectApp, appConnect) { $0.appConnectAttemptedDragAndDropToNonAppConnectApp($1) }
    }
    func appConnect(_ appConnect: AppConnectRuntime.AppConnect,
                    pasteboardPolicyChangedTo newPasteboardPolicy: AppConnectRuntime.ACPasteboardPolicy) {
        deliver(.pasteboardPolicyChanged, appConnect) {
            $0.appConnect($1, pasteboardPolicyChangedTo: sdk(newPasteboardPolicy, or: .unauthorized))
        }
    }
    func appConnect(_ appConnect: AppConnectRuntime.AppConnect,
                    copyAttemptedWhenUnauthorized pasteboardPolicy: AppConnectRuntime.ACPasteboardPolicy) {
        deliver(.copyAttemptedWhenUnauthorized, appConnect) {
            $0.appConnect($1, copyAttemptedWhenUnauthorized: sdk(pasteboardPolicy, or: .unauthorized))
        }
    }
    func appConnect(_ appConnect: AppConnectRuntime.AppConnect, printPolicyChangedTo newPrintPolicy: AppConnectRuntime.ACPrintPolicy) {
        deliver(.printPolicyChanged, appConnect) { $0.appConnect($1, printPolicyChangedTo: sdk(newPrintPolicy, or: .unauthorized)) }
    }
    func appConnect(_ appConnect: AppConnectRuntime.AppConnect,
                    secureServicesAvailabilityChangedTo availability: AppConnectRuntime.ACSecureServicesAvailability) {
        deliver(.secureServicesAvailabilityChanged, appConnect) {
            $0.appConnect($1, secureServicesAvailabilityChangedTo: sdk(availability, or: .unavailable))
        }
    }
    func appConnect(_ appConnect: AppConnectRuntime.AppConnect,
                    secureFileIOPolicyChangedTo newSecureFileIOPolicy: AppConnectRuntime.ACSecureFileIOPolicy) {
        deliver(.secureFileIOPolicyChanged, appConnect) {
            $0.appConnect($1, secureFileIOPolicyChangedTo: sdk(newSecureFileIOPolicy, or: .required))
        }
    }
    func appConnect(_ appConnect: AppConnectRuntime.AppConnect, logLevelChangedTo newLogLevel: AppConnectRuntime.ACLogLevel) {
        deliver(.logLevelChanged, appConnect) { $0.appConnect($1, logLevelChangedTo: sdk(newLogLevel, or: .status)) }
    }
    func applicationWillResignActive(forAppConnect appConnect: AppConnectRuntime.AppConnect) {
        deliver(.willResignActive, appConnect) { $0.applicationWillResignActiveForAppConnect($1) }
    }
    func applicationDidBecomeActive(fromAppConnect appConnect: AppConnectRuntime.AppConnect) {
        deliver(.didBecomeActive, appConnect) { $0.applicationDidBecomeActiveFromAppConnect($1) }
    }
}
