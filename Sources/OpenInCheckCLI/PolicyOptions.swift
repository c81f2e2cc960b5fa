import OpenInPolicy
import OpenInReports

/// The options that say which policy to decide under, shared by `eval` and `matrix`:
/// a policy file, and flags that add to or override it.
struct PolicyOptions: Sendable, Equatable {
    /// A `KEY=VALUE` or `SCHEME=BUNDLE_ID` pair from the command line.
    struct Pair: Sendable, Equatable {
        let key: String
        let value: String
    }

    /// `--policy FILE`: a JSON policy or an AppConnect.plist.
    var policyPath: String
    /// `--info-plist FILE`: replaces the policy file's `infoPlist`.
    var infoPlistPath: String? = nil
    /// `--build-setting NAME=VALUE`, in order: each sets one build setting for Info.plist references.
    var buildSettings: [Pair] = []
    /// `--config KEY=VALUE`, in order: each sets (overrides) one key.
    var config: [Pair] = []
    /// `--email-plus-installed`.
    var emailPlusInstalled = false
    /// `--secure-services available|unavailable`: whether the device's secure services are available (overrides the file).
    var secureServicesAvailable: Bool? = nil
    /// `--scheme-handler SCHEME=BUNDLE_ID`, in order: each sets one scheme's handler.
    var schemeHandlers: [Pair] = []
    /// `--app-scheme SCHEME`: adds to the app's own schemes.
    var appSchemes: [String] = []
    /// `--appconnect-app ID`: adds to the device's AppConnect apps.
    var appConnectApps: [String] = []
    /// `--web-dlp allowed|not-allowed`: the Web DLP setting (overrides the file).
    var webDLP: String? = nil
    /// `--web-at-work`: Web@Work is installed.
    var webAtWorkInstalled = false
    /// `--excluded-activity TYPE`, in order: adds to the server's `excludedAppleActivityTypes`.
    var excludedActivities: [String] = []
    /// `--max-file-size BYTES`: the largest policy file or Info.plist read.
    var maxFileSize = CappedFile.defaultLimit

    /// The most `--max-file-size` may allow: 1 GiB.
    static let largestMaxFileSize = 1 << 30

    static let specs: [OptionSpec] = [
        OptionSpec("--policy", value: "FILE", help: "The policy: a JSON policy file, or an AppConnect.plist (XML or binary). Required."),
        OptionSpec("--info-plist", value: "FILE", help: "The app's Info.plist (XML or binary): its MI_APP_CONNECT dictionary's\nMI_AC_DISABLE_SCHEME_BLOCKING, and its own URL schemes (CFBundleURLTypes,\nadded to the others). Replaces the policy file's infoPlist."),
        OptionSpec("--build-setting", value: "NAME=VALUE", repeatable: true, help: "Resolve $(NAME) and ${NAME} in the Info.plist's URL schemes, as Xcode does\n(modifiers :lower, :upper, :rfc1034identifier). Repeatable."),
        OptionSpec("--config", value: "KEY=VALUE", repeatable: true, help: "Set a key of the app-specific configuration (overrides the file). Repeatable."),
        OptionSpec("--email-plus-installed", help: "Email+ is installed on the device."),
        OptionSpec("--secure-services", value: "available|unavailable", help: "Whether the device's secure services are available (overrides the file);\na copy under securecopy depends on it."),
        OptionSpec("--scheme-handler", value: "SCHEME=BUNDLE_ID", repeatable: true, help: "The app that handles a URL scheme on the device (overrides the file); mailto=BUNDLE_ID sets the mail app mailto: goes to. Repeatable."),
        OptionSpec("--app-scheme", value: "SCHEME", repeatable: true, help: "One of the app's own URL schemes (adds to the file). Repeatable."),
        OptionSpec("--appconnect-app", value: "BUNDLE_ID", repeatable: true, help: "An AppConnect app on the device (adds to the file); under \"appconnect\"\nthese make up the whitelist. Repeatable."),
        OptionSpec("--web-dlp", value: "allowed|not-allowed", help: "The AppConnect global policy's Web DLP setting for http and https links\n(overrides the file)."),
        OptionSpec("--web-at-work", help: "Web@Work, Ivanti's secure browser, is installed on the device."),
        OptionSpec("--excluded-activity", value: "TYPE", repeatable: true, help: "An Apple activity type the server excludes from the share sheet\n(excludedAppleActivityTypes; adds to the file). Repeatable."),
        OptionSpec("--max-file-size", value: "BYTES", help: "The largest policy file or Info.plist read (default 16777216, 16 MiB);\na larger one is an error. At most 1073741824."),
    ]

    /// Reads the policy options out of scanned arguments.
    /// - Throws: ``UsageError`` when `--policy` is missing or a pair has no `=`.
    static func parse(_ options: ParsedOptions, verb: String) throws(UsageError) -> PolicyOptions {
        guard let policyPath = options.value("--policy") else { throw UsageError("missing '--policy FILE': give the policy to decide under", verb: verb) }
        var result = PolicyOptions(policyPath: policyPath)
        result.infoPlistPath = options.value("--info-plist")
        result.buildSettings = try options.all("--build-setting").map { text throws(UsageError) in
            try pair(text, option: "--build-setting NAME=VALUE", valueMayBeEmpty: true, verb: verb)
        }
        result.config = try options.all("--config").map { text throws(UsageError) in
            try pair(text, option: "--config KEY=VALUE", valueMayBeEmpty: true, verb: verb)
        }
        result.emailPlusInstalled = options.has("--email-plus-installed")
        if let text = options.value("--secure-services") {
            switch text {
            case "available": result.secureServicesAvailable = true
            case "unavailable": result.secureServicesAvailable = false
            default: throw UsageError("'--secure-services' takes available or unavailable, not '\(text)'", verb: verb)
            }
        }
        result.schemeHandlers = try options.all("--scheme-handler").map { text throws(UsageError) in
            try pair(text, option: "--scheme-handler SCHEME=BUNDLE_ID", valueMayBeEmpty: false, verb: verb)
        }
        result.appSchemes = options.all("--app-scheme")
        result.appConnectApps = options.all("--appconnect-app")
        result.webDLP = options.value("--web-dlp")
        result.webAtWorkInstalled = options.has("--web-at-work")
        result.excludedActivities = options.all("--excluded-activity")
        if let text = options.value("--max-file-size") {
            guard let bytes = Int(text), (1...largestMaxFileSize).contains(bytes) else {
                throw UsageError("'--max-file-size' must be a number of bytes from 1 to \(largestMaxFileSize), not '\(text)'", verb: verb)
            }
            result.maxFileSize = bytes
        }
        return result
    }

    static func pair(_ text: String, option: String, valueMayBeEmpty: Bool, verb: String) throws(UsageError) -> Pair {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex,
              valueMayBeEmpty || text.index(after: equals) != text.endIndex else {
            throw UsageError("'\(text)' is not of the form \(option.split(separator: " ").last!) (for \(option.split(separator: " ").first!))", verb: verb)
        }
        return Pair(key: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
    }

    /// Reads the files and applies the flags.
    /// - Throws: ``CLIError/invalidInput(_:)`` for a file that cannot be read or is invalid, or an invalid flag value.
    func load() throws(CLIError) -> PolicyInputs {
        try load(bytes: try readPolicyFile())
    }

    /// The policy file's bytes, read once (a pipe or `<(…)` can be read only once), within `--max-file-size`.
    func readPolicyFile() throws(CLIError) -> [UInt8] {
        try ByteSource.readFile(path: policyPath, what: "policy file", limit: maxFileSize)
    }

    /// Loads the policy from the policy file's bytes, read already (``readPolicyFile()``).
    func load(bytes given: [UInt8]) throws(CLIError) -> PolicyInputs {
        let settings = try Self.buildSettings(buildSettings)
        var bytes = given
        var inputs: PolicyInputs
        do throws(FormatError) {
            // The file's buffer is handed over: a JSON policy's whitelists keep their IDs in it (no second copy).
            inputs = try PolicyFile.read(owning: &bytes, file: policyPath, buildSettings: settings)
        } catch {
            throw .invalidInput(error.description)
        }
        if let infoPlistPath {
            let plist = try ByteSource.readFile(path: infoPlistPath, what: "Info.plist", limit: maxFileSize)
            let contents: InfoPlist.Contents
            do throws(FormatError) {
                contents = try InfoPlist.read(plist, buildSettings: settings)
            } catch {
                throw .invalidInput(error.inFile(infoPlistPath).description)
            }
            inputs.stated.infoPlist = contents.overrides
            inputs.stated.app.removeInfoPlistSchemes()
            for declared in contents.urlSchemes {
                let origin = SchemeOrigin.infoPlist(file: infoPlistPath, keyPath: declared.keyPath, written: declared.written)
                try flagValue("\(infoPlistPath): \(declared.keyPath)") { () throws(InputError) in try inputs.stated.app.addScheme(declared.scheme, from: origin) }
            }
        }
        // Keys are set by their bytes: a look-alike of a key already set, or of a key the SDK reads, is an error.
        for pair in config {
            do throws(AppConfig.KeyProblem) {
                inputs.stated.config = try inputs.stated.config.setting(pair.key, to: pair.value)
            } catch {
                throw .invalidInput("--config \(pair.key)=\(pair.value): \(error.message)")
            }
        }
        if emailPlusInstalled { inputs.stated.device.emailPlusInstalled = true }
        if let secureServicesAvailable { inputs.stated.device.secureServicesAvailable = secureServicesAvailable }
        for pair in schemeHandlers {
            let flag = "--scheme-handler \(pair.key)=\(pair.value)"
            try inputs.stated.device.setHandler(try flagValue(flag) { () throws(InputError) in try BundleID(pair.value) }, for: pair.key, flag: flag)
        }
        for scheme in appSchemes {
            try flagValue("--app-scheme \(scheme)") { () throws(InputError) in try inputs.stated.app.addScheme(scheme, from: .flag("--app-scheme \(scheme)")) }
        }
        for app in appConnectApps {
            inputs.stated.device.appConnectApps.insert(try flagValue("--appconnect-app \(app)") { () throws(InputError) in try BundleID(app) })
        }
        if let webDLP {
            inputs.stated.webDLP = try flagValue("--web-dlp \(webDLP)") { () throws(InputError) in try WebDLPPolicy(parsing: webDLP) }
        }
        if webAtWorkInstalled { inputs.stated.device.webAtWorkInstalled = true }
        for activity in excludedActivities {
            inputs.stated.excludedActivityTypes.append(try flagValue("--excluded-activity \(activity)") { () throws(InputError) in try BundleID(activity) })
        }
        return inputs
    }

    /// The `--build-setting` pairs as build settings.
    /// - Throws: ``CLIError/invalidInput(_:)`` for a name that is not letters, digits and `_`.
    static func buildSettings(_ pairs: [Pair]) throws(CLIError) -> BuildSettings {
        var settings = BuildSettings()
        for pair in pairs {
            do throws(BuildSettings.Problem) {
                try settings.set(pair.key, to: pair.value)
            } catch {
                throw .invalidInput("--build-setting \(pair.key)=\(pair.value): \(error.description)")
            }
        }
        return settings
    }

    /// Runs `body`, naming `flag` in the message of an invalid value.
    private func flagValue<T>(_ flag: String, _ body: () throws(InputError) -> T) throws(CLIError) -> T {
        do throws(InputError) { return try body() } catch { throw .invalidInput("\(flag): \(error.description)") }
    }
}

private extension DeviceFacts {
    mutating func setHandler(_ handler: BundleID, for scheme: String, flag: String) throws(CLIError) {
        do throws(InputError) { try setHandler(handler, for: scheme) } catch { throw .invalidInput("\(flag): \(error.description)") }
    }
}
