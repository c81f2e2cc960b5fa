import OpenInPolicy

extension Scenario {
    /// Reads and parses the scenario file at `path`.
    /// - Throws: ``ScenarioError`` naming the file (and line) and how to fix it.
    public static func load(path: String) throws(ScenarioError) -> Scenario {
        let text = try CappedFile.readText(path: path, what: "scenario", unreadable: { "cannot be read: \($0)" },
                                           notUTF8: "is not UTF-8 text: save it as UTF-8")
        return try parse(text, name: path)
    }

    /// Parses a scenario's text.
    /// - Parameter name: where the text comes from, for errors and the timeline.
    /// - Throws: ``ScenarioError`` for the first malformed line: what is wrong and how to fix it.
    public static func parse(_ text: String, name: String) throws(ScenarioError) -> Scenario {
        var parser = ScenarioParser(name: name)
        var number = 0
        // "\r\n" is one Character in Swift, so split on it too: a file with Windows line endings reads like LF.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            let content = line.hasSuffix("\r") ? line.dropLast() : line
            let words: [ScenarioTokenizer.Word]
            do {
                words = try ScenarioTokenizer.words(content)
            } catch {
                throw ScenarioError(file: name, line: number, message: error.message)
            }
            guard !words.isEmpty else { continue }
            try parser.parse(words, line: number)
        }
        guard !parser.steps.isEmpty else {
            throw ScenarioError(file: name, line: 0, message: "has no statements: a scenario needs at least a 'launch' line")
        }
        return Scenario(name: name, app: parser.profile, steps: parser.steps)
    }
}

/// Turns lines into steps, checking each as it comes, and following what the
/// scenario has set so far (the Open In policy and whitelist, the device's
/// AppConnect apps, whether an app runs) so that every check is made here,
/// before anything runs.
struct ScenarioParser {
    let name: String
    var profile = AppProfile()
    var steps: [Scenario.Step] = []
    private var line = 0
    private var firstLaunch: Int?
    private var running = false
    private var openInPolicy = ServerState().openInPolicy
    private var whitelist = ServerState().openInWhitelist
    private var openInAllAppConnectApps = false
    private var openFromPolicy = ServerState().openFromPolicy
    private var openFromWhitelist = ServerState().openFromWhitelist
    private var openFromAllAppConnectApps = false

    init(name: String) { self.name = name }

    /// `. Did you mean 'x'?` when `word` is a likely typo of one of the choices listed in `list`
    /// ("a, b or c"), else nothing.
    static func didYouMean(_ word: String, in list: String, suffix: String = "") -> String {
        var candidates: [String] = []
        for part in list.split(separator: ",") {
            for choice in part.split(separator: " ") where choice != "or" && choice != "and"
                && choice.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) {
                candidates.append(String(choice))
            }
        }
        return Suggestion.closest(to: word, among: candidates).map { ". Did you mean '\($0)\(suffix)'?" } ?? ""
    }

    static let statements = "app, server, device, launch, check-in, quit, share, copy, read, ack, log, stop, retire or switch-mode"

    mutating func parse(_ words: [ScenarioTokenizer.Word], line: Int) throws(ScenarioError) {
        self.line = line
        let keyword = words[0]
        let arguments = Array(words.dropFirst()).map(\.text)
        guard !keyword.quoted else { throw fail("a line starts with a statement (\(Self.statements)), not quoted text") }
        switch keyword.text {
        case "app": try parseApp(arguments)
        case "server": try parseServer(arguments)
        case "device": try parseDevice(arguments)
        case "launch":
            let waiting = try waitingFlag(arguments, "launch")
            firstLaunch = firstLaunch ?? line
            running = true
            add(.launch(waiting: waiting))
        case "check-in":
            try noArguments(arguments, "check-in")
            try needRunning("check-in")
            add(.checkIn)
        case "quit":
            try noArguments(arguments, "quit")
            try needRunning("quit")
            running = false
            add(.quit)
        case "share": try parseShare(arguments)
        case "copy":
            try noArguments(arguments, "copy")
            try needRunning("copy")
            add(.copy)
        case "read":
            try needRunning("read")
            guard arguments.count == 1, let property = AppConnectProperty(rawValue: arguments[0]) else {
                throw fail("write 'read PROPERTY' with one of \(AppConnectProperty.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            add(.read(property))
        case "ack": try parseAck(arguments)
        case "log":
            try needRunning("log")
            guard arguments.count == 2 else { throw fail("write 'log LEVEL \"message\"'") }
            add(.log(try value(arguments[0], ACLogLevel.self, "log level"), arguments[1]))
        case "stop":
            try noArguments(arguments, "stop")
            try needRunning("stop")
            add(.stop)
        case "retire":
            try noArguments(arguments, "retire")
            try needRunning("retire")
            add(.retire)
        case "switch-mode": try parseSwitchMode(arguments)
        default:
            throw fail("unknown statement '\(keyword.text)': a line starts with \(Self.statements)" + Self.didYouMean(keyword.text, in: Self.statements))
        }
    }

    // MARK: app

    private mutating func parseApp(_ arguments: [String]) throws(ScenarioError) {
        guard let what = arguments.first else {
            throw fail("write 'app implements …', 'app acknowledges …', 'app dual-mode', 'app info-plist …' or 'app url-schemes …'")
        }
        let rest = Array(arguments.dropFirst())
        if what != "acknowledges", let firstLaunch {
            throw fail("'app \(what)' describes the app: move it above the first launch (line \(firstLaunch))")
        }
        switch what {
        case "implements":
            guard !rest.isEmpty else { throw fail("write 'app implements CALLBACK…' with callback names such as configChangedTo, or 'all'") }
            for name in rest {
                if name == "all" {
                    profile.implements.formUnion(DelegateCallback.Kind.allCases.filter { !$0.isRequired })
                    continue
                }
                guard let kind = DelegateCallback.Kind(parsing: name) else {
                    let names = DelegateCallback.Kind.allCases.filter { !$0.isRequired }.map(\.name).joined(separator: ", ")
                    throw fail("unknown callback '\(name)': use all, or some of \(names)" + Self.didYouMean(name, in: "all, " + names))
                }
                if kind.isRequired { throw fail("\(kind.selector) is required, so every app implements it: leave it out") }
                profile.implements.insert(kind)
            }
        case "acknowledges":
            try parseAcknowledges(rest)
        case "dual-mode":
            guard rest.isEmpty else { throw fail("'app dual-mode' takes nothing after it") }
            profile.dualMode = true
        case "info-plist":
            let key = AppConfig.disableSchemeBlockingKey
            guard rest.count == 1, rest[0].hasPrefix(key + "=") else {
                throw fail("write 'app info-plist \(key)=YES' (the MI_APP_CONNECT key the engine reads)")
            }
            switch rest[0].dropFirst(key.count + 1).lowercased() {
            case "yes", "true": profile.infoPlist.disableSchemeBlocking = true
            case "no", "false": profile.infoPlist.disableSchemeBlocking = false
            default: throw fail("\(key) is a boolean: write YES or NO")
            }
        case "url-schemes":
            do throws(InputError) {
                let keyboards = profile.facts.allowsCustomKeyboards
                profile.facts = try AppFacts(urlSchemes: rest)
                profile.facts.allowsCustomKeyboards = keyboards
            } catch {
                throw fail(error.description)
            }
        case "custom-keyboards":
            // The app's answer to -shouldAllowExtensionPointIdentifier: for keyboard extensions.
            guard rest.count == 1, rest[0] == "allowed" || rest[0] == "refused" else {
                throw fail("write 'app custom-keyboards allowed|refused' (the app's answer to -shouldAllowExtensionPointIdentifier:)")
            }
            profile.facts.allowsCustomKeyboards = rest[0] == "allowed"
        default:
            throw fail("unknown app statement '\(what)': use implements, acknowledges, dual-mode, info-plist, url-schemes or custom-keyboards"
                + Self.didYouMean(what, in: "implements, acknowledges, dual-mode, info-plist, url-schemes or custom-keyboards"))
        }
    }

    private mutating func parseAcknowledges(_ arguments: [String]) throws(ScenarioError) {
        let usage = "write 'app acknowledges KIND STATE [\"message\"]' or 'app acknowledges KIND never', KIND one of all, \(AcknowledgmentKind.allCases.map(\.name).joined(separator: ", "))"
        guard arguments.count >= 2, arguments.count <= 3 else { throw fail(usage) }
        let kinds: [AcknowledgmentKind]
        if arguments[0] == "all" {
            kinds = AcknowledgmentKind.allCases
        } else if let kind = AcknowledgmentKind(parsing: arguments[0]) {
            kinds = [kind]
        } else {
            throw fail("unknown acknowledgment '\(arguments[0])': \(usage)"
                + Self.didYouMean(arguments[0], in: (["all"] + AcknowledgmentKind.allCases.map(\.name)).joined(separator: ", ")))
        }
        let reply: ScriptedApp.Reply
        if arguments[1] == "never" {
            guard arguments.count == 2 else { throw fail("'never' takes no message: \(usage)") }
            reply = .never
        } else {
            let state = try value(arguments[1], ACPolicyState.self, "policy state")
            reply = .acknowledge(state, arguments.count == 3 ? arguments[2] : state.name)
        }
        for kind in kinds { add(.acknowledges(kind, reply)) }
    }

    // MARK: server

    private mutating func parseServer(_ arguments: [String]) throws(ScenarioError) {
        let properties = "openInPolicy, openInWhitelist, openFromPolicy, openFromWhitelist, config, authState, managedPolicy, pasteboardPolicy, printPolicy, secureFileIOPolicy, excludedAppleActivityTypes, logLevel, dragAndDropPolicy or webDLP"
        guard let property = arguments.first else { throw fail("write 'server PROPERTY VALUE…' with PROPERTY one of \(properties)") }
        let rest = Array(arguments.dropFirst())
        let change: ServerChange
        switch property {
        case "openInPolicy":
            guard let text = rest.first else {
                throw fail("write 'server openInPolicy POLICY [ID…]' with POLICY unauthorized, authorized, whitelist or appconnect")
            }
            let setting: PolicySetting
            do throws(InputError) {
                setting = try PolicySetting(parsing: text)
            } catch {
                throw fail(error.description)
            }
            switch setting {
            case .allAppConnectApps:
                guard rest.count == 1 else {
                    throw fail("'appconnect' (All AppConnect apps) takes its whitelist from the device: remove the IDs, and list the apps with 'device appconnect-apps ID…'")
                }
                openInAllAppConnectApps = true
                change = .openInAllAppConnectApps
            case .status(let status):
                openInPolicy = status
                if openInAllAppConnectApps && rest.count == 1 && status == .whitelist {
                    throw fail("the policy was 'appconnect', whose whitelist is the device's AppConnect apps: give the whitelist's IDs after 'whitelist'")
                }
                if openInAllAppConnectApps { whitelist = .empty }   // the device's apps were not the server's list
                openInAllAppConnectApps = false
                if rest.count > 1 { whitelist = try bundleIDs(Array(rest.dropFirst())) }
                change = .openInPolicy(openInPolicy, whitelist: whitelist)
            }
        case "openInWhitelist":
            if openInAllAppConnectApps {
                throw fail("the Open In policy is 'appconnect', whose whitelist follows the device's AppConnect apps: write 'server openInPolicy whitelist ID…' for a whitelist of your own, or change the apps with 'device appconnect-apps ID…'")
            }
            whitelist = try bundleIDs(rest)
            change = .openInPolicy(openInPolicy, whitelist: whitelist)
        case "openFromPolicy":
            guard let text = rest.first else {
                throw fail("write 'server openFromPolicy POLICY [ID…]' with POLICY \(ACOpenFromPolicy.choices), or appconnect (All AppConnect apps)")
            }
            if text.lowercased() == "appconnect" {
                guard rest.count == 1 else {
                    throw fail("'appconnect' (All AppConnect apps) takes its whitelist from the device: remove the IDs, and list the apps with 'device appconnect-apps ID…'")
                }
                openFromAllAppConnectApps = true
                change = .openFromAllAppConnectApps
            } else {
                guard let policy = ACOpenFromPolicy(parsing: text) else {
                    throw fail("unknown Open From policy '\(text)': use \(ACOpenFromPolicy.choices), or appconnect (All AppConnect apps)")
                }
                if openFromAllAppConnectApps && rest.count == 1 && policy == .whitelist {
                    throw fail("the policy was 'appconnect', whose whitelist is the device's AppConnect apps: give the whitelist's IDs after 'whitelist'")
                }
                openFromPolicy = policy
                if openFromAllAppConnectApps { openFromWhitelist = .empty }   // the device's apps were not the server's list
                openFromAllAppConnectApps = false
                if rest.count > 1 { openFromWhitelist = try bundleIDs(Array(rest.dropFirst())) }
                change = .openFromPolicy(openFromPolicy, whitelist: openFromWhitelist)
            }
        case "openFromWhitelist":
            if openFromAllAppConnectApps {
                throw fail("the Open From policy is 'appconnect', whose whitelist follows the device's AppConnect apps: write 'server openFromPolicy whitelist ID…' for a whitelist of your own")
            }
            openFromWhitelist = try bundleIDs(rest)
            change = .openFromPolicy(openFromPolicy, whitelist: openFromWhitelist)
        case "excludedAppleActivityTypes":
            change = .excludedAppleActivityTypes(rest == ["-"] ? [] : rest)
        case "config":
            change = .config(try config(rest))
        case "authState":
            guard rest.count == 1 || rest.count == 2 else { throw fail("write 'server authState STATE [\"message\"]'") }
            change = .authState(try value(rest[0], ACAuthState.self, "auth state"), message: rest.count == 2 ? rest[1] : "")
        case "managedPolicy": change = .managedPolicy(try single(rest, property, ACManagedPolicy.self, "managed policy"))
        case "pasteboardPolicy": change = .pasteboardPolicy(try single(rest, property, ACPasteboardPolicy.self, "pasteboard policy"))
        case "printPolicy": change = .printPolicy(try single(rest, property, ACPrintPolicy.self, "print policy"))
        case "secureFileIOPolicy": change = .secureFileIOPolicy(try single(rest, property, ACSecureFileIOPolicy.self, "secure file I/O policy"))
        case "logLevel": change = .logLevel(try single(rest, property, ACLogLevel.self, "log level"))
        case "dragAndDropPolicy":
            guard rest.count == 1 else { throw fail("write 'server dragAndDropPolicy all|appconnect|none', or '-' for none given") }
            if rest[0] == "-" {
                change = .dragAndDropPolicy(nil)
            } else {
                do throws(InputError) {
                    change = .dragAndDropPolicy(try DragAndDropPolicy(parsing: rest[0]))
                } catch {
                    throw fail(error.description + ", or '-' for none given")
                }
            }
        case "webDLP":
            guard rest.count == 1 else { throw fail("write 'server webDLP allowed|not-allowed', or '-' for none given") }
            if rest[0] == "-" {
                change = .webDLP(nil)
            } else {
                do throws(InputError) {
                    change = .webDLP(try WebDLPPolicy(parsing: rest[0]))
                } catch {
                    throw fail(error.description + ", or '-' for none given")
                }
            }
        case "secureServicesAvailability":
            throw fail("secure services are the device's: write 'device secureServicesAvailability available|unavailable'")
        default:
            throw fail("unknown server property '\(property)': use \(properties)" + Self.didYouMean(property, in: properties))
        }
        add(.server([change]))
    }

    private func bundleIDs(_ words: [String]) throws(ScenarioError) -> Whitelist {
        if words == ["-"] { return .empty }
        do throws(InputError) {
            return try Whitelist(parsing: words)
        } catch {
            throw fail(error.description)
        }
    }

    private func config(_ words: [String]) throws(ScenarioError) -> [String: String] {
        var values: [String: String] = [:]
        if words == ["-"] { return values }
        for word in words {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                throw fail("config entries are KEY=VALUE (quote a value with spaces: KEY=\"a b\"), not '\(word)'; write 'server config -' for none")
            }
            let key = String(word[..<equals])
            if values[key] != nil { throw fail("config key '\(key)' is given twice: keep one") }
            values[key] = String(word[word.index(after: equals)...])
        }
        return values
    }

    // MARK: device

    private mutating func parseDevice(_ arguments: [String]) throws(ScenarioError) {
        let things = "ivanti-client, email-plus, web-at-work, handler, appconnect-apps, secureServicesAvailability or appconnect-screen"
        guard let thing = arguments.first else { throw fail("write 'device THING VALUE…' with THING one of \(things)") }
        let rest = Array(arguments.dropFirst())
        switch thing {
        case "ivanti-client":
            guard rest.count == 1, let client = IvantiClient(rawValue: rest[0]) else {
                throw fail("write 'device ivanti-client installed|not-installed|deleted'")
            }
            add(.device(.ivantiClient(client)))
        case "email-plus":
            guard rest.count == 1, rest[0] == "installed" || rest[0] == "not-installed" else {
                throw fail("write 'device email-plus installed|not-installed'")
            }
            add(.device(.emailPlusInstalled(rest[0] == "installed")))
        case "web-at-work":
            guard rest.count == 1, rest[0] == "installed" || rest[0] == "not-installed" else {
                throw fail("write 'device web-at-work installed|not-installed'")
            }
            add(.device(.webAtWorkInstalled(rest[0] == "installed")))
        case "handler":
            guard rest.count == 2 else { throw fail("write 'device handler SCHEME BUNDLE-ID', e.g. 'device handler dropbox com.getdropbox.Dropbox'") }
            do throws(InputError) {
                var check = DeviceFacts()
                let handler = try BundleID(rest[1])
                try check.setHandler(handler, for: rest[0])
                add(.device(.schemeHandler(rest[0], handler)))
            } catch {
                throw fail(error.description)
            }
        case "appconnect-apps":
            add(.device(.appConnectApps(try bundleIDs(rest).ids)))
        case "secureServicesAvailability":
            add(.server([.secureServicesAvailability(try single(rest, thing, ACSecureServicesAvailability.self, "secure services availability"))]))
        case "appconnect-screen":
            guard rest.count == 1, rest[0] == "shown" || rest[0] == "dismissed" else {
                throw fail("write 'device appconnect-screen shown|dismissed'")
            }
            add(.device(rest[0] == "shown" ? .appConnectUIShown : .appConnectUIDismissed))
        default:
            throw fail("unknown device statement '\(thing)': use \(things)" + Self.didYouMean(thing, in: things))
        }
    }

    // MARK: user and app actions

    private mutating func parseShare(_ arguments: [String]) throws(ScenarioError) {
        try needRunning("share")
        guard let channel = arguments.first else {
            throw fail("write 'share CHANNEL [target=ID] [url=URL] [source=ID] [document=NAME]' with CHANNEL one of \(Channel.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var fields: [String: String] = [:]
        for word in arguments.dropFirst() {
            guard let equals = word.firstIndex(of: "="), ["target", "url", "source", "document"].contains(String(word[..<equals])) else {
                throw fail("share takes target=ID, url=URL, source=ID and document=NAME, not '\(word)'"
                    + Self.didYouMean(String(word.prefix { $0 != "=" }), in: "target, url, source, document", suffix: "="))
            }
            let key = String(word[..<equals])
            if fields[key] != nil { throw fail("'\(key)' is given twice: keep one") }
            fields[key] = String(word[word.index(after: equals)...])
        }
        do throws(InputError) {
            add(.share(try ShareRequest(channel: channel, target: fields["target"], url: fields["url"], source: fields["source"],
                                        document: fields["document"])))
        } catch {
            throw fail(error.description)
        }
    }

    private mutating func parseAck(_ arguments: [String]) throws(ScenarioError) {
        try needRunning("ack")
        let usage = "write 'ack KIND STATE [\"message\"]', KIND one of \(AcknowledgmentKind.allCases.map(\.name).joined(separator: ", "))"
        guard arguments.count == 2 || arguments.count == 3 else { throw fail(usage) }
        guard let kind = AcknowledgmentKind(parsing: arguments[0]) else {
            throw fail("unknown acknowledgment '\(arguments[0])': \(usage)" + Self.didYouMean(arguments[0], in: AcknowledgmentKind.allCases.map(\.name).joined(separator: ", ")))
        }
        let state = try value(arguments[1], ACPolicyState.self, "policy state")
        add(.ack(kind, state, arguments.count == 3 ? arguments[2] : state.name))
    }

    private mutating func parseSwitchMode(_ arguments: [String]) throws(ScenarioError) {
        guard profile.dualMode else { throw fail("switch-mode is for dual-mode apps: add 'app dual-mode' above the first launch") }
        try needRunning("switch-mode")
        guard let mode = arguments.first, mode == "appconnect" || mode == "non-appconnect" else {
            throw fail("write 'switch-mode appconnect [waiting]' or 'switch-mode non-appconnect'")
        }
        let waiting = try waitingFlag(Array(arguments.dropFirst()), "switch-mode \(mode)")
        if waiting && mode == "non-appconnect" { throw fail("'waiting' goes with 'switch-mode appconnect' only: nothing waits for a check-in here") }
        add(.switchMode(mode == "appconnect" ? .appConnectMode : .nonAppConnectMode, waiting: waiting))
    }

    // MARK: Helpers

    private mutating func add(_ action: Scenario.Action) { steps.append(Scenario.Step(line: line, action: action)) }

    private func fail(_ message: String) -> ScenarioError { ScenarioError(file: name, line: line, message: message) }

    private func needRunning(_ statement: String) throws(ScenarioError) {
        guard running else {
            throw fail(firstLaunch == nil
                ? "'\(statement)' needs a running app: add 'launch' above this line"
                : "'\(statement)' needs a running app, and it quit: add 'launch' above this line")
        }
    }

    private func noArguments(_ arguments: [String], _ statement: String) throws(ScenarioError) {
        guard arguments.isEmpty else { throw fail("'\(statement)' takes nothing after it, found '\(arguments[0])'") }
    }

    private func waitingFlag(_ arguments: [String], _ statement: String) throws(ScenarioError) -> Bool {
        switch arguments {
        case []: return false
        case ["waiting"]: return true
        default: throw fail("'\(statement)' takes only 'waiting' (the Ivanti client does not answer until a 'check-in' line), found '\(arguments.joined(separator: " "))'")
        }
    }

    private func value<Value: SDKEnumeration>(_ text: String, _ type: Value.Type, _ what: String) throws(ScenarioError) -> Value {
        guard let value = Value(parsing: text) else { throw fail("unknown \(what) '\(text)': use \(Value.choices)" + Self.didYouMean(text, in: Value.choices)) }
        return value
    }

    private func single<Value: SDKEnumeration>(_ words: [String], _ property: String, _ type: Value.Type, _ what: String) throws(ScenarioError) -> Value {
        guard words.count == 1 else { throw fail("write '\(property) VALUE' with one of \(Value.choices)") }
        return try value(words[0], type, what)
    }
}
