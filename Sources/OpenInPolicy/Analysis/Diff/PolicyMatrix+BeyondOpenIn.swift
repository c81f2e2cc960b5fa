
/// The matrix's grids for the controls beyond Open In: what comes in (Open From),
/// and what leaves by copy and print. Shown only when the policy sets one of them,
/// so a policy that sets none prints the matrix it always did.
extension PolicyMatrix {
    /// Whether the policy sets any control beyond Open In.
    var setsDataControls: Bool {
        policy.openFrom != nil || policy.pasteboard != nil || policy.print != nil
    }

    /// The two grids, their settings line by line, and their examples.
    func beyondOpenIn() -> String {
        let unlisted = freshApp(avoiding: Set((policy.openFromWhitelist?.ids ?? []).map(\.rawValue)
                                              + policy.device.appConnectApps.map(\.rawValue)))
        let listedSource = policy.openFromWhitelist?.ids.sorted().first
        let appConnectApp = policy.device.appConnectApps.sorted().first
        func request(_ make: () throws(InputError) -> ShareRequest) -> ShareRequest? { try? make() }

        let sourceColumns = [
            Column(header: ["listed", "source"], legendName: "listed source",
                   example: listedSource.map(\.rawValue), channels: [.openFrom],
                   missing: "none: the Open From whitelist is empty or not used") { channel in
                guard channel == .openFrom, let listedSource else { return nil }
                return request { () throws(InputError) in try ShareRequest(channel: .openFrom, source: listedSource) }
            },
            Column(header: ["unlisted", "source"], legendName: "unlisted source", example: unlisted.rawValue + "  (stands for any other app)",
                   channels: [.openFrom]) { channel in
                channel == .openFrom ? request { () throws(InputError) in try ShareRequest(channel: .openFrom, source: unlisted) } : nil
            },
            Column(header: ["unknown", "source"], legendName: "unknown source", example: "the request names no source",
                   channels: [.openFrom]) { channel in
                channel == .openFrom ? request { () throws(InputError) in try ShareRequest(channel: .openFrom) } : nil
            },
        ]
        let leavingColumns = [
            Column(header: ["", "no target"], legendName: "no target", example: "copy: who may paste; print",
                   channels: [.copy, .print]) { channel in
                request { () throws(InputError) in try ShareRequest(channel: channel) }
            },
            Column(header: ["paste into", "AppConnect app"], legendName: "paste into AppConnect app",
                   example: appConnectApp.map(\.rawValue), channels: [.copy],
                   missing: "none: the device lists no AppConnect app") { channel in
                guard channel == .copy, let appConnectApp else { return nil }
                return request { () throws(InputError) in try ShareRequest(channel: .copy, target: appConnectApp) }
            },
            Column(header: ["paste into", "other app"], legendName: "paste into other app",
                   example: unlisted.rawValue + "  (not an AppConnect app)", channels: [.copy]) { channel in
                channel == .copy ? request { () throws(InputError) in try ShareRequest(channel: .copy, target: unlisted) } : nil
            },
        ]

        var text = "Beyond Open In:\n" + [openFromSetting, pasteboardSetting, printSetting].map { "  \($0)\n" }.joined() + "\n"
        text += dataGrid(title: "What comes in", channels: [.openFrom], columns: sourceColumns) + "\n"
        text += dataGrid(title: "Copy and print", channels: [.copy, .print], columns: leavingColumns) + "\n"
        text += """
            Here: allow-ac = copied, readable by AppConnect apps only; error = the policy does not
              set this control (a request is an error naming the key, never a guess).

            Examples:

            """
        let examples = (sourceColumns + leavingColumns.dropFirst()).map { ($0.legendName, $0.example ?? $0.missing) }
        let width = examples.map(\.0.count).max() ?? 0
        for (name, example) in examples {
            text += "  " + name + String(repeating: " ", count: width - name.count + 2) + example + "\n"
        }
        return text
    }

    private var openFromSetting: String {
        guard let openFrom = policy.openFrom else { return "Open From: not set (openFromPolicy)" }
        switch openFrom.setting {
        case .allAppConnectApps:
            let count = policy.device.appConnectApps.count
            return "Open From: \"All AppConnect apps\" (WHITELIST of the device's \(count == 1 ? "1 AppConnect app" : "\(count) AppConnect apps"))"
        case .status(let status):
            let count = openFrom.whitelist.count
            return status == .whitelist ? "Open From: WHITELIST of \(count == 1 ? "1 bundle ID" : "\(count) bundle IDs")" : "Open From: \(status) (\(status.sdkName))"
        }
    }

    private var pasteboardSetting: String {
        guard let pasteboard = policy.pasteboard else { return "copy: not set (pasteboardPolicy)" }
        guard pasteboard == .secureCopy else { return "copy: \(pasteboard) (\(pasteboard.sdkName))" }
        switch policy.device.secureServicesAvailable {
        case true?: return "copy: SECURECOPY (ACPasteboardPolicySecureCopy), secure services available"
        case false?: return "copy: SECURECOPY (ACPasteboardPolicySecureCopy), secure services unavailable"
        case nil: return "copy: SECURECOPY (ACPasteboardPolicySecureCopy), secure services not given (device.secureServicesAvailable)"
        }
    }

    private var printSetting: String {
        policy.print.map { "print: \($0) (\($0.sdkName))" } ?? "print: not set (printPolicy)"
    }

    /// A grid as ``grid(title:channels:columns:)`` draws it, with `error` where the policy cannot decide.
    private func dataGrid(title: String, channels: [Channel], columns: [Column]) -> String {
        let evaluator = Evaluator(policy: policy)
        var rows: [[String]] = [[""] + columns.map(\.header[0]), [title] + columns.map(\.header[1])]
        for channel in channels {
            rows.append([channel.rawValue] + columns.map { column in
                guard let request = column.request(channel) else { return column.channels.contains(channel) ? "-" : "·" }
                guard let decision = try? evaluator.decision(for: request) else { return "error" }
                if decision.outcome == .allow, decision.audience == .appConnectApps { return "allow-ac" }
                return Self.cell(decision)
            })
        }
        return Self.layout(rows)
    }

    /// An app the policy does not name.
    private func freshApp(avoiding taken: Set<String>) -> BundleID {
        var name = "com.example.other-app"
        while taken.contains(name) { name += "-x" }
        return (try? BundleID(name)) ?? .mobileMail
    }
}
