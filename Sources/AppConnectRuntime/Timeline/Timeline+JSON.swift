import OpenInPolicy

extension Timeline {
    /// The timeline as one JSON document, one event a line:
    ///
    /// ```
    /// {
    ///   "scenario": "Examples/scenarios/first-launch.scenario",
    ///   "events": [
    ///     {"line":9,"actor":"app","event":"launch","launch":1},
    ///     …
    ///   ],
    ///   "shares": 3,
    ///   "notAllowed": 1,
    ///   "awaitedAcknowledgments": []
    /// }
    /// ```
    ///
    /// Every event has `line`, `actor` and `event`, plus the fields of its kind
    /// (the README's runtime section lists them). Values are SDK constant names.
    public var json: String {
        var output = "{\n  \"scenario\": " + JSONWriter.quoted(scenario) + ",\n  \"events\": ["
        for (index, entry) in entries.enumerated() {
            output += index == 0 ? "\n    " : ",\n    "
            let (actor, _) = entry.event.textForm
            let fields: [(String, JSONValue)] = [("line", .int(entry.line)), ("actor", .string(actor))] + entry.event.jsonFields
            output += JSONWriter.compact(.fields(fields))
        }
        output += entries.isEmpty ? "],\n" : "\n  ],\n"
        output += "  \"shares\": \(decisions.count),\n"
        output += "  \"notAllowed\": \(sharesNotAllowed),\n"
        output += "  \"awaitedAcknowledgments\": " + JSONWriter.compact(.strings(awaitedAcknowledgments.map(\.selector))) + "\n}\n"
        return output
    }
}

extension TimelineEvent {
    /// `event` and the fields of this kind of event.
    var jsonFields: [(String, JSONValue)] {
        switch self {
        case .launch(let number):
            [("event", .string("launch")), ("launch", .int(number))]
        case .quit:
            [("event", .string("quit"))]
        case .server(let change):
            [("event", .string("server-change"))] + change.jsonFields
        case .device(let event):
            [("event", .string("device-change"))] + event.jsonFields
        case .call(let call):
            [("event", .string("call"))] + call.jsonFields
        case .checkIn(let answered):
            [("event", .string("check-in")), ("answered", .bool(answered))]
        case .callback(let callback, let implemented):
            [("event", .string("callback")), ("selector", .string(callback.selector)),
             ("arguments", .list(callback.jsonArguments)), ("implemented", .bool(implemented))]
        case .acknowledgment(let acknowledgment):
            [("event", .string("acknowledgment")), ("selector", .string(acknowledgment.kind.selector)),
             ("state", .string(acknowledgment.state.sdkName)), ("message", .string(acknowledgment.message)),
             ("automatic", .bool(acknowledgment.automatic))]
        case .refused(let call, let error):
            [("event", .string("refused")), ("call", .string(call)), ("error", .string(error.description))]
        case .read(let property, let result):
            switch result {
            case .success(let value):
                [("event", .string("read")), ("property", .string(property.rawValue)), ("value", .string(value))]
            case .failure(let exception):
                [("event", .string("read")), ("property", .string(property.rawValue)),
                 ("exception", .string(ACPropertyAccessException.name)), ("reason", .string(exception.reason.rawValue))]
            }
        case .share(let request, let decision):
            [("event", .string("share")), ("request", request.json), ("decision", decision.json)]
        case .copy(let outcome, let decision):
            [("event", .string("copy")), ("outcome", .string(outcome.rawValue)), ("decision", decision.json)]
        case .log(let level, let message, let logged):
            [("event", .string("log")), ("level", .string(level.sdkName)), ("message", .string(message)), ("logged", .bool(logged))]
        case .dualMode(let event):
            event.jsonFields
        }
    }
}

extension JSONValue {
    /// A number.
    static func int(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

    /// A string, or null for `nil`.
    static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// An array of strings.
    static func strings<S: Sequence>(_ items: S) -> JSONValue where S.Element == String {
        .array(JSONArray(items.map(JSONValue.string)))
    }

    /// An array.
    static func list(_ items: [JSONValue]) -> JSONValue { .array(JSONArray(items)) }

    /// An object of string values, sorted by key.
    static func dictionary(_ values: [String: String]) -> JSONValue {
        .fields(values.keys.sorted().map { ($0, .string(values[$0] ?? "")) })
    }

    /// An object with these members, in order.
    static func fields(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members: pairs.map { JSONObject.Member($0.0, $0.1) }))
    }
}

extension DelegateCallback {
    /// The arguments after the `AppConnect` instance: SDK constant names as
    /// strings, a whitelist as a sorted array, a config as an object.
    var jsonArguments: [JSONValue] {
        switch self {
        case .isReady, .dragAndDropToNonAppConnectApp, .willResignActive, .didBecomeActive: []
        case .authStateChanged(let state, let message): [.string(state.sdkName), .string(message)]
        case .configChanged(let config): [.dictionary(config)]
        case .openInPolicyChanged(let policy, let whitelist): [.string(policy.sdkName), .strings(whitelist.ids.map(\.rawValue).sorted())]
        case .openFromPolicyChanged(let policy, let whitelist): [.string(policy.sdkName), .strings(whitelist.ids.map(\.rawValue).sorted())]
        case .openFromAttemptedWhenBlocked(let policy, let source): [.string(policy.sdkName), .optional(source?.rawValue)]
        case .openURLAttemptedWhenUnauthorized(let url): [.string(url.rawValue)]
        default: arguments.map(JSONValue.string)
        }
    }
}

extension ServerChange {
    var jsonFields: [(String, JSONValue)] {
        switch self {
        case .authState(let state, let message): [("authState", .string(state.sdkName)), ("authMessage", .string(message))]
        case .managedPolicy(let policy): [("managedPolicy", .string(policy.sdkName))]
        case .openInPolicy(let policy, let whitelist):
            [("openInPolicy", .string(policy.sdkName)), ("openInWhitelist", .strings(whitelist.ids.map(\.rawValue).sorted()))]
        case .openInAllAppConnectApps: [("openInPolicy", .string("appconnect"))]
        case .openFromPolicy(let policy, let whitelist):
            [("openFromPolicy", .string(policy.sdkName)), ("openFromWhitelist", .strings(whitelist.ids.map(\.rawValue).sorted()))]
        case .openFromAllAppConnectApps: [("openFromPolicy", .string("appconnect"))]
        case .excludedAppleActivityTypes(let types): [("excludedAppleActivityTypes", .strings(types))]
        case .config(let values): [("config", .dictionary(values))]
        case .pasteboardPolicy(let policy): [("pasteboardPolicy", .string(policy.sdkName))]
        case .printPolicy(let policy): [("printPolicy", .string(policy.sdkName))]
        case .secureFileIOPolicy(let policy): [("secureFileIOPolicy", .string(policy.sdkName))]
        case .secureServicesAvailability(let availability): [("secureServicesAvailability", .string(availability.sdkName))]
        case .logLevel(let level): [("logLevel", .string(level.sdkName))]
        case .dragAndDropPolicy(let policy): [("dragAndDropPolicy", .optional(policy?.rawValue))]
        case .webDLP(let setting): [("webDLP", .optional(setting?.rawValue))]
        }
    }
}

extension DeviceEvent {
    var jsonFields: [(String, JSONValue)] {
        switch self {
        case .ivantiClient(let client): [("ivantiClient", .string(client.rawValue))]
        case .emailPlusInstalled(let installed): [("emailPlusInstalled", .bool(installed))]
        case .webAtWorkInstalled(let installed): [("webAtWorkInstalled", .bool(installed))]
        case .schemeHandler(let scheme, let handler): [("scheme", .string(scheme.lowercased())), ("handler", .string(handler.rawValue))]
        case .appConnectApps(let apps): [("appConnectApps", .strings(apps.map(\.rawValue).sorted()))]
        case .appConnectUIShown: [("appConnectUI", .string("shown"))]
        case .appConnectUIDismissed: [("appConnectUI", .string("dismissed"))]
        }
    }
}

extension LibraryCall {
    var jsonFields: [(String, JSONValue)] {
        switch self {
        case .shouldStartAppConnect(let answer): [("call", .string("shouldStartAppConnect")), ("result", .bool(answer))]
        case .start(let options): [("call", .string("startWithLaunchOptions:")), ("launchOptions", options.map(JSONValue.dictionary) ?? .null)]
        case .stop: [("call", .string("stop"))]
        case .retire: [("call", .string("retire"))]
        }
    }
}

extension ShareRequest {
    /// `{"channel", "target"?, "url"?, "document"?}`, the CLI's request form.
    var json: JSONValue {
        var fields: [(String, JSONValue)] = [("channel", .string(channel.rawValue))]
        if let target { fields.append(("target", .string(target.rawValue))) }
        if let url { fields.append(("url", .string(url.rawValue))) }
        if let source { fields.append(("source", .string(source.rawValue))) }
        if let document { fields.append(("document", .string(document))) }
        return .fields(fields)
    }
}

extension Decision {
    /// The CLI's decision record (``DecisionRecord``), as `openin-check eval` writes it.
    var json: JSONValue { .object(DecisionRecord.json(self)) }
}

extension DualModeEvent {
    var jsonFields: [(String, JSONValue)] {
        switch self {
        case .loaded(let record, let persisted):
            [("event", .string("dual-mode-loaded")), ("state", .string(record.state.rawValue)),
             ("dataEncryption", .string(record.dataEncryption.rawValue)), ("persisted", .bool(persisted))]
        case .stateChanged(let state): [("event", .string("dual-mode-state")), ("state", .string(state.rawValue))]
        case .dataEncryptionChanged(let encryption): [("event", .string("data-encryption")), ("dataEncryption", .string(encryption.rawValue))]
        case .retireActions: [("event", .string("retire-actions"))]
        case .switchRequested(let state): [("event", .string("mode-requested")), ("state", .string(state.rawValue))]
        case .switchIgnored(let reason): [("event", .string("mode-request-ignored")), ("reason", .string(reason))]
        case .switchFinished(let state, let succeeded):
            [("event", .string("mode-request-finished")), ("state", .string(state.rawValue)), ("succeeded", .bool(succeeded))]
        case .storeFailed(let error): [("event", .string("store-failed")), ("error", .string(error.description))]
        }
    }
}
