import OpenInCore
import OpenInFleet
import OpenInKit


/// The matrix's grids for the controls beyond Open In: what comes in (Open From),
/// and what leaves by copy and print. Shown only when the policy sets one of them,
/// so a policy that sets none prints the matrix it always did.
extension PolicyMatrix {
    /// Whether the policy sets any control beyond Open In.
    var setsDataControls: Bool {
        policy.openFrom != nil || policy.pasteboard != nil || policy.print != nil
    }

    /// The columns of the two grids: by source for what comes in, by paste target for copy and print.
    private var dataColumns: (incoming: [Column], leaving: [Column]) {
        let unlisted = freshApp(avoiding: Set((policy.openFromWhitelist.map(Array.init) ?? []).map(\.rawValue)
                                              + policy.device.appConnectApps.map(\.rawValue)))
        let listedSource = policy.openFromWhitelist?.min()
        let appConnectApp = policy.device.appConnectApps.min()
        func request(_ make: () throws(InputError) -> ShareRequest) -> ShareRequest? { try? make() }

        let incoming = [
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
        let leaving = [
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
        return (incoming, leaving)
    }

    /// The two grids, their settings line by line, and their examples.
    func beyondOpenIn() -> String {
        let (incoming, leaving) = dataColumns
        var text = "Beyond Open In:\n" + dataControlLines.map { "  \($0)\n" }.joined() + "\n"
        text += dataGrid(title: "What comes in", channels: [.openFrom], columns: incoming) + "\n"
        text += dataGrid(title: "Copy and print", channels: [.copy, .print], columns: leaving) + "\n"
        text += """
            Here: \(Self.dataControlLegend)

            Examples:

            """
        let examples = dataControlExamples
        let width = examples.map(\.name.count).max() ?? 0
        for (name, example) in examples {
            text += "  " + name + String(repeating: " ", count: width - name.count + 2) + example + "\n"
        }
        return text
    }

    /// What the cells `allow-ac` and `error` mean.
    package static let dataControlLegend = """
        allow-ac = copied, readable by AppConnect apps only; error = the policy does not
          set this control (a request is an error naming the key, never a guess).
        """

    /// The settings of the controls beyond Open In, one line each.
    package var dataControlLines: [String] { [openFromSetting, pasteboardSetting, printSetting] }

    /// The grids beyond Open In, as ``grids`` gives the others; empty when the policy sets none of their controls.
    package var dataControlGrids: [(title: String, headers: [String], rows: [(channel: Channel, cells: [String])])] {
        guard setsDataControls else { return [] }
        let (incoming, leaving) = dataColumns
        let evaluator = Evaluator(policy: policy)
        return [("What comes in", [Channel.openFrom], incoming), ("Copy and print", [.copy, .print], leaving)].map { title, channels, columns in
            (title, columns.map { $0.header.filter { !$0.isEmpty }.joined(separator: " ") }, channels.map { channel in
                (channel, columns.map { dataCell($0, channel, evaluator) })
            })
        }
    }

    /// The examples behind the grids beyond Open In.
    package var dataControlExamples: [(name: String, example: String)] {
        let (incoming, leaving) = dataColumns
        return (incoming + leaving.dropFirst()).map { ($0.legendName, $0.example ?? $0.missing) }
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
            rows.append([channel.rawValue] + columns.map { dataCell($0, channel, evaluator) })
        }
        return Self.layout(rows)
    }

    /// One cell: the outcome, `allow-ac` for a copy only AppConnect apps can read, `error` where the policy cannot decide.
    private func dataCell(_ column: Column, _ channel: Channel, _ evaluator: Evaluator) -> String {
        guard let request = column.request(channel) else { return column.channels.contains(channel) ? "-" : "·" }
        guard let decision = try? evaluator.decideOrThrow(request) else { return "error" }
        if decision.outcome == .allow, decision.audience == .appConnectApps { return "allow-ac" }
        return Self.cell(decision)
    }

    /// An app the policy does not name.
    private func freshApp(avoiding taken: Set<String>) -> BundleID {
        var name = "com.example.other-app"
        while taken.contains(name) { name += "-x" }
        return (try? BundleID(name)) ?? .mobileMail
    }
}
