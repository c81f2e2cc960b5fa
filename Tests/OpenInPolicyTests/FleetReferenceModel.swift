import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import OpenInTestSupport

/// A reachability reference model for fleets, written apart from the engine: a random fleet is made
/// as a plain description, written out as a fleet file for the engine to read, and the model works
/// out from the description alone each app's policy, the requests each app can make and, with the
/// single-app evaluator's decisions, a plain breadth-first search. The engine's paths must reach the
/// same apps in the same number of hops.
@Suite struct FleetReferenceModelTests {
    /// A random fleet as the model sees it.
    struct Spec {
        struct Controls {
            var openIn: String? = nil
            var openInList: [String] = []
            var openFrom: String? = nil
            var openFromList: [String] = []
            var pasteboard: String? = nil
            var dragAndDrop: String? = nil
            /// `excludedAppleActivityTypes`, when the object sets it (an empty list too).
            var excluded: [String]? = nil
        }
        struct Container {
            var name: String
            var app: String
            var labels: [String]
            var controls: Controls
        }
        var authorizeByDefault: Bool
        var global: Controls
        var containers: [Container]
        var apps: [(id: String, appConnect: Bool, schemes: [String])]
        var labels: [String]
        var installed: [String]
        var handlers: [(scheme: String, app: String)]
        var secureServices: Bool
        var config: [(app: String, key: String, value: String)]
        /// The apps whose `allowsCustomKeyboards` is false (its -shouldAllowExtensionPointIdentifier: says no).
        var refusesKeyboards: [String] = []
    }

    static let ids = ["com.a.one", "com.a.two", "com.a.three", "com.b.four", "com.b.five", "com.c.six", "com.mobileiron.ios.emailplus", "com.apple.mobilemail"]
    static let labelNames = ["Sales", "HR", "Field"]

    static func randomControls(_ random: inout SplitMix64, complete: Bool) -> Spec.Controls {
        var controls = Spec.Controls()
        if complete || random.percent(50) {
            controls.openIn = random.pick(["unauthorized", "authorized", "whitelist", "appconnect"])
            if controls.openIn == "whitelist" { controls.openInList = Array(Set(random.some(ids + ["com.apple.UIKit.activity.Mail", "com.other.app"], upTo: 4))).sorted() }
        }
        if complete || random.percent(50) {
            controls.openFrom = random.pick(["unauthorized", "authorized", "whitelist", "appconnect"])
            if controls.openFrom == "whitelist" { controls.openFromList = Array(Set(random.some(ids, upTo: 3))).sorted() }
        }
        if complete || random.percent(40) { controls.pasteboard = random.pick(["unauthorized", "authorized", "securecopy"]) }
        if complete || random.percent(40) { controls.dragAndDrop = random.pick(["all", "appconnect", "none"]) }
        return controls
    }

    /// A random fleet; with `excluding`, its global and container policies may also set `excludedAppleActivityTypes`
    /// (drawn after everything else, so the fleet is otherwise the one drawn without it).
    static func randomSpec(_ random: inout SplitMix64, excluding: Bool = false) -> Spec {
        let appCount = 3 + random.below(5)
        var apps: [(id: String, appConnect: Bool, schemes: [String])] = []
        for (index, id) in ids.shuffled(using: &random).prefix(appCount).enumerated() {
            let appConnect = !id.hasPrefix("com.apple") && random.percent(65)
            apps.append((id, appConnect, random.percent(30) ? ["scheme\(index)"] : []))
        }
        var containers: [Spec.Container] = []
        for (index, app) in apps.enumerated() where app.appConnect && random.percent(70) {
            // One container policy per app, on some labels (never two for one app: a conflict is its own test).
            containers.append(Spec.Container(name: "P\(index)", app: app.id, labels: Array(Set(random.some(labelNames, upTo: 2))).sorted(),
                                             controls: randomControls(&random, complete: false)))
        }
        let installed = apps.map(\.id).filter { _ in random.percent(80) }
        var handlers: [(String, String)] = []
        if random.percent(50), let app = installed.randomElement(using: &random) { handlers.append(("custom", app)) }
        if random.percent(40), let app = installed.randomElement(using: &random) { handlers.append(("mailto", app)) }
        // A handler the device does not install is an error in the fleet file (Rules/fleet/fleet.md, "One reading
        // of a fleet"), so the model draws none; native Mail is on every device and may handle a scheme unlisted.
        if random.percent(30) { handlers.append(("ext", "com.apple.mobilemail")) }
        if random.percent(30), let app = installed.last { handlers.append(("gone", app)) }
        var config: [(String, String, String)] = []
        if random.percent(30), let app = apps.randomElement(using: &random) {
            config.append((app.id, random.pick(["MI_AC_DISABLE_OPEN_IN_ENFORCEMENT", "MI_AC_DISABLE_SCHEME_BLOCKING"]), random.pick(["yes", "true"])))
        }
        var spec = Spec(authorizeByDefault: random.percent(50), global: randomControls(&random, complete: true), containers: containers, apps: apps,
                        labels: Array(Set(random.some(labelNames, upTo: 2))).sorted(), installed: installed, handlers: handlers,
                        secureServices: random.percent(70), config: config)
        // Keyboards, drawn last (the draws above stay as they were): an app that refuses custom keyboards,
        // and MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS in a configuration (exactly true, false, or another value).
        spec.refusesKeyboards = apps.map(\.id).filter { _ in random.percent(30) }
        if random.percent(50), let app = apps.randomElement(using: &random), !spec.config.contains(where: { $0.app == app.id }) {
            spec.config.append((app.id, "MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS", random.pick(["true", "false", "yes"])))
        }
        // An app's own scheme that the device routes to another installed app (Rules/fleet/fleet.md,
        // fleet.own-scheme-elsewhere), drawn after everything else.
        if random.percent(40), let owner = apps.filter({ !$0.schemes.isEmpty && installed.contains($0.id) }).randomElement(using: &random),
           let other = installed.filter({ $0 != owner.id }).randomElement(using: &random) {
            spec.handlers.append((owner.schemes[0], other))
        }
        if excluding {
            // The share sheet's targets are the fleet's apps, native Mail and Apple's activities; a list may be empty.
            let pool = ids + ["com.apple.UIKit.activity.AirDrop", "com.apple.UIKit.activity.Mail", "com.other.app"]
            if random.percent(60) { spec.global.excluded = Array(Set(random.some(pool, upTo: 4))).sorted() }
            for index in spec.containers.indices where random.percent(40) { spec.containers[index].controls.excluded = Array(Set(random.some(pool, upTo: 3))).sorted() }
        }
        return spec
    }

    /// The fleet file the engine reads.
    static func json(_ spec: Spec) -> String {
        func quote(_ text: String) -> String { "\"\(text)\"" }
        func list(_ items: [String]) -> String { "[" + items.map(quote).joined(separator: ", ") + "]" }
        func controls(_ controls: Spec.Controls) -> [String] {
            var members: [String] = []
            if let value = controls.openIn { members.append("\"openInPolicy\": \(quote(value))") }
            if controls.openIn == "whitelist" { members.append("\"openInWhitelist\": \(list(controls.openInList))") }
            if let value = controls.openFrom { members.append("\"openFromPolicy\": \(quote(value))") }
            if controls.openFrom == "whitelist" { members.append("\"openFromWhitelist\": \(list(controls.openFromList))") }
            if let value = controls.pasteboard { members.append("\"pasteboardPolicy\": \(quote(value))") }
            if let value = controls.dragAndDrop { members.append("\"dragAndDropPolicy\": \(quote(value))") }
            if let value = controls.excluded { members.append("\"excludedAppleActivityTypes\": \(list(value))") }
            return members
        }
        let global = (["\"authorizeAppsWithoutContainerPolicy\": \(spec.authorizeByDefault)"] + controls(spec.global)).joined(separator: ", ")
        let containers = spec.containers.map { container in
            "{" + (["\"name\": \(quote(container.name))", "\"app\": \(quote(container.app))", "\"labels\": \(list(container.labels))"] + controls(container.controls)).joined(separator: ", ") + "}"
        }
        let configurations = spec.config.map { "{\"app\": \(quote($0.app)), \"labels\": \(list(labelNames)), \"config\": {\(quote($0.key)): \(quote($0.value))}}" }
        let apps = spec.apps.map { app in
            "{\"bundleID\": \(quote(app.id)), \"appconnect\": \(app.appConnect), \"urlSchemes\": \(list(app.schemes))"
                + (spec.refusesKeyboards.contains(app.id) ? ", \"allowsCustomKeyboards\": false}" : "}")
        }
        let handlers = spec.handlers.map { "\(quote($0.scheme)): \(quote($0.app))" }.joined(separator: ", ")
        return """
            {"global": {\(global)},
             "containerPolicies": [\(containers.joined(separator: ",\n  "))],
             "appConfigurations": [\(configurations.joined(separator: ", "))],
             "apps": [\(apps.joined(separator: ", "))],
             "devices": {"d": {"labels": \(list(spec.labels)), "installed": \(list(spec.installed)), "schemeHandlers": {\(handlers)},
                               "secureServicesAvailable": \(spec.secureServices)}}}
            """
    }

    /// The model's own reading of the spec: the authorized installed AppConnect apps, and each app's policy.
    struct Model {
        let spec: Spec
        let appConnectApps: Set<BundleID>
        let anyOther = try! BundleID("zz.reference.any-other")

        init(_ spec: Spec) {
            self.spec = spec
            var apps: Set<BundleID> = []
            for app in spec.apps where app.appConnect && spec.installed.contains(app.id) {
                let applies = spec.containers.contains { $0.app == app.id && $0.labels.contains(where: spec.labels.contains) }
                if applies || spec.authorizeByDefault { apps.insert(try! BundleID(app.id)) }
            }
            appConnectApps = apps
        }

        func facts() -> DeviceFacts {
            var facts = DeviceFacts()
            facts.appConnectApps = appConnectApps
            facts.secureServicesAvailable = spec.secureServices
            facts.emailPlusInstalled = spec.installed.contains("com.mobileiron.ios.emailplus")
            for (scheme, app) in spec.handlers { try! facts.setHandler(try! BundleID(app), for: scheme) }
            for app in spec.apps where spec.installed.contains(app.id) {
                for scheme in app.schemes where facts.handler(forScheme: scheme) == nil { try! facts.setHandler(try! BundleID(app.id), for: scheme) }
            }
            return facts
        }

        func policy(_ id: BundleID) -> Policy {
            let app = spec.apps.first { $0.id == id.rawValue }
            let schemes = try! AppFacts(urlSchemes: app?.schemes ?? [])
            guard let app, app.appConnect else {
                var policy = Policy(status: .authorized, device: facts(), app: schemes, enforcing: false)
                policy.openFrom = OpenFromPolicy(status: .authorized)
                policy.pasteboard = .authorized
                return policy
            }
            guard appConnectApps.contains(id) else {
                var policy = Policy(status: .unauthorized, device: facts(), app: schemes)
                policy.openFrom = OpenFromPolicy(status: .unauthorized)
                policy.pasteboard = .unauthorized
                policy.print = .unauthorized
                return policy
            }
            let container = spec.containers.first { $0.app == app.id && $0.labels.contains(where: spec.labels.contains) }?.controls
            func pick<T>(_ value: (Spec.Controls) -> T?) -> (T, Spec.Controls) {
                if let container, let chosen = value(container) { return (chosen, container) }
                return (value(spec.global)!, spec.global)
            }
            var policy = Policy(status: .unauthorized, device: facts(), app: schemes)
            let (openIn, openInFrom) = pick(\.openIn)
            switch openIn {
            case "authorized": policy.status = .authorized
            case "unauthorized": policy.status = .unauthorized
            case "whitelist":
                policy.status = .whitelist
                policy.whitelist = Whitelist(openInFrom.openInList.map { try! BundleID($0) })
            default:
                policy.status = .whitelist
                policy.whitelist = Whitelist(appConnectApps)
            }
            let (openFrom, openFromFrom) = pick(\.openFrom)
            switch openFrom {
            case "authorized": policy.openFrom = OpenFromPolicy(status: .authorized)
            case "unauthorized": policy.openFrom = OpenFromPolicy(status: .unauthorized)
            case "whitelist": policy.openFrom = OpenFromPolicy(status: .whitelist, whitelist: Whitelist(openFromFrom.openFromList.map { try! BundleID($0) }))
            default: policy.openFrom = OpenFromPolicy(status: .whitelist, whitelist: Whitelist(appConnectApps))
            }
            policy.pasteboard = ["unauthorized": .unauthorized, "authorized": .authorized, "securecopy": PasteboardPolicy.secureCopy][pick(\.pasteboard).0]
            policy.dragAndDrop = try! DragAndDropPolicy(parsing: pick(\.dragAndDrop).0)
            // The excluded share-sheet activities: the container policy's list when it sets one (empty too), else the global one's, else none.
            policy.excludedActivityTypes = (container?.excluded ?? spec.global.excluded ?? []).map { try! BundleID($0) }
            // A configuration is on every label: it applies when the device carries one.
            if let config = spec.config.first(where: { $0.app == app.id }), !spec.labels.isEmpty { policy.config = AppConfig([config.key: config.value]) }
            return policy
        }

        /// Typing in `id` with a third-party keyboard (`system` false) or the system keyboard, worked out from
        /// the spec alone (`Rules/keyboards-and-paste.md`): `nil` when the app is not installed.
        func keyboard(_ id: BundleID, system: Bool) -> Outcome? {
            guard spec.installed.contains(id.rawValue) else { return nil }
            guard let app = spec.apps.first(where: { $0.id == id.rawValue }), app.appConnect else { return .allow }
            if system { return .allow }
            // A configuration reaches the app only when it is authorized and the device carries a label.
            if appConnectApps.contains(id), !spec.labels.isEmpty,
               let value = spec.config.first(where: { $0.app == app.id && $0.key == "MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS" })?.value {
                return value == "true" ? .allow : .deny
            }
            return spec.refusesKeyboards.contains(app.id) ? .deny : .allow
        }

        /// Where a delivery to `id` lands: an installed app, native Mail, or any other app; `nil` when nowhere.
        func landing(_ id: BundleID) -> BundleID? {
            if id.isNativeMail { return .mobileMail }
            if spec.installed.contains(id.rawValue) { return id }
            if id == anyOther || !spec.apps.contains(where: { $0.id == id.rawValue }) { return anyOther }
            return nil
        }

        /// Breadth-first search from `start`: each reached node and its distance in hops.
        func reach(from start: BundleID) -> [BundleID: Int] {
            var nodes = spec.installed.map { try! BundleID($0) }
            if !nodes.contains(.mobileMail) { nodes.append(.mobileMail) }
            nodes.append(anyOther)
            let schemes = facts().schemeHandlers.keys.filter { !["http", "https", "mailto"].contains($0) }
            var distance: [BundleID: Int] = [start: 0]
            var queue = [start]
            while !queue.isEmpty {
                let x = queue.removeFirst()
                let sender = Evaluator(policy: policy(x))
                var requests: [ShareRequest] = []
                for y in nodes where y != x {
                    for channel in [Channel.documentInteraction, .quickLook, .appExtension, .activityView, .dragAndDrop, .copy] {
                        requests.append(try! ShareRequest(channel: channel, target: y))
                    }
                }
                for scheme in schemes { requests.append(try! ShareRequest(channel: .openURL, url: try! ShareURL("\(scheme)://x"))) }
                requests.append(try! ShareRequest(channel: .openURL, url: try! ShareURL("mailto:a@example.com")))
                requests.append(try! ShareRequest(channel: .mailLink))
                requests.append(try! ShareRequest(channel: .mailCompose))
                for request in requests {
                    let decision = sender.decide(request)
                    guard decision.outcome == .allow || decision.outcome == .redirect else { continue }
                    // An own scheme the sender lets go lands on the device's handler for it when that is another app.
                    let routed = request.url.flatMap { $0.isMailto ? nil : facts().handler(forScheme: $0.scheme) }.flatMap { $0 == x || request.channel != .openURL ? nil : $0 }
                    guard let delivered = request.channel == .copy ? request.target : decision.target ?? routed, let node = landing(delivered), node != x else { continue }
                    let documentChannel = request.channel != .copy && request.channel != .dragAndDrop
                    if documentChannel, appConnectApps.contains(delivered) {
                        let openFrom = Evaluator(policy: policy(delivered)).decide(try! ShareRequest(channel: .openFrom, source: x))
                        guard openFrom.outcome == .allow else { continue }
                    }
                    if distance[node] == nil {
                        distance[node] = distance[x]! + 1
                        queue.append(node)
                    }
                }
            }
            distance[start] = nil
            return distance
        }
    }

    @Test(arguments: [false, true]) func pathsReachWhatThePlainSearchReaches(excluding: Bool) throws {
        var random = SplitMix64(seed: 0x666C_6565_74)
        var compared = 0
        for _ in 0..<Soak.size(250) {
            let spec = Self.randomSpec(&random, excluding: excluding)
            let fleet = try FleetJSON.read(Array(Self.json(spec).utf8), file: "random.json")
            let device = try fleet.device(named: "d")
            let model = Model(spec)
            #expect(device.appConnectApps == model.appConnectApps)
            // The all-pairs search (one graph, a search over bit sets per app) reaches what the model reaches too.
            for reach in try device.reachAll() {
                let expected = model.reach(from: reach.from)
                let engine = Dictionary(uniqueKeysWithValues: reach.reached.map { node in
                    (node == .anyOtherApp ? model.anyOther : { if case .app(let id) = node { return id }; fatalError() }(), reach.hops(to: node)!)
                })
                #expect(engine == expected, "reachAll from \(reach.from) in:\n\(Self.json(spec))")
            }
            for start in spec.installed {
                let id = try BundleID(start)
                let paths = try device.paths(from: id)
                var engine: [BundleID: Int] = [:]
                for path in paths {
                    let node: BundleID
                    switch path.to {
                    case .app(let app): node = app
                    case .anyOtherApp: node = model.anyOther
                    }
                    engine[node] = path.hops.count
                    // Each hop delivers, and the hops chain from the start to the node.
                    #expect(path.hops.first?.from == .app(id))
                    for (hop, next) in zip(path.hops, path.hops.dropFirst()) { #expect(hop.to == next.from) }
                    #expect(path.hops.allSatisfy { $0.decision.delivers })
                }
                let expected = model.reach(from: id)
                #expect(engine == expected, "seed state, fleet:\n\(Self.json(spec))\nfrom \(start)")
                compared += 1
            }
        }
        #expect(compared > Soak.least(500))
    }
}

extension FleetReferenceModelTests {
    /// Every matrix cell is the outcome of deciding that cell's request end to end, on random fleets.
    @Test(arguments: [false, true]) func matrixCellsAreEndToEndDecisions(excluding: Bool) throws {
        var random = SplitMix64(seed: 0x6D61_7472_6978)
        var cells = 0
        for _ in 0..<120 {
            let spec = Self.randomSpec(&random, excluding: excluding)
            let device = try FleetJSON.read(Array(Self.json(spec).utf8), file: "random.json").device(named: "d")
            let matrix = try device.matrix()
            for channel in matrix.channels {
                for (s, sender) in matrix.senders.enumerated() {
                    for (r, receiver) in matrix.receivers.enumerated() {
                        let cell = matrix.outcome(channel, sender: s, receiver: r)
                        guard device.isInstalled(sender), let request = device.matrixRequest(channel, from: sender, to: receiver) else {
                            #expect(cell == nil, "\(channel) \(sender) → \(receiver)")
                            continue
                        }
                        let decided = try device.decide(request)
                        #expect(cell == decided.outcome, "\(channel) \(sender) → \(receiver): \(String(describing: cell)) vs \(decided.outcome) \(decided.sender.rule) \(String(describing: decided.receiver?.rule)) in:\n\(Self.json(spec))")
                        cells += 1
                    }
                }
            }
        }
        #expect(cells > 10_000)
    }

    /// Every sender's keyboard line is what the model works out, and what deciding `keyboard` end to end gives;
    /// no keyboard decision has a receiver. Over the random fleets, both outcomes of a third-party keyboard occur.
    @Test func keyboardLinesAgreeWithTheModel() throws {
        var random = SplitMix64(seed: 0x6B65_7962_6F61)
        var seen: Set<Outcome> = []
        var compared = 0
        for _ in 0..<200 {
            let spec = Self.randomSpec(&random)
            let device = try FleetJSON.read(Array(Self.json(spec).utf8), file: "random.json").device(named: "d")
            let model = Model(spec)
            let matrix = try device.matrix()
            for (s, sender) in matrix.senders.enumerated() {
                for system in [false, true] {
                    let cell = matrix.keyboard(sender: s, system: system)
                    let expected = model.keyboard(sender, system: system)
                    #expect(cell == expected, "keyboard \(system ? "system" : "third-party") in \(sender):\n\(Self.json(spec))")
                    if device.isInstalled(sender) {
                        let request = try FleetRequest(from: sender, channel: .keyboard, target: system ? .systemKeyboard : FleetMatrix.thirdPartyKeyboard)
                        let decided = try device.decide(request)
                        #expect(decided.outcome == cell && decided.receiver == nil)
                    }
                    if !system, let cell { seen.insert(cell) }
                    compared += 1
                }
            }
        }
        #expect(seen == [.allow, .deny])
        #expect(compared > 1_000)
    }
}

extension FleetReferenceModelTests {
    /// The hop into `node` from `before`, the straightforward way: the candidate requests of `before`
    /// (``FleetDevice/candidateRequests(from:)`` order) that can land on `node` (a targeted request
    /// names it, a custom scheme's handler lands on it, a mail request lands anywhere), each decided
    /// with the public ``FleetDevice/decide(_:)``, the first that delivers to `node`.
    static func plainHop(_ device: FleetDevice, from before: FleetNode, to node: FleetNode) throws(FleetError) -> FleetDecision? {
        for request in device.candidateRequests(from: before) {
            if let target = request.target {
                guard device.node(receiving: target) == node else { continue }
            } else if let url = request.url, !url.isMailto {
                guard let handler = device.facts.handler(forScheme: url.scheme), device.node(receiving: handler) == node else { continue }
            }
            let decision = try device.decide(request)
            if decision.delivers, let receiving = decision.receiverApp, device.node(receiving: receiving) == node { return decision }
        }
        return nil
    }

    /// A search result's chains, the straightforward way: each node's chain walks the predecessors back
    /// to the start, and every hop is decided anew by ``plainHop(_:from:to:)``.
    static func plainPaths(_ device: FleetDevice, _ reach: FleetReach) throws(FleetError) -> [(to: FleetNode, hops: [FleetDecision])] {
        try reach.order.map { (node) throws(FleetError) in
            var hops: [FleetDecision] = []
            var current = Int(node)
            while reach.predecessor[current] >= 0 {
                let before = Int(reach.predecessor[current])
                guard let hop = try plainHop(device, from: reach.nodes[before], to: reach.nodes[current]) else {
                    throw FleetError("no request makes the edge \(reach.nodes[before]) → \(reach.nodes[current])")
                }
                hops.append(hop)
                current = before
            }
            return (reach.nodes[Int(node)], hops.reversed())
        }
    }

    /// The path finder's hops (decided on the search's graph, each once, chains sharing them) are exactly
    /// the straightforward ones: the same nodes, and per hop the same request and end-to-end decision
    /// (outcome, sender's and receiver's decisions, receiving app, both sides' policies), or the same
    /// error; on random fleets, some of whose policies leave Open From or the pasteboard unset.
    @Test(arguments: [false, true]) func pathHopsAreTheStraightforwardDecisions(excluding: Bool) throws {
        var random = SplitMix64(seed: 0x686F_7073)
        var hops = 0, errors = 0
        func same(_ engine: FleetDecision, _ plain: FleetDecision) -> Bool {
            engine.device == plain.device && engine.request == plain.request && engine.outcome == plain.outcome && engine.sender == plain.sender
                && engine.receiver == plain.receiver && engine.receiverApp == plain.receiverApp && engine.senderPolicy?.app == plain.senderPolicy?.app
                && engine.senderPolicy?.authorization == plain.senderPolicy?.authorization && engine.receiverPolicy?.app == plain.receiverPolicy?.app
                && engine.receiverPolicy?.authorization == plain.receiverPolicy?.authorization
        }
        for round in 0..<Soak.size(250) {
            var spec = Self.randomSpec(&random, excluding: excluding)
            // Some fleets leave a control to the container policies alone: requests that need it from an app without one fail.
            if round % 4 == 1 { spec.global.openFrom = nil }
            if round % 4 == 2 { spec.global.pasteboard = nil }
            let device = try FleetJSON.read(Array(Self.json(spec).utf8), file: "random.json").device(named: "d")
            var reaches: [FleetReach] = []
            if let all = try? device.reachAll() { reaches += all }
            for start in spec.installed { if let one = try? device.reach(from: try BundleID(start)) { reaches.append(one) } }
            for reach in reaches {
                let engine: Result<[FleetPath], FleetError>
                do throws(FleetError) { engine = .success(try device.paths(reach)) } catch { engine = .failure(error) }
                let plain: Result<[(to: FleetNode, hops: [FleetDecision])], FleetError>
                do throws(FleetError) { plain = .success(try Self.plainPaths(device, reach)) } catch { plain = .failure(error) }
                switch (engine, plain) {
                case (.success(let paths), .success(let expected)):
                    #expect(paths.map(\.to) == expected.map(\.to))
                    for (path, (_, chain)) in zip(paths, expected) {
                        #expect(path.hops.count == chain.count)
                        for (hop, decision) in zip(path.hops, chain) {
                            #expect(same(hop.decision, decision), "\(hop.from) → \(hop.to): \(hop.decision.request) vs \(decision.request) in:\n\(Self.json(spec))")
                            #expect(device.node(receiving: decision.receiverApp!) == hop.to)
                            hops += 1
                        }
                    }
                case (.failure(let error), .failure(let expected)):
                    #expect(error == expected)
                    errors += 1
                default:
                    Issue.record("from \(reach.from): path finder \(engine.map { $0.count }), straightforward \(plain.map { $0.count }) in:\n\(Self.json(spec))")
                }
            }
        }
        #expect(hops > Soak.least(2_000))
        #expect(errors > Soak.least(10))
    }
}
