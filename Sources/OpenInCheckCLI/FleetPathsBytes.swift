import OpenInPolicy

/// What `fleet paths` writes of one search, as bytes: each node's name escaped once per device, each
/// setting's line once per device, each hop once per search (a chain is its predecessor's chain plus
/// one hop, so a chain is written by copying the hops of the nodes on it). The same bytes as
/// ``PathsWriter/appendText(_:to:)`` and ``PathsWriter/record(_:app:installed:_:summary:states:first:fromOutside:chains:)``
/// write for the search's paths (a test compares them on random fleets of both vendors).
struct PathsBytes {
    /// The device the tables below are for.
    private(set) var device: String?
    /// Per node: its name as text shows it (escaped), as JSON writes it (quoted), whether it is outside, whether in the `--to` set.
    private(set) var names: [[UInt8]] = []
    private(set) var quoted: [[UInt8]] = []
    private(set) var outside: [Bool] = []
    private(set) var inSet: [Bool] = []
    /// Each setting's text line, by the setting (made once per device).
    private var settingLines: [SettingKey: [UInt8]] = [:]
    /// Per node, the bytes of the hop into it in ``arena`` (text or JSON), for the search ``search``.
    private var arena: [UInt8] = []
    private var hopStart: [Int] = []
    private var hopEnd: [Int] = []
    private var stamp: [Int] = []
    private var search = 0
    private var chain: [Int] = []

    /// Makes the per-node tables for `device`, unless they are made for it already.
    mutating func prepare(_ device: AnalyzedDevice, nodes: [FleetNode], inSet test: (FleetNode) -> Bool) {
        if let known = self.device, ExactText.same(known, device.name), names.count == nodes.count { return }
        self.device = device.name
        names = nodes.map { Array(DecisionText.escaped($0.description).utf8) }
        quoted = nodes.map { node in
            var bytes: [UInt8] = []
            JSONWriter.appendQuoted(node.description, to: &bytes)
            return bytes
        }
        outside = nodes.map(device.isOutside)
        inSet = nodes.map(test)
        settingLines = [:]
        hopStart = Array(repeating: 0, count: nodes.count)
        hopEnd = hopStart
        stamp = Array(repeating: -1, count: nodes.count)
    }

    /// Starts a search: the hops written for the one before are let go.
    mutating func startSearch() {
        search += 1
        arena.removeAll(keepingCapacity: true)
    }

    /// Appends the chain of hops into `node` (each hop's bytes made by `hop` once per search), with
    /// `separator` between two hops.
    mutating func appendChain(_ node: Int, tree: FleetTree, separator: UInt8? = nil, to bytes: inout [UInt8],
                              hop write: (inout PathsBytes, FleetHop, Int, inout [UInt8]) -> Void) {
        chain.removeAll(keepingCapacity: true)
        var current = node
        while current >= 0, tree.predecessor(current) >= 0 {
            chain.append(current)
            current = tree.predecessor(current)
        }
        for (position, y) in chain.reversed().enumerated() {
            if stamp[y] != search {
                var part: [UInt8] = []
                write(&self, tree.hops[y]!, y, &part)
                hopStart[y] = arena.count
                arena += part
                hopEnd[y] = arena.count
                stamp[y] = search
            }
            if position > 0, let separator { bytes.append(separator) }
            bytes.append(contentsOf: arena[hopStart[y]..<hopEnd[y]])
        }
    }

    /// One hop's lines of the text block, as ``PathsWriter/appendText(_:to:)`` writes them; the hop goes into `node`.
    mutating func appendText(_ hop: FleetHop, into node: Int, from: Int, to bytes: inout [UInt8]) {
        bytes += PathsBytes.indent4
        bytes += names[from]
        bytes += PathsBytes.arrow
        bytes += names[node]
        bytes += PathsBytes.twoSpaces
        bytes += hop.request.channel.rawValue.utf8
        if let url = hop.request.url {
            bytes.append(UInt8(ascii: " "))
            bytes += DecisionText.escaped(url.rawValue).utf8
        }
        bytes += PathsBytes.openRules
        bytes += hop.decision.sender.rule.rawValue.utf8
        if let receiver = hop.decision.receiver {
            bytes += PathsBytes.commaSpace
            bytes += receiver.rule.rawValue.utf8
        }
        bytes += PathsBytes.closeRules
        for setting in hop.settings {
            let key = SettingKey(setting)
            if let line = settingLines[key] {
                bytes += line
                continue
            }
            var text = ""
            PathsWriter.appendSetting(setting, to: &text)
            let line = Array(text.utf8)
            settingLines[key] = line
            bytes += line
        }
    }

    static let indent4 = Array("    ".utf8), arrow = Array(" → ".utf8), twoSpaces = Array("  ".utf8), openRules = Array("  [".utf8)
    static let commaSpace = Array(", ".utf8), closeRules = Array("]\n".utf8)

    /// A setting as a dictionary key: hashed on its cheap parts (the side, the app's stored hash, the line and
    /// the key's length), compared whole (byte for byte).
    struct SettingKey: Hashable {
        let setting: FleetSetting

        init(_ setting: FleetSetting) { self.setting = setting }

        func hash(into hasher: inout Hasher) {
            let line: Int = setting.line ?? -1
            let side: Int = setting.side == .sender ? 0 : 1
            hasher.combine(setting.app)
            hasher.combine(line &* 4 &+ side &+ setting.key.utf8.count &<< 32)
        }

        /// Byte for byte (two texts that are canonically equivalent but not the same bytes are written differently).
        static func == (lhs: SettingKey, rhs: SettingKey) -> Bool {
            let (a, b) = (lhs.setting, rhs.setting)
            return a.side == b.side && a.app == b.app && a.line == b.line && ExactText.same(a.key, b.key) && ExactText.same(a.value, b.value)
                && ExactText.same(a.policy, b.policy) && ExactText.same(a.via, b.via) && ExactText.same(a.file ?? "", b.file ?? "") && (a.file == nil) == (b.file == nil)
        }
    }
}
