import OpenInPolicy

extension Timeline {
    /// The timeline as text: one event a line, `LINE  WHO  WHAT`, then a summary.
    ///
    /// `WHO` is `server`, `device`, `client` (the Ivanti client), `library`
    /// (the AppConnect library calling the app), `app` (the app calling the
    /// library, or acting on its dual-mode state) or `user`. Values are
    /// written as the SDK names them (`ACPOLICY_APPLIED`); sets and
    /// dictionaries are sorted; strings are quoted.
    public var text: String {
        var output = ""
        for entry in entries {
            let (actor, line) = entry.event.textForm
            let number = String(entry.line)
            output += String(repeating: " ", count: max(0, 4 - number.count)) + number + "  "
            output += actor + String(repeating: " ", count: max(1, 9 - actor.count)) + line + "\n"
        }
        output += summary + "\n"
        if !awaitedAcknowledgments.isEmpty {
            output += "the library still waits for " + awaitedAcknowledgments.map(\.selector).joined(separator: ", ") + "\n"
        }
        return output
    }
}

extension TimelineEvent {
    /// Who acts, and what happens, in one line.
    var textForm: (actor: String, text: String) {
        switch self {
        case .launch(let number):
            ("app", "launch \(number)")
        case .quit:
            ("app", "quits: the app process ends")
        case .server(let change):
            (change.actor, change.text)
        case .device(let event):
            ("device", event.text)
        case .call(let call):
            ("app", call.text)
        case .checkIn(let answered):
            ("client", answered ? "answers the library's check-in" : "check-in: no started library waits for one, nothing happens")
        case .callback(let callback, let implemented):
            ("library", callback.description + (implemented ? "" : "  (not implemented: not called)"))
        case .acknowledgment(let acknowledgment):
            acknowledgment.automatic
                ? ("library", acknowledgment.description + "  (automatic)")
                : ("app", acknowledgment.description)
        case .refused(let call, let error):
            ("app", "\(call) refused: \(error)")
        case .read(let property, let result):
            switch result {
            case .success(let value): ("app", "reads \(property): \(value)")
            case .failure(let exception): ("app", "reads \(property): throws \(ACPropertyAccessException.name) (\(exception.reason == .notReady ? "not ready" : "stopped"))")
            }
        case .share(let request, let decision):
            ("user", "share \(request.textForm) → \(decision.textForm)")
        case .copy(let outcome, let decision):
            ("user", "copy → \(outcome.rawValue) [\(decision.rule)]")
        case .log(let level, let message, let logged):
            ("app", "log \(level.sdkName) \(TextForm.quoted(message))" + (logged ? "" : "  (below the log level: not logged)"))
        case .dualMode(let event):
            event.textForm
        }
    }
}

extension ServerChange {
    /// Secure services are the device's; everything else is the server's.
    var actor: String {
        if case .secureServicesAvailability = self { return "device" }
        return "server"
    }

    var text: String {
        switch self {
        case .authState(let state, let message): "authState = \(state.sdkName), message \(TextForm.quoted(message))"
        case .managedPolicy(let policy): "managedPolicy = \(policy.sdkName)"
        case .openInPolicy(let policy, let whitelist):
            "openInPolicy = \(policy.sdkName), whitelist \(TextForm.set(whitelist.ids.map(\.rawValue)))"
        case .openInAllAppConnectApps:
            "openInPolicy = All AppConnect apps (ACOPENINPOLICY_WHITELIST of the device's AppConnect apps)"
        case .openFromPolicy(let policy, let whitelist):
            "openFromPolicy = \(policy.sdkName), whitelist \(TextForm.set(whitelist.ids.map(\.rawValue)))"
        case .openFromAllAppConnectApps:
            "openFromPolicy = All AppConnect apps (ACOPENFROMPOLICY_WHITELIST of the device's AppConnect apps)"
        case .excludedAppleActivityTypes(let types): "excludedAppleActivityTypes = \(TextForm.list(types))"
        case .config(let values): "config = \(TextForm.dictionary(values))"
        case .pasteboardPolicy(let policy): "pasteboardPolicy = \(policy.sdkName)"
        case .printPolicy(let policy): "printPolicy = \(policy.sdkName)"
        case .secureFileIOPolicy(let policy): "secureFileIOPolicy = \(policy.sdkName)"
        case .secureServicesAvailability(let availability): "secureServicesAvailability = \(availability.sdkName)"
        case .logLevel(let level): "logLevel = \(level.sdkName)"
        case .dragAndDropPolicy(let policy): "drag-and-drop policy = \(policy?.rawValue ?? "none given")"
        case .webDLP(let setting): "Web DLP = \(setting?.rawValue ?? "none given")"
        }
    }
}

extension DeviceEvent {
    var text: String {
        switch self {
        case .ivantiClient(let client):
            switch client {
            case .installed: "the Ivanti client is installed"
            case .notInstalled: "the Ivanti client is not installed"
            case .deleted: "the Ivanti client is deleted"
            }
        case .emailPlusInstalled(let installed): installed ? "Email+ is installed" : "Email+ is not installed"
        case .webAtWorkInstalled(let installed): installed ? "Web@Work is installed" : "Web@Work is not installed"
        case .schemeHandler(let scheme, let handler): "\(scheme.lowercased()): URLs open in \(handler)"
        case .appConnectApps(let apps): "AppConnect apps installed: \(TextForm.set(apps.map(\.rawValue)))"
        case .appConnectUIShown: "AppConnect shows its own screen"
        case .appConnectUIDismissed: "AppConnect's screen goes away"
        }
    }
}

extension LibraryCall {
    var text: String {
        switch self {
        case .shouldStartAppConnect(let answer): "shouldStartAppConnect → \(answer ? "YES" : "NO")"
        case .start(let options): "startWithLaunchOptions: \(options.map(TextForm.dictionary) ?? "nil")"
        case .stop: "stop"
        case .retire: "retire"
        }
    }
}

extension ShareRequest {
    /// `document-interaction target=com.example.viewer document=report.pdf`.
    var textForm: String {
        var parts = [channel.rawValue]
        if let target { parts.append("target=\(target)") }
        if let url { parts.append("url=\(url)") }
        if let source { parts.append("source=\(source)") }
        if let document { parts.append("document=\(TextForm.word(document))") }
        return parts.joined(separator: " ")
    }
}

extension Decision {
    /// `allow to com.example.viewer [document.listed-target]`.
    var textForm: String {
        var text = outcome.rawValue
        if let target { text += " to \(target)" }
        if let dummyFileName { text += " as \(dummyFileName)" }
        return text + " [\(rule)]"
    }
}

extension DualModeEvent {
    var textForm: (actor: String, text: String) {
        switch self {
        case .loaded(let record, let persisted):
            ("app", "dual-mode state \(record.state), data \(record.dataEncryption)" + (persisted ? " (persisted)" : " (first launch: nothing persisted)"))
        case .stateChanged(let state): ("app", "dual-mode state → \(state) (persisted)")
        case .dataEncryptionChanged(let encryption): ("app", "data encryption → \(encryption) (persisted)")
        case .retireActions: ("app", "retire actions: removes its sensitive data")
        case .switchRequested(let state): ("user", "asks for \(state)")
        case .switchIgnored(let reason): ("app", "ignores the request: \(reason)")
        case .switchFinished(let state, let succeeded):
            ("app", succeeded ? "tells the user: now in \(state)" : "tells the user: AppConnect Mode is not available, staying in \(state)")
        case .storeFailed(let error): ("app", "cannot persist its state: \(error)")
        }
    }
}

extension TextForm {
    /// A value as a scenario would write it: bare when it is one plain word, quoted otherwise.
    static func word(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value < 0x7F && scalar != "\"" && scalar != "#" && scalar != "\\"
        }
        return plain ? text : quoted(text)
    }
}
