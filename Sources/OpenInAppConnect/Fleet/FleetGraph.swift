import OpenInCore
import OpenInFleet
import OpenInKit



/// A device's graph, worked out as a search needs it: each node's side (effective and prepared policy),
/// the requests every sender makes (the same for all senders), and each node's out-edges among the nodes
/// asked about. Immutable once made, so the searches of ``FleetDevice/reachAll(maxHops:)`` share it and
/// ``FleetDevice/paths(_:)`` reuses it for the hops of their results.
///
/// An edge X → Y exists when some request of ``FleetDevice/candidateRequests(from:)`` from X delivers
/// to Y end to end. For the requests that name a target, the sender's rules read the target only
/// through the facts the rules declare (``TargetFact``: listed?, AppConnect app?, excluded from the
/// share sheet?), so X's decision is made once per channel and kind of target (``kinds``) and
/// reused for every target of that kind; the receiver's Open From is then asked per target. The
/// reference model in the tests decides every request instead, and must agree.
final class FleetGraph: FleetEdges {
    package let device: FleetDevice
    package let nodes: [FleetNode]
    package let ids: [BundleID]
    package let index: [BundleID: Int]
    let authorized: [Bool]
    /// Node `y`'s request as target on the targeted channel at `c` in ``targetedChannels``: made when a decision needs
    /// it (a few per kind of target and per hop), not held for every node (six requests a node).
    func targeted(_ y: Int, _ c: Int) -> ShareRequest {
        try! ShareRequest(channel: FleetGraph.targetedChannels[c].senderChannel!, target: ids[y], document: FleetDevice.documentName)
    }
    /// The requests that name no target: `open-url` with each custom scheme, `mailto:`, `mail-link`, `mail-compose`;
    /// for a custom scheme, the node of its handler (the only app such a request can deliver to; -1: none on the device).
    let untargeted: [(channel: FleetChannel, request: ShareRequest, handler: Int?)]
    /// Per node, the positions in ``untargeted`` of the custom schemes whose handler lands on it, in order.
    let schemesLandingOn: [[Int]]
    /// The positions in ``untargeted`` of the mail requests (`mailto:`, `mail-link`, `mail-compose`), which may land anywhere.
    let mailPositions: [Int]
    /// The positions in ``untargeted`` of each custom scheme's request, by the scheme (byte for byte).
    let schemePositions: [ExactKey: [Int]]
    /// Per node, its effective policy and prepared policy (``FleetDevice/side(for:)``).
    package let sides: [FleetSide]
    /// Per node as sender, the Open From request a receiver decides with it as source.
    package let openFrom: [ShareRequest]
    /// Per node, whether a delivery to its own bundle ID lands on it (``FleetDevice/node(receiving:)``).
    let landsOnItself: [Bool]
    /// Per node, what makes its decisions throw: the controls its policy does not set (``FleetGraph/bit(_:)``),
    /// and ``FleetGraph/secureCopyUnknown`` when its paste is a secure copy on a device that does not say
    /// whether secure services are available.
    let lacks: [UInt8]
    /// Per node, whether the device's policies count it as an AppConnect app (every side on the device
    /// shares the device's tables, so the answer is the same for every sender): as a source, for the Open From of "All AppConnect apps".
    let isAppConnectApp: [Bool]
    /// The nodes as targets, by the facts the rules read of them on the targeted channels and `open-url` (``TargetKinds``).
    package let kinds: TargetKinds
    /// The nodes that are native Mail.
    let nativeMail: [Int]
    /// Per node, each control's settings (``FleetSettings/controls(of:)``), made once and shared by every hop that names them;
    /// empty for a graph made for one search (``FleetDevice/reach(from:maxHops:)``), whose few hops make what they name.
    package let controls: [[FleetSettings.ControlSettings]]
    /// The word-at-a-time tables of ``row(_:among:)``, when every node decides without an error (no control
    /// missing, no secure copy of unknown outcome) and the graph was made whole; `nil` otherwise (the per-target loop).
    package let words: RowWords?
    /// Whether no decision of the graph can throw: no node lacks a control or decides a secure copy of unknown
    /// outcome, and every app of the fleet a request may land on sets Open From.
    package let decidesWithoutError: Bool

    /// What ``row(_:among:)`` reads a word of 64 targets at a time: per node as target, whether its Open From
    /// decides and how it answers a sender; per node as sender, its targets by kind (``TargetKinds/Sender``) and
    /// the receivers whose own Open From whitelist lists it; the nodes some custom scheme lands on.
    struct RowWords: Sendable {
        /// The nodes the device's policies count as AppConnect apps (``FleetGraph/isAppConnectApp``), as sources.
        let appConnect: NodeSet
        /// The authorized AppConnect apps: a delivery to one of them is decided by its Open From too.
        let authorized: NodeSet
        /// The receivers whose Open From allows every source (AUTHORIZED, or AppConnect not enforcing).
        let allowsEvery: NodeSet
        /// The receivers whose Open From whitelist is "all AppConnect apps": they allow the senders in ``appConnect``.
        let allowsAppConnect: NodeSet
        /// Per sender, the receivers whose own Open From whitelist names it (exactly, as the rule looks it up).
        let listing: [[Int32]]
        /// The nodes a custom scheme's request lands on (``FleetGraph/schemesLandingOn`` not empty).
        let handlers: NodeSet
        /// The native Mail nodes.
        let nativeMail: NodeSet
        /// Per sender, its targets by kind: each list (an Open In whitelist, the excluded activities) read once,
        /// "all AppConnect apps" one whitelist shared by every policy that says so.
        let senders: [TargetKinds.Sender]

        /// The tables of a graph whose nodes are `ids` with policies `sides`; `nil` when some receiver's Open From
        /// cannot be read this way (its rule would not be the Open From rule or the not-enforcing rule).
        init(ids: [BundleID], index: [BundleID: Int], sides: [FleetSide], kinds: TargetKinds, isAppConnectApp: [Bool], authorized: [Bool],
             schemesLandingOn: [[Int]], nativeMail: [Int]) {
            let count = ids.count
            // Each sender's sets, across the cores; a list shared by many policies is one set per part.
            senders = Parallel.map(sides.count, minimum: 512) { range in
                var shared: [ObjectIdentifier: TargetKinds.FactSet] = [:]
                return range.map { kinds.sender(sides[$0].prepared, shared: &shared) }
            }
            var appConnect = NodeSet(count: count), authorizedSet = NodeSet(count: count), allowsEvery = NodeSet(count: count)
            var allowsAppConnect = NodeSet(count: count), handlers = NodeSet(count: count)
            var listing = [[Int32]](repeating: [], count: count)
            // How each receiver's Open From answers, as OpenFromRule decides (after NotEnforcingRule): AUTHORIZED allows all,
            // UNAUTHORIZED none, a whitelist its members (the nodes it names, found in parts across the cores).
            enum Allows {
                case every, appConnect, none
                case listed([Int32])
            }
            let allows = Parallel.fill(count, minimum: 512) { (y) throws(Never) -> Allows in
                let prepared = sides[y].prepared
                if NotEnforcingRule.applies(prepared) || prepared.openFromStatus == .authorized { return .every }
                guard prepared.openFromStatus == .whitelist, let openFrom = prepared.policy.openFrom else { return .none }
                if openFrom.setting == .allAppConnectApps { return .appConnect }
                return .listed(openFrom.whitelist.compactMap { index[$0].map(Int32.init) })
            }.values
            for y in 0..<count {
                if isAppConnectApp[y] { appConnect.insert(y) }
                if authorized[y] { authorizedSet.insert(y) }
                if !schemesLandingOn[y].isEmpty { handlers.insert(y) }
                switch allows[y] {
                case .every: allowsEvery.insert(y)
                case .appConnect: allowsAppConnect.insert(y)
                case .listed(let senders): for x in senders { listing[Int(x)].append(Int32(y)) }
                case .none: break
                }
            }
            var mail = NodeSet(count: count)
            for y in nativeMail { mail.insert(y) }
            (self.appConnect, self.authorized, self.allowsEvery, self.allowsAppConnect, self.listing, self.handlers, self.nativeMail) =
                (appConnect, authorizedSet, allowsEvery, allowsAppConnect, listing, handlers, mail)
        }
    }

    /// The bit of `control` in ``lacks``.
    @inline(__always) static func bit(_ control: FleetControl) -> UInt8 {
        switch control {
        case .openIn: 1
        case .openFrom: 2
        case .pasteboard: 4
        case .print: 8
        case .dragAndDrop: 16
        }
    }
    static let secureCopyUnknown: UInt8 = 32

    static let targetedChannels: [FleetChannel] = [.documentInteraction, .quickLook, .appExtension, .activityView, .dragAndDrop, .paste]

    /// The sender channels whose requests' targets a graph keys by kind: the targeted channels' and `open-url`'s (its handler).
    static let kindChannels: [Channel] = targetedChannels.compactMap(\.senderChannel) + [.openURL]

    /// The graph of `device`; with `settings` false, no node's ``controls`` are made ahead.
    package init(_ device: FleetDevice, settings: Bool = true) {
        self.device = device
        nodes = device.nodes
        let ids = nodes.map(device.bundleID(of:))
        self.ids = ids
        var index: [BundleID: Int] = [:]
        for (position, id) in ids.enumerated() { index[id] = position }
        self.index = index
        // Each node's own tables, independent of the others: made in parts across the cores.
        let nodes = self.nodes
        let tables = device.side(for: device.anyOtherAppID).prepared
        let perNode = Parallel.fill(ids.count, minimum: 512) { (x) throws(Never) in
            let side = device.side(for: ids[x])
            return (side: side, openFrom: try! ShareRequest(channel: .openFrom, source: ids[x]),
                    landsOnItself: device.node(receiving: ids[x]) == nodes[x], isAppConnectApp: tables.isAppConnectApp(ids[x]),
                    authorized: device.appConnectApps.contains(ids[x]), lacks: FleetGraph.lacks(side, on: device))
        }.values
        authorized = perNode.map(\.authorized)
        let untargeted = device.untargetedRequests(from: device.anyOtherAppID).map { request -> (channel: FleetChannel, request: ShareRequest, handler: Int?) in
            guard let url = request.url, !url.isMailto else { return (request.channel, request.senderRequest!, nil) }
            // Where a delivery to the handler lands (-1: nowhere on the device).
            let landing = device.facts.handler(forScheme: url.scheme).flatMap(device.node(receiving:)).flatMap { index[device.bundleID(of: $0)] }
            return (request.channel, request.senderRequest!, landing ?? -1)
        }
        self.untargeted = untargeted
        var schemesLandingOn = [[Int]](repeating: [], count: ids.count), mailPositions: [Int] = []
        for (position, request) in untargeted.enumerated() {
            if let handler = request.handler {
                if handler >= 0 { schemesLandingOn[handler].append(position) }
            } else {
                mailPositions.append(position)
            }
        }
        self.schemesLandingOn = schemesLandingOn
        self.mailPositions = mailPositions
        var schemePositions: [ExactKey: [Int]] = [:]
        for (position, request) in untargeted.enumerated() where request.handler != nil {
            if let url = request.request.url { schemePositions[ExactKey(url.scheme), default: []].append(position) }
        }
        self.schemePositions = schemePositions
        sides = perNode.map(\.side)
        openFrom = perNode.map(\.openFrom)
        landsOnItself = perNode.map(\.landsOnItself)
        let sides = self.sides
        controls = settings ? Parallel.fill(sides.count, minimum: 512) { (x) throws(Never) in FleetSettings.controls(of: sides[x].policy) }.values : []
        isAppConnectApp = perNode.map(\.isAppConnectApp)
        nativeMail = ids.indices.filter { ids[$0].isNativeMail }
        let kinds = TargetKinds(ids: ids, index: index, channels: FleetGraph.kindChannels, senders: sides.map(\.prepared), device: tables)
        self.kinds = kinds
        lacks = perNode.map(\.lacks)
        let lacks = self.lacks
        words = lacks.allSatisfy { $0 == 0 }
            ? RowWords(ids: ids, index: index, sides: sides, kinds: kinds, isAppConnectApp: isAppConnectApp, authorized: authorized,
                       schemesLandingOn: schemesLandingOn, nativeMail: nativeMail)
            : nil
        // Each listed app's ID read in place (no app copied).
        let fleet = device.fleet
        decidesWithoutError = words != nil && fleet.apps.indices.allSatisfy { device.side(for: fleet.apps[$0].bundleID).policy.source(of: .openFrom) != .notSet }
    }

    /// `old`'s graph on `device`, a resolution of the same profile with the same nodes, authorized apps and
    /// facts, whose nodes have the policies `sides` (a change of some apps' policies: only their rows and
    /// columns differ, and only they need deciding again).
    package init(_ old: FleetGraph, device: FleetDevice, sides: [FleetSide], changed: NodeSet) {
        self.device = device
        (nodes, ids, index, authorized) = (old.nodes, old.ids, old.index, old.authorized)
        (untargeted, schemesLandingOn, mailPositions, schemePositions) = (old.untargeted, old.schemesLandingOn, old.mailPositions, old.schemePositions)
        (openFrom, landsOnItself) = (old.openFrom, old.landsOnItself)
        (isAppConnectApp, nativeMail) = (old.isAppConnectApp, old.nativeMail)
        self.sides = sides
        var lacks = old.lacks
        var controls = old.controls
        var changedSides: [PreparedPolicy] = []
        // swift-format-ignore: ReplaceForEachWithForLoop
        try? changed.forEach { (x) throws(FleetError) in
            lacks[x] = FleetGraph.lacks(sides[x], on: device)
            if !controls.isEmpty { controls[x] = FleetSettings.controls(of: sides[x].policy) }
            changedSides.append(sides[x].prepared)
        }
        // A changed policy may make a fact hold that no old one did (an excluded activity): its kinds tell it apart.
        kinds = old.kinds.covering(changedSides)
        self.lacks = lacks
        self.controls = controls
        // A few apps' policies changed: their rows are decided target by target (the tables are made for a whole graph).
        words = nil
        decidesWithoutError = false
    }

    /// Per side, what makes its decisions throw (``lacks``).
    static func lacks(_ sides: [FleetSide], on device: FleetDevice) -> [UInt8] { sides.map { lacks($0, on: device) } }

    /// What makes `side`'s decisions throw (its entry of ``lacks``).
    static func lacks(_ side: FleetSide, on device: FleetDevice) -> UInt8 {
        var bits: UInt8 = 0
        for control in FleetControl.allCases where side.policy.source(of: control) == .notSet { bits |= FleetGraph.bit(control) }
        if side.policy.policy.pasteboard == .secureCopy, device.facts.secureServicesAvailable == nil { bits |= FleetGraph.secureCopyUnknown }
        return bits
    }

    /// The node a delivery to `id` lands on (``FleetDevice/node(receiving:)``), as an index.
    func landing(_ id: BundleID) -> Int? {
        guard let node = device.node(receiving: id) else { return nil }
        return index[device.bundleID(of: node)]
    }

    /// The nodes among `candidates` that `x` delivers to.
    /// - Throws: ``FleetError`` when a policy that must decide lacks a control, as ``FleetDevice/decide(_:)`` does.
    package func row(_ x: Int, among candidates: NodeSet) throws(FleetError) -> NodeSet { try row(x, among: candidates, byWords: words != nil) }

    /// ``row(_:among:)``, a word of 64 targets at a time (`byWords`, when ``words`` is made) or target by target
    /// (the reference the tests compare it with). Both give the same set.
    package func row(_ x: Int, among candidates: NodeSet, byWords: Bool) throws(FleetError) -> NodeSet {
        let (senderPolicy, prepared) = sides[x]
        let from = ids[x]
        let probe = try! FleetRequest(from: from, channel: .paste, target: from)
        for channel in [FleetChannel.documentInteraction, .dragAndDrop, .paste] {
            try device.check(senderPolicy, needs: channel.control, for: probe, on: channel)
        }
        if senderPolicy.policy.pasteboard == .secureCopy, device.facts.secureServicesAvailable == nil {
            _ = try device.decide(probe)  // throws the same error as any paste from this app
        }
        let openFrom = self.openFrom[x]
        func receiverAllows(_ y: Int) throws(FleetError) -> Bool {
            let (receiverPolicy, receiver) = sides[y]
            // A receiver without Open From: the error deciding such a request gives (the request is made only then).
            if lacks[y] & FleetGraph.bit(.openFrom) != 0 {
                try device.check(receiverPolicy, needs: .openFrom, for: try! FleetRequest(from: from, channel: .documentInteraction, target: ids[y]))
            }
            return Evaluator.decide(openFrom, receiver).outcome == .allow
        }
        if byWords, let words { return rowByWords(x, among: candidates, words, words.senders[x]) }
        // The sender's targets by kind, from its lists' entries (the native Mail nodes by the Open In mail pair), as the rules read them.
        let facts = self.kinds.sender(prepared)
        var result = NodeSet(count: ids.count)
        // Per kind of target (``TargetKinds``), which targeted channels deliver: decided once.
        var kinds = [UInt8?](repeating: nil, count: self.kinds.kindCount)
        // The bit set's own forEach (typed throws), not a Sequence's.
        // swift-format-ignore: ReplaceForEachWithForLoop
        try candidates.forEach { (y) throws(FleetError) in
            guard y != x else { return }
            let kind = facts.kind(of: y)
            let delivering: UInt8
            if let known = kinds[kind] {
                delivering = known
            } else {
                var bits: UInt8 = 0
                for c in FleetGraph.targetedChannels.indices {
                    let outcome = Evaluator.decide(targeted(y, c), prepared).outcome
                    if outcome == .allow || outcome == .redirect { bits |= 1 << UInt8(c) }
                }
                kinds[kind] = bits
                delivering = bits
            }
            // Drag and drop, paste: no receiving side. The other targeted channels: the receiver's Open From.
            if delivering & 0b11_0000 != 0 {
                result.insert(y)
            } else if delivering & 0b00_1111 != 0 {
                if !authorized[y] {
                    result.insert(y)
                } else if try receiverAllows(y) {
                    result.insert(y)
                }
            }
        }
        for position in untargeted.indices {
            // A custom scheme's request delivers to its handler or to no one: skip it when that node is not asked about
            // (looked at before the request is taken out of the list: most are skipped on a dense row).
            if let handler = untargeted[position].handler, handler < 0 || !candidates.contains(handler) || result.contains(handler) { continue }
            let (channel, request, _) = untargeted[position]
            let decision = Evaluator.decide(request, prepared)
            guard let target = device.receiving(decision, channel: channel, request: request, from: from),
                  let y = landing(target), y != x, candidates.contains(y), !result.contains(y) else { continue }
            if !authorized[y] {
                result.insert(y)
            } else if try receiverAllows(y) {
                result.insert(y)
            }
        }
        return result
    }

    /// ``row(_:among:)`` on a graph where no decision throws, 64 targets at a time: the sender's targeted
    /// decisions made once per kind of target (``TargetKinds``), as the loop makes them; each
    /// kind's targets as a mask; the receivers' Open From as masks (every source, the AppConnect apps,
    /// or the senders their own whitelist names). Then the custom schemes whose handler is still open,
    /// and the mail requests, one by one as the loop decides them.
    /// - Complexity: O(N / 64 + the sender's whitelist + the receivers listing it + the schemes landing on targets not yet in the row).
    private func rowByWords(_ x: Int, among candidates: NodeSet, _ words: RowWords, _ facts: TargetKinds.Sender) -> NodeSet {
        let (_, prepared) = sides[x]
        let from = ids[x]
        let count = candidates.words.count
        var open = candidates
        open.remove(x)
        let kindCount = kinds.kindCount
        let masks = facts.masks(count: count)
        // The kinds a target can be of, as bits (kind `k`: bit `k`), found once for the row's loops.
        var admitted: UInt32 = 0
        for kind in 0..<kindCount where facts.admits(kind) { admitted |= 1 &<< UInt32(kind) }
        // Per kind: its targets among the candidates, and which targeted channels deliver to them (decided on its first target).
        var delivering = [UInt8](repeating: 0, count: kindCount)
        for kind in 0..<kindCount where admitted &>> UInt32(kind) & 1 != 0 {
            var first = -1
            for w in 0..<count {
                let mask = open.words[w] & masks.mask(kind, word: w)
                if mask != 0 {
                    first = w << 6 | mask.trailingZeroBitCount
                    break
                }
            }
            guard first >= 0 else { continue }
            var bits: UInt8 = 0
            for c in FleetGraph.targetedChannels.indices {
                let outcome = Evaluator.decide(targeted(first, c), prepared).outcome
                if outcome == .allow || outcome == .redirect { bits |= 1 << UInt8(c) }
            }
            delivering[kind] = bits
        }
        // The receivers whose Open From lets this sender in.
        var allows = words.allowsEvery
        if isAppConnectApp[x] { for w in 0..<count { allows.words[w] |= words.allowsAppConnect.words[w] } }
        for y in words.listing[x] { allows.insert(Int(y)) }
        // The kinds delivered to directly (drag and drop, paste: no receiving side) and those whose receiver's Open From decides (the other targeted channels).
        var directKinds: UInt32 = 0, openInKinds: UInt32 = 0
        for kind in 0..<kindCount {
            if delivering[kind] & 0b11_0000 != 0 { directKinds |= 1 &<< UInt32(kind) } else if delivering[kind] & 0b00_1111 != 0 { openInKinds |= 1 &<< UInt32(kind) }
        }
        var result = NodeSet(count: ids.count)
        // Each word's kinds at once (``TargetKinds/Sender/Masks/table(word:into:)``), then the unions the row needs.
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: kindCount)
        defer { table.deallocate() }
        @inline(__always) func union(_ kinds: UInt32) -> UInt64 {
            var union: UInt64 = 0, rest = kinds
            while rest != 0 {
                union |= table[rest.trailingZeroBitCount]
                rest &= rest &- 1
            }
            return union
        }
        for w in 0..<count {
            masks.table(word: w, into: table)
            let (direct, openIn) = (union(directKinds), union(openInKinds))
            result.words[w] = open.words[w] & (direct | (openIn & (~words.authorized.words[w] | allows.words[w])))
        }
        // A custom scheme's request delivers to its handler or to no one: only the handlers asked about and not yet reached.
        var handlers = NodeSet(count: ids.count)
        for w in 0..<count { handlers.words[w] = words.handlers.words[w] & open.words[w] & ~result.words[w] }
        func take(_ position: Int) {
            let (channel, request, _) = untargeted[position]
            let decision = Evaluator.decide(request, prepared)
            guard let target = device.receiving(decision, channel: channel, request: request, from: from),
                  let y = landing(target), y != x, candidates.contains(y), !result.contains(y) else { return }
            if !words.authorized.contains(y) || allows.contains(y) { result.insert(y) }
        }
        // The sender's part of a custom scheme's request reads the handler only through the facts the rules declare
        // (``TargetKinds``; native Mail apart), as for the targeted channels; and through whether the scheme is the
        // sender's own (then decided alone). So whether the request lands on its handler is decided once per kind of
        // handler (its kind, native Mail?), and the handlers of each kind are taken a word at a time. The sender's own schemes are found by name (not by asking every scheme).
        var own: [Int] = []
        for scheme in sides[x].policy.policy.app.urlSchemes {
            for position in schemePositions[ExactKey(scheme)] ?? [] where untargeted[position].request.url.map(prepared.isOwnScheme) == true { own.append(position) }
        }
        own.sort()
        // The handlers whose every scheme is the sender's own are left to those requests alone.
        var onlyOwn = NodeSet(count: ids.count)
        for position in own {
            guard let h = untargeted[position].handler, h >= 0, handlers.contains(h) else { continue }
            if !result.contains(h) { take(position) }
            if schemesLandingOn[h].allSatisfy({ own.contains($0) }) { onlyOwn.insert(h) }
        }
        var landsOn: [Bool?] = Array(repeating: nil, count: 2 * kindCount)
        for w in 0..<count {
            let open = handlers.words[w] & ~result.words[w] & ~onlyOwn.words[w]
            guard open != 0 else { continue }
            let mail = words.nativeMail.words[w]
            var taken: UInt64 = 0
            masks.table(word: w, into: table)
            for kind in 0..<2 * kindCount where admitted &>> UInt32(kind >> 1) & 1 != 0 {
                let mask = open & table[kind >> 1] & (kind & 1 != 0 ? mail : ~mail)
                guard mask != 0 else { continue }
                if landsOn[kind] == nil {
                    // Decided on the first handler of the kind and its first scheme that is not the sender's own.
                    let h = w << 6 | mask.trailingZeroBitCount
                    let position = schemesLandingOn[h].first { !own.contains($0) }!
                    let (channel, request, _) = untargeted[position]
                    let decision = Evaluator.decide(request, prepared)
                    landsOn[kind] = device.receiving(decision, channel: channel, request: request, from: from).flatMap(landing) == h
                }
                if landsOn[kind]! { taken |= mask }
            }
            result.words[w] |= taken & (~words.authorized.words[w] | allows.words[w])
        }
        for position in mailPositions { take(position) }
        return result
    }

    /// The hop from `x` to `y`: the first candidate request of `x` (``FleetDevice/candidateRequests(from:)``
    /// order) whose end-to-end decision delivers to `y`, with that decision; `nil` when none does.
    ///
    /// The requests are those of the candidate list that can land on `y` (the targeted ones to `y`, the
    /// custom schemes `y` handles, the mail requests), tried in order until one delivers; the others land
    /// elsewhere whatever they decide, so skipping them changes nothing.
    /// - Throws: ``FleetError`` as ``FleetDevice/decide(_:)``, for the requests tried.
    package func hop(from x: Int, to y: Int) throws(FleetError) -> FleetHop? {
        for (c, channel) in FleetGraph.targetedChannels.enumerated() {
            if let hop = try attempt(channel, targeted(y, c), from: x, to: y) { return hop }
        }
        // The custom schemes `y` handles come before the mail requests in ``untargeted`` (they are listed first).
        for position in schemesLandingOn[y] {
            if let hop = try attempt(untargeted[position].channel, untargeted[position].request, from: x, to: y) { return hop }
        }
        for position in mailPositions {
            if let hop = try attempt(untargeted[position].channel, untargeted[position].request, from: x, to: y) { return hop }
        }
        return nil
    }

    /// The request from `x` on `channel` (its sender's part `request`), decided end to end as
    /// ``FleetDevice/decide(_:)`` decides it, as a hop when it delivers to `y`; `nil` otherwise.
    ///
    /// The same steps, in the same order, with what they read made once per node: a request whose
    /// sender or receiver lacks a control it needs goes to ``FleetDevice/decide(_:)``, which throws;
    /// the decision record is made only for the request that delivers to `y`.
    @inline(__always)
    func attempt(_ channel: FleetChannel, _ request: ShareRequest, from x: Int, to y: Int) throws(FleetError) -> FleetHop? {
        func full() throws(FleetError) -> FleetDecision {
            try device.decide(FleetRequest(from: ids[x], channel: channel, checked: request), sender: sides[x], openFrom: openFrom[x], receiver: side(for:))
        }
        if lacks[x] & (channel.control.map(FleetGraph.bit) ?? 0) != 0 || (channel == .paste && lacks[x] & FleetGraph.secureCopyUnknown != 0) {
            return hop(try full(), from: x, to: y)  // throws: the sender lacks what the request needs
        }
        func made(_ decision: FleetDecision, receiver: Int?) -> FleetHop {
            var decision = decision
            decision.madeSettings = FleetSettings.appConnect(decision, sender: sides[x].policy, senderControls: controls.isEmpty ? nil : controls[x],
                                                           receiverControls: controls.isEmpty ? nil : receiver.map { controls[$0] })
            return FleetHop(from: nodes[x], to: nodes[y], decision: decision)
        }
        let sender = Evaluator.decide(request, sides[x].prepared)
        guard let receiving = device.receiving(sender, channel: channel, request: request, from: ids[x]) else { return nil }
        let isY = receiving == ids[y]
        let lands = isY ? landsOnItself[y] : device.node(receiving: receiving) == nodes[y]
        guard channel.hasReceiverPart, isY ? authorized[y] : device.appConnectApps.contains(receiving) else {
            guard lands else { return nil }
            return made(FleetDecision(
                device: device.name, request: FleetRequest(from: ids[x], channel: channel, checked: request), outcome: sender.outcome, sender: sender,
                receiver: nil, receiverApp: receiving, senderPolicy: sides[x].policy, receiverPolicy: nil), receiver: nil)
        }
        let (receiverPolicy, receiverPrepared) = isY ? sides[y] : side(for: receiving)
        // Before the landing: a receiver that lacks Open From makes the request an error wherever it lands.
        if receiverPolicy.source(of: .openFrom) == .notSet { return hop(try full(), from: x, to: y) }  // throws
        guard lands else { return nil }
        let receiver = Evaluator.decide(openFrom[x], receiverPrepared)
        let outcome = receiver.outcome == .allow ? sender.outcome : receiver.outcome
        guard outcome == .allow || outcome == .redirect else { return nil }
        return made(FleetDecision(
            device: device.name, request: FleetRequest(from: ids[x], channel: channel, checked: request), outcome: outcome, sender: sender,
            receiver: receiver, receiverApp: receiving, senderPolicy: sides[x].policy, receiverPolicy: receiverPolicy), receiver: isY ? y : index[receiving])
    }

    /// A node's side, by bundle ID: the graph's for its nodes, the device's otherwise.
    package func side(for id: BundleID) -> FleetSide {
        if let known = index[id] { return sides[known] }
        return device.side(for: id)
    }

    /// `decision` as a hop from `x` to `y` when it delivers there.
    package func hop(_ decision: FleetDecision, from x: Int, to y: Int) -> FleetHop? {
        guard decision.delivers, let receiving = decision.receiverApp, device.node(receiving: receiving) == nodes[y] else { return nil }
        return FleetHop(from: nodes[x], to: nodes[y], decision: decision)
    }

}

extension FleetDevice {
    /// Which nodes `app`'s documents reach on this device, and in how many hops: the search of
    /// ``paths(from:maxHops:)`` without the decisions along the way. An app not installed reaches nothing.
    /// - Complexity: O(N + Σ unreached candidates per visited node) target checks (each a few table
    ///   lookups, the sender's decisions made once per channel and kind of target), plus the receiver's
    ///   Open From per delivered target: at most O(N²) for N nodes, O(edges) when most nodes are reached early.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func reach(from app: BundleID, maxHops: Int? = nil) throws(FleetError) -> FleetReach {
        // One search decides few hops: each makes the settings it names.
        let graph = FleetGraph(self, settings: false)
        return try FleetSearch.reach(graph, from: isInstalled(app) ? graph.index[app] : nil, app: app, maxHops: maxHops)
    }

    /// Where each installed fleet app's documents can end up on this device: the full graph once
    /// (every node's row, N² target checks), then a breadth-first search over the rows per app.
    /// - Complexity: O(N² + N × channels) decisions for the graph, then O(N × (N + edges)) for all searches.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func reachAll(maxHops: Int? = nil) throws(FleetError) -> [FleetReach] {
        var result: [FleetReach] = []
        try forEachReach(maxHops: maxHops) { (reach) throws(FleetError) in result.append(reach) }
        return result
    }

    /// ``reachAll(maxHops:)`` one app at a time: `body` gets each installed fleet app's search, in file
    /// order, and may let it go before the next is made, so the searches are never held together.
    /// The graph's rows (and who delivers to whom) are kept as bit sets, or as lists when they hold few
    /// nodes: memory O(N + edges), never N² when the graph is sparse.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs (before
    ///   any search is given to `body`), or what `body` throws.
    package func forEachReach(maxHops: Int? = nil, _ body: (FleetReach) throws(FleetError) -> Void) throws(FleetError) {
        let graph = FleetGraph(self)
        let starts = fleet.apps.compactMap { app in isInstalled(app.bundleID) ? graph.index[app.bundleID].map { ($0, app.bundleID) } : nil }
        try FleetSearch.forEachReach(graph, starts: starts, maxHops: maxHops, body)
    }

    /// The shortest chains of a search's result, with the decision of every hop.
    ///
    /// Each hop is decided once, as the edge into the node it reaches (`FleetGraph.hop(from:to:)`:
    /// the first delivering candidate request of `candidateRequests(from:)`), and a chain is the
    /// chain of its node's predecessor plus that hop, so chains share their hops. A result of
    /// ``reachAll(maxHops:)`` or ``reach(from:maxHops:)`` on this device keeps the graph of its search,
    /// and its hops reuse it.
    /// - Complexity: O(N) for the graph when the result does not carry one, then per reached node O(1)
    ///   decisions (at most the 6 targeted requests, the custom schemes its node handles and the 3 mail
    ///   requests) and its chain's length.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func paths(_ reach: FleetReach) throws(FleetError) -> [FleetPath] {
        let graph: any FleetEdges
        if let kept = reach.graph as? FleetGraph, kept.device.table === table { graph = kept } else { graph = FleetGraph(self) }
        return try FleetSearch.paths(reach, on: graph)
    }
}
