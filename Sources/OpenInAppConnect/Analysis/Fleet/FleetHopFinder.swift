import OpenInCore
import OpenInFleet
import OpenInKit

/// Finds the hops of one AppConnect device's graph (``FleetDevice/paths(_:)``'s hops) for writers that
/// print many: a sender's part of a targeted request is decided once per kind of target (the facts the
/// rules read of it, ``TargetKinds``, and whether it is native Mail), as the graph's rows are; a request that names no target once per sender; and each hop's settings are
/// parts made once (``senderPart(_:)``, ``receiverBase(_:)``) plus the whitelist entries that name
/// the hop's two apps (``entries(_:side:into:)``). Made only for a graph none of whose decisions can
/// throw; where a hop is not of the kinds it knows, ``shape(from:to:)`` says so (`nil`) and the caller
/// decides the hop whole (``hop(from:to:)``). A test compares every hop with ``FleetGraph/hop(from:to:)``
/// on random fleets.
///
/// Memory: O(nodes) for the memo of the targeted requests (made for the senders asked about), plus the
/// untargeted requests' decisions, sender parts and templates of the senders asked about.
struct FleetHopFinder: FleetHopSource {
    package let graph: FleetGraph
    /// Per sender asked about: its targeted decisions by channel and kind of target (``kinds`` each).
    private var targeted: [[Memo?]]
    /// Per sender and request that names no target, asked about: its decision and where it lands.
    private var untargeted: [Int: Untargeted] = [:]
    /// The sender parts made, and where each is, by sender, request and rule.
    private var parts: [SenderPartEntry] = []
    private var partIndex: [PartKey: [Int32]] = [:]
    /// Each whitelist's template setting, by owner, control and side (``template(_:)``).
    private var templates: [FleetSetting] = []
    private var templateIndex: [Int: Int32] = [:]
    private let nativeMail: [Bool]
    /// Per node asked about, each control's settings: the graph's, or made here when the graph holds none.
    private var controls: [[FleetSettings.ControlSettings]?]
    /// Per node and control (``FleetSettings/ControlSettings/position(_:)``), one control's settings made alone
    /// where only it is named (a receiver's Open From), when the node's ``controls`` are not made.
    private var controlAlone: [FleetSettings.ControlSettings?] = []

    /// The number of kinds of target: the graph's (``TargetKinds``), each native Mail or not.
    private let kinds: Int

    /// A decision made once for a sender and a kind of target (a class: a hop reads it without copying the decision).
    private final class Memo: Sendable {
        let decision: Decision
        /// Whether it delivers and its target is the request's (a hop of another target of the kind lands on that target).
        let delivers: Bool
        let targetIsRequest: Bool

        init(decision: Decision, delivers: Bool, targetIsRequest: Bool) {
            (self.decision, self.delivers, self.targetIsRequest) = (decision, delivers, targetIsRequest)
        }
    }

    /// A decision made once for a sender and an untargeted request (a class, as ``Memo``).
    private final class Untargeted: Sendable {
        let decision: Decision
        let receiving: BundleID?
        let landing: FleetNode?

        init(decision: Decision, receiving: BundleID?, landing: FleetNode?) {
            (self.decision, self.receiving, self.landing) = (decision, receiving, landing)
        }
    }

    private struct SenderPartEntry {
        let parts: FleetSettings.SenderParts
        let receiving: BundleID?
    }

    private struct PartKey: Hashable {
        let sender: Int32, request: Int32
        let rule: RuleID
    }

    /// The finder of `graph`, when none of its decisions can throw; `nil` otherwise.
    package init?(_ graph: FleetGraph) {
        guard graph.decidesWithoutError, graph.words != nil else { return nil }
        self.graph = graph
        targeted = Array(repeating: [], count: graph.nodes.count)
        kinds = 2 * graph.kinds.kindCount
        nativeMail = graph.ids.map(\.isNativeMail)
        controls = graph.controls.isEmpty ? Array(repeating: nil, count: graph.nodes.count) : graph.controls
    }

    /// Node `x`'s ``FleetSettings/controls(of:)``, made once.
    private mutating func controls(_ x: Int) -> [FleetSettings.ControlSettings] {
        if let made = controls[x] { return made }
        let made = FleetSettings.controls(of: graph.sides[x].policy)
        controls[x] = made
        return made
    }

    /// Node `x`'s settings of `control` (its entry of ``controls(_:)``), made once, alone when the others are not made.
    private mutating func control(_ x: Int, _ control: FleetControl) -> FleetSettings.ControlSettings {
        let position = FleetSettings.ControlSettings.position(control)
        if let made = controls[x] { return made[position] }
        let count = FleetControl.allCases.count
        if controlAlone.isEmpty { controlAlone = Array(repeating: nil, count: graph.nodes.count * count) }
        if let made = controlAlone[x * count + position] { return made }
        let made = FleetSettings.ControlSettings(control, of: graph.sides[x].policy)
        controlAlone[x * count + position] = made
        return made
    }

    /// Whether `reach` was searched on this finder's graph.
    func isFor(_ reach: FleetReach) -> Bool { reach.graph.map { $0 === graph } ?? false }

    /// The device's nodes.
    package var nodes: [FleetNode] { graph.nodes }
    /// The bundle ID each node's requests use (any other app: one no list names).
    package var ids: [BundleID] { graph.ids }
    /// The number of targeted requests (the positions of ``FleetHopShape/request`` below it).
    static let targetedCount = FleetGraph.targetedChannels.count
    var targetedCount: Int { Self.targetedCount }
    /// The number of requests (targeted, then those that name no target).
    var requestCount: Int { Self.targetedCount + graph.untargeted.count }

    /// The channel and URL of request `position` (``FleetHopShape/request``), and whether it names its target (the hop's `to`).
    package func request(_ position: Int) -> (channel: FleetChannel, url: ShareURL?, targeted: Bool) {
        if position < Self.targetedCount { return (FleetGraph.targetedChannels[position], nil, true) }
        let request = graph.untargeted[position - Self.targetedCount]
        return (request.channel, request.request.url, false)
    }

    /// The hop from `x` to `y` decided whole (``FleetGraph/hop(from:to:)``).
    package func hop(from x: Int, to y: Int) throws(FleetError) -> FleetHop? { try graph.hop(from: x, to: y) }

    /// The hop from `x` to `y`: the same request, rules and settings as ``FleetGraph/hop(from:to:)``; `nil`
    /// when no request delivers, or when the hop is not of a kind this finder knows (then ask ``hop(from:to:)``).
    package mutating func shape(from x: Int, to y: Int) -> FleetHopShape? {
        let graph = graph
        let prepared = graph.sides[x].prepared
        let kind = graph.words!.senders[x].kind(of: y) << 1 | (nativeMail[y] ? 1 : 0)
        if targeted[x].isEmpty { targeted[x] = Array(repeating: nil, count: Self.targetedCount * kinds) }
        for c in 0..<Self.targetedCount {
            let slot = c * kinds + kind
            let memo: Memo
            if let known = targeted[x][slot] {
                memo = known
            } else {
                let request = graph.targeted(y, c)
                let decision = Evaluator.decide(request, prepared)
                let delivers = decision.outcome == .allow || decision.outcome == .redirect
                memo = Memo(decision: decision, delivers: delivers, targetIsRequest: !delivers || (c == 5 || decision.target == request.target))
                targeted[x][slot] = memo
            }
            guard memo.delivers else { continue }
            // A kind whose decision sends elsewhere than the target: decided whole.
            guard memo.targetIsRequest else { return nil }
            let channel = FleetGraph.targetedChannels[c]
            let lands = graph.landsOnItself[y]
            guard channel.hasReceiverPart, graph.authorized[y] else {
                guard lands else { continue }
                return made(x, y, request: c, memo.decision, receiver: nil, receiving: graph.ids[y])
            }
            guard graph.sides[y].policy.source(of: .openFrom) != .notSet else { return nil }
            guard lands else { continue }
            let receiver = Evaluator.decide(graph.openFrom[x], graph.sides[y].prepared)
            let outcome = receiver.outcome == .allow ? memo.decision.outcome : receiver.outcome
            guard outcome == .allow || outcome == .redirect else { continue }
            return made(x, y, request: c, memo.decision, receiver: (receiver, y), receiving: graph.ids[y])
        }
        for position in graph.schemesLandingOn[y] + graph.mailPositions {
            switch untargetedShape(x, y, position: position) {
            case .none: continue
            case .shape(let shape): return shape
            case .unknown: return nil
            }
        }
        return nil
    }

    /// What one request makes of a hop: none, a hop, or a hop of a kind this finder does not know.
    private enum Attempt {
        case none
        case shape(FleetHopShape)
        case unknown
    }

    /// The untargeted request at `position` from `x`, as a hop to `y`.
    private mutating func untargetedShape(_ x: Int, _ y: Int, position: Int) -> Attempt {
        let graph = graph
        let key = x * graph.untargeted.count + position
        let memo: Untargeted
        if let known = untargeted[key] {
            memo = known
        } else {
            let (channel, request, _) = graph.untargeted[position]
            let decision = Evaluator.decide(request, graph.sides[x].prepared)
            let receiving = graph.device.receiving(decision, channel: channel, request: request, from: graph.ids[x])
            memo = Untargeted(decision: decision, receiving: receiving, landing: receiving.flatMap(graph.device.node(receiving:)))
            untargeted[key] = memo
        }
        guard let receiving = memo.receiving else { return .none }
        let channel = graph.untargeted[position].channel
        let isY = receiving == graph.ids[y]
        let lands = isY ? graph.landsOnItself[y] : memo.landing == graph.nodes[y]
        guard channel.hasReceiverPart, isY ? graph.authorized[y] : graph.device.appConnectApps.contains(receiving) else {
            guard lands else { return .none }
            return .shape(made(x, y, request: Self.targetedCount + position, memo.decision, receiver: nil, receiving: receiving))
        }
        guard let node = isY ? y : graph.index[receiving] else { return .unknown }
        guard graph.sides[node].policy.source(of: .openFrom) != .notSet else { return .unknown }
        guard lands else { return .none }
        let receiver = Evaluator.decide(graph.openFrom[x], graph.sides[node].prepared)
        let outcome = receiver.outcome == .allow ? memo.decision.outcome : receiver.outcome
        guard outcome == .allow || outcome == .redirect else { return .none }
        return .shape(made(x, y, request: Self.targetedCount + position, memo.decision, receiver: (receiver, node), receiving: receiving))
    }

    /// The shape of a hop found, with its sender part made (or found).
    private mutating func made(_ x: Int, _ y: Int, request: Int, _ sender: Decision, receiver: (decision: Decision, node: Int)?, receiving: BundleID) -> FleetHopShape {
        let key = PartKey(sender: Int32(x), request: Int32(request), rule: sender.rule)
        var part: Int32 = -1
        for known in partIndex[key] ?? [] where parts[Int(known)].receiving.map({ $0 == receiving }) ?? true {
            part = known
            break
        }
        if part < 0 {
            let (channel, _, isTargeted) = self.request(request)
            let senderRequest = isTargeted ? graph.targeted(y, request) : graph.untargeted[request - Self.targetedCount].request
            let decision = FleetDecision(device: graph.device.name, request: FleetRequest(from: graph.ids[x], channel: channel, checked: senderRequest), outcome: sender.outcome,
                                         sender: sender, receiver: nil, receiverApp: receiving, senderPolicy: graph.sides[x].policy, receiverPolicy: nil)
            let made = FleetSettings.senderParts(decision, graph.sides[x].policy, controls: controls(x))
            part = Int32(parts.count)
            parts.append(SenderPartEntry(parts: made, receiving: made.readsReceiver ? receiving : nil))
            partIndex[key, default: []].append(part)
        }
        return FleetHopShape(from: Int32(x), to: Int32(y), request: Int32(request), senderRule: sender.rule, receiverRule: receiver?.decision.rule, senderPart: part,
                             receiverNode: Int32(receiver?.node ?? -1), receiving: receiving)
    }

    /// The sender's settings of part `id` (``FleetHopShape/senderPart``): those before its whitelist's entries, and those after.
    package func senderPart(_ id: Int) -> (before: [FleetSetting], after: [FleetSetting]) { (parts[id].parts.before, parts[id].parts.after) }

    /// The receiver's Open From setting of `node`, without its whitelist's entries.
    package mutating func receiverBase(_ node: Int) -> [FleetSetting] {
        FleetSettings.controlSettings(.openFrom, of: graph.sides[node].policy, side: .receiver, made: control(node, .openFrom))
    }

    /// The whitelist entries among `side`'s settings of `shape` (after ``senderPart(_:)``'s `before`, or after
    /// ``receiverBase(_:)``), in order, appended to `found`.
    package mutating func entries(_ shape: FleetHopShape, side: FleetSetting.Side, into found: inout [Entry]) {
        let owner: Int, control: FleetControl, listing: [BundleID]
        switch side {
        case .sender:
            guard let kind = parts[Int(shape.senderPart)].parts.listing else { return }
            (owner, control) = (Int(shape.from), .openIn)
            switch kind {
            case .receiver: listing = FleetSettings.receiverListing(shape.receiving)
            case .fixed(let apps): listing = apps
            }
        case .receiver:
            guard shape.receiverNode >= 0, let rule = shape.receiverRule, rule.rawValue.hasSuffix(".listed-source") else { return }
            (owner, control, listing) = (Int(shape.receiverNode), .openFrom, [graph.ids[Int(shape.from)]])
        }
        let made = self.control(owner, control)
        guard let entries = made.entries, let first = made.settings.first else { return }
        var template = -1
        for id in listing {
            guard let entry = entries[id] else { continue }
            if template < 0 {
                let key = owner * 4 + (control == .openIn ? 0 : 2) + (side == .sender ? 0 : 1)
                if let known = templateIndex[key] {
                    template = Int(known)
                } else {
                    template = templates.count
                    templateIndex[key] = Int32(template)
                    templates.append(FleetSetting(side: side, app: graph.sides[owner].policy.app, policy: first.policy, via: first.via, key: "", value: "", file: first.file, line: nil))
                }
            }
            found.append(Entry(template: template, key: entry.path, value: entry.text, line: entry.line))
        }
    }

    package typealias Entry = FleetHopEntry

    /// A whitelist's template: an entry's setting is it with the entry's key path, value and line.
    package func template(_ id: Int) -> FleetSetting { templates[id] }

    /// Every setting of `shape`, in order: what ``FleetHop/settings`` gives for the same hop.
    package mutating func settings(_ shape: FleetHopShape) -> [FleetSetting] {
        var settings = senderPart(Int(shape.senderPart)).before
        func entries(_ side: FleetSetting.Side) {
            var found: [Entry] = []
            self.entries(shape, side: side, into: &found)
            for entry in found {
                var setting = template(entry.template)
                (setting.key, setting.value, setting.line) = (entry.key, entry.value, entry.line)
                settings.append(setting)
            }
        }
        entries(.sender)
        settings += senderPart(Int(shape.senderPart)).after
        if shape.receiverNode >= 0 {
            settings += receiverBase(Int(shape.receiverNode))
            entries(.receiver)
        }
        return settings
    }
}
