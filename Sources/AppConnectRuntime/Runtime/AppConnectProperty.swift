/// An instance property of ``AppConnect``, by its SDK name: what a scenario can `read`.
public enum AppConnectProperty: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `isReady`: readable at any time.
    case isReady
    /// `managedPolicy` (gated).
    case managedPolicy
    /// `authState` (gated).
    case authState
    /// `authMessage` (gated).
    case authMessage
    /// `pasteboardPolicy` (gated).
    case pasteboardPolicy
    /// `openInPolicy` (gated).
    case openInPolicy
    /// `openInWhitelist` (gated).
    case openInWhitelist
    /// `openFromPolicy` (gated).
    case openFromPolicy
    /// `openFromWhitelist` (gated).
    case openFromWhitelist
    /// `excludedAppleActivityTypes` (gated).
    case excludedAppleActivityTypes
    /// `printPolicy` (gated).
    case printPolicy
    /// `secureFileIOPolicy` (gated).
    case secureFileIOPolicy
    /// `config` (gated).
    case config
    /// `secureServicesAvailability`: readable at any time.
    case secureServicesAvailability
    /// `+logLevel`: readable at any time, even after `stop`.
    case logLevel

    public var description: String { rawValue }

    /// Whether reading it before ready throws ``ACPropertyAccessException`` (the list of the AppConnect for iOS SDK Developer Guide: AppConnect ready API details).
    public var isGated: Bool {
        switch self {
        case .isReady, .secureServicesAvailability, .logLevel: false
        default: true
        }
    }

    /// Reads the property from `appConnect`, as timeline text.
    public func read(from appConnect: AppConnect) -> Result<String, ACPropertyAccessException> {
        do throws(ACPropertyAccessException) {
            return .success(try text(from: appConnect))
        } catch {
            return .failure(error)
        }
    }

    private func text(from appConnect: AppConnect) throws(ACPropertyAccessException) -> String {
        switch self {
        case .isReady: appConnect.isReady ? "YES" : "NO"
        case .managedPolicy: try appConnect.managedPolicy.sdkName
        case .authState: try appConnect.authState.sdkName
        case .authMessage: TextForm.quoted(try appConnect.authMessage)
        case .pasteboardPolicy: try appConnect.pasteboardPolicy.sdkName
        case .openInPolicy: try appConnect.openInPolicy.sdkName
        case .openInWhitelist: TextForm.set(try appConnect.openInWhitelist.ids.map(\.rawValue))
        case .openFromPolicy: try appConnect.openFromPolicy.sdkName
        case .openFromWhitelist: TextForm.set(try appConnect.openFromWhitelist.ids.map(\.rawValue))
        case .excludedAppleActivityTypes: TextForm.list(try appConnect.excludedAppleActivityTypes)
        case .printPolicy: try appConnect.printPolicy.sdkName
        case .secureFileIOPolicy: try appConnect.secureFileIOPolicy.sdkName
        case .config: TextForm.dictionary(try appConnect.config)
        case .secureServicesAvailability: appConnect.secureServicesAvailability.sdkName
        case .logLevel: appConnect.logLevel.sdkName
        }
    }
}
