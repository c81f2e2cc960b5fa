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
    /// Per node, the bytes of the hop into it in one of ``arenas`` (text or JSON), for the search ``search``: hops found
    /// in parts across the cores keep their part's buffer as an arena of its own (not copied into one), hops written one
    /// by one go into the last.
    private var arenas: [[UInt8]] = [[]]
    private var hopArena: [Int32] = []
    private var hopStart: [Int] = []
    private var hopEnd: [Int] = []
    private var stamp: [Int] = []
    private var search = 0
    private var chain: [Int] = []

    /// For a device whose hops a ``FleetHopFinder`` finds (text and JSON): the finder, and the bytes of each
    /// part of a hop made once per device: each request's, each sender part's, each receiver's Open From,
    /// each whitelist's template, each node's ID as a shell word inside a JSON string.
    private(set) var finder: (any FleetHopSource)?
    private var requestText: [[UInt8]] = [], requestJSON: [[UInt8]] = [], reproduceRequest: [[UInt8]] = []
    private var reproducePrefix: [UInt8] = [], shellWords: [[UInt8]] = []
    private var partText: [(before: [UInt8], after: [UInt8])?] = [], partJSON: [(before: [UInt8], after: [UInt8])?] = []
    private var receiverText: [[UInt8]?] = [], receiverJSON: [[UInt8]?] = []
    private var templateText: [(start: [UInt8], middle: [UInt8], file: [UInt8]?)] = [], templateJSON: [(start: [UInt8], file: [UInt8])] = []
    private var found: [FleetHopEntry] = []
    /// The device the finder is for.
    private var analyzed: AnalyzedDevice?

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
        finder = nil
        hopStart = Array(repeating: 0, count: nodes.count)
        hopEnd = hopStart
        hopArena = Array(repeating: 0, count: nodes.count)
        stamp = Array(repeating: -1, count: nodes.count)
    }

    /// Starts a search: the hops written for the one before are let go.
    mutating func startSearch() {
        search += 1
        // The first arena's room is kept for the next search's hops; the parts' are let go.
        var first = arenas.first ?? []
        arenas = []
        first.removeAll(keepingCapacity: true)
        arenas.append(first)
    }

    /// Appends the chain of hops into `node` (each hop's bytes made by `hop` once per search), with
    /// `separator` between two hops.
    mutating func appendChain(_ node: Int, tree: FleetTree, separator: UInt8? = nil, to bytes: inout [UInt8],
                              hop write: (inout PathsBytes, FleetHop, Int, inout [UInt8]) -> Void) {
        appendChain(node, tree: tree, separator: separator, to: &bytes) { fast, y, part in write(&fast, tree.hops[y]!, y, &part) }
    }

    /// The chain walk both writers share: the nodes from the source to `node`, each hop's bytes made by
    /// `write` (appending to the arena it is given) the first time a search meets it, then copied.
    private mutating func appendChain(_ node: Int, tree: FleetTree, separator: UInt8?, to bytes: inout [UInt8],
                                      writing write: (inout PathsBytes, Int, inout [UInt8]) -> Void) {
        chain.removeAll(keepingCapacity: true)
        var current = node
        while current >= 0, tree.predecessor(current) >= 0 {
            chain.append(current)
            current = tree.predecessor(current)
        }
        for (position, y) in chain.reversed().enumerated() {
            if stamp[y] != search {
                // The last arena is taken out while the hop is written into it, so that `write` may use the writer's tables.
                var arena = arenas.removeLast()
                (hopArena[y], hopStart[y]) = (Int32(arenas.count), arena.count)
                write(&self, y, &arena)
                hopEnd[y] = arena.count
                stamp[y] = search
                arenas.append(arena)
            }
            if position > 0, let separator { bytes.append(separator) }
            bytes.append(contentsOf: arenas[Int(hopArena[y])][hopStart[y]..<hopEnd[y]])
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

    /// Takes the hops from `finder` (`device`'s) from now on: the bytes of its parts are made as they are asked for.
    package mutating func use(_ finder: any FleetHopSource, device: AnalyzedDevice) {
        self.finder = finder
        analyzed = device
        requestText = []
        requestJSON = []
        reproduceRequest = []
        for position in 0..<finder.requestCount {
            let (channel, url, targeted) = finder.request(position)
            var text = Array(channel.rawValue.utf8), json: [UInt8] = [], reproduce = " --channel \(ShellQuoting.quoted(channel.rawValue))"
            PathsBytes.key("channel", 6, to: &json)
            JSONWriter.appendQuoted(channel.rawValue, to: &json)
            if let url {
                text += " \(DecisionText.escaped(url.rawValue))".utf8
                PathsBytes.key("url", 6, to: &json)
                JSONWriter.appendQuoted(url.rawValue, to: &json)
            }
            reproduce += targeted ? " --target " : url.map { " --url \(ShellQuoting.quoted($0.rawValue))" } ?? ""
            requestText.append(text)
            requestJSON.append(json)
            reproduceRequest.append(PathsBytes.inside(reproduce))
        }
        let words = ["openin-check", "fleet", "eval", "--fleet", device.analysis.file ?? "FLEET", "--device", device.name, "--from"]
        reproducePrefix = PathsBytes.inside(words.map(ShellQuoting.quoted).joined(separator: " ") + " ")
        shellWords = finder.ids.map { PathsBytes.inside(ShellQuoting.quoted($0.rawValue)) }
        partText = []
        partJSON = []
        receiverText = Array(repeating: nil, count: finder.nodes.count)
        receiverJSON = receiverText
        templateText = []
        templateJSON = []
    }

    /// `text` as a JSON string writes it, without the quotes.
    package static func inside(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONWriter.appendQuoted(text, to: &bytes)
        return Array(bytes.dropFirst().dropLast())
    }

    /// Appends the chain of hops into `node`, each found by the finder (``useFinder(_:reach:)``) and written once per search.
    mutating func appendChain(_ node: Int, tree: FleetTree, json: Bool, to bytes: inout [UInt8]) {
        appendChain(node, tree: tree, separator: json ? UInt8(ascii: ",") : nil, to: &bytes) { fast, y, arena in
            fast.appendHop(into: y, tree: tree, json: json, to: &arena)
        }
    }

    /// Appends the hop into `y` (from its predecessor in `tree`), found by the finder.
    private mutating func appendHop(into y: Int, tree: FleetTree, json: Bool, to arena: inout [UInt8]) {
        let x = tree.predecessor(y)
        if let shape = finder!.shape(from: x, to: y) {
            if json { appendShapeJSON(shape, to: &arena) } else { appendShapeText(shape, to: &arena) }
        } else {
            // A hop of a kind the finder does not know: decided whole (the graph's decisions cannot throw).
            guard let hop = try? finder!.hop(from: x, to: y) else {
                preconditionFailure("the search found an edge \(tree.nodes[x]) → \(tree.nodes[y]) that no request makes")
            }
            if json {
                PathsWriter.appendJSON(hop, device: analyzed!, level: 5, to: &arena)
            } else {
                appendText(hop, into: y, from: x, to: &arena)
            }
        }
    }

    /// Writes the hop into each of `nodes` (each reached from a predecessor, none written yet in this search) into
    /// the arena, found by the finder, in parts across the cores: each part on its own copy of these tables and of
    /// the finder (the memos a part needs are made in it), its bytes joined into the arena in order. A hop's bytes
    /// depend on the hop alone, so they are what ``appendChain(_:tree:json:to:)`` writes when it meets the hop.
    /// Memory: the hops' bytes, held once (each part's let go as it is joined), and a copy of the memos per part.
    mutating func writeHops(_ nodes: [Int], tree: FleetTree, json: Bool, minimum: Int) {
        let start = self
        var parts = Parallel.map(nodes.count, minimum: minimum) { range -> [(bytes: [UInt8], ends: [Int])] in
            var part = start
            var bytes: [UInt8] = [], ends: [Int] = []
            ends.reserveCapacity(range.count)
            for index in range {
                part.appendHop(into: nodes[index], tree: tree, json: json, to: &bytes)
                ends.append(bytes.count)
            }
            return [(bytes, ends)]
        }
        // Each part's bytes kept as an arena of its own, in order: not copied into one (which held them twice).
        var index = 0
        for k in parts.indices {
            let at = Int32(arenas.count)
            arenas.append(parts[k].bytes)
            parts[k].bytes = []
            var previous = 0
            for end in parts[k].ends {
                let y = nodes[index]
                (hopArena[y], hopStart[y], hopEnd[y], stamp[y]) = (at, previous, end, search)
                previous = end
                index += 1
            }
        }
    }

    /// One hop's lines of the text block, from its shape: what ``appendText(_:into:from:to:)`` writes for the same hop.
    private mutating func appendShapeText(_ shape: FleetHopShape, to bytes: inout [UInt8]) {
        let (x, y) = (Int(shape.from), Int(shape.to))
        bytes += PathsBytes.indent4
        bytes += names[x]
        bytes += PathsBytes.arrow
        bytes += names[y]
        bytes += PathsBytes.twoSpaces
        bytes += requestText[Int(shape.request)]
        bytes += PathsBytes.openRules
        bytes += shape.senderRule.rawValue.utf8
        if let receiver = shape.receiverRule {
            bytes += PathsBytes.commaSpace
            bytes += receiver.rawValue.utf8
        }
        bytes += PathsBytes.closeRules
        let part = senderPartText(Int(shape.senderPart))
        bytes += part.before
        appendEntries(shape, side: .sender, json: false, to: &bytes)
        bytes += part.after
        if shape.receiverNode >= 0 {
            let node = Int(shape.receiverNode)
            if receiverText[node] == nil { receiverText[node] = PathsBytes.lines(finder!.receiverBase(node)) }
            bytes += receiverText[node]!
            appendEntries(shape, side: .receiver, json: false, to: &bytes)
        }
    }

    /// One hop's JSON object at level 5, from its shape: what ``PathsWriter/appendJSON(_:device:level:to:)`` writes for the same hop.
    private mutating func appendShapeJSON(_ shape: FleetHopShape, to bytes: inout [UInt8]) {
        let (x, y, request) = (Int(shape.from), Int(shape.to), Int(shape.request))
        JSONWriter.newline(&bytes, pretty: true, level: 5)
        bytes.append(UInt8(ascii: "{"))
        PathsBytes.key("from", 6, first: true, to: &bytes)
        bytes += quoted[x]
        PathsBytes.key("to", 6, to: &bytes)
        bytes += quoted[y]
        bytes += requestJSON[request]
        PathsBytes.key("rules", 6, to: &bytes)
        bytes.append(UInt8(ascii: "["))
        JSONWriter.newline(&bytes, pretty: true, level: 7)
        JSONWriter.appendQuoted(shape.senderRule.rawValue, to: &bytes)
        if let receiver = shape.receiverRule {
            bytes.append(UInt8(ascii: ","))
            JSONWriter.newline(&bytes, pretty: true, level: 7)
            JSONWriter.appendQuoted(receiver.rawValue, to: &bytes)
        }
        JSONWriter.newline(&bytes, pretty: true, level: 6)
        bytes.append(UInt8(ascii: "]"))
        PathsBytes.key("settings", 6, to: &bytes)
        bytes.append(UInt8(ascii: "["))
        let start = bytes.count
        let part = senderPartJSON(Int(shape.senderPart))
        PathsBytes.group(part.before, to: &bytes, start: start)
        appendEntries(shape, side: .sender, json: true, to: &bytes, start: start)
        PathsBytes.group(part.after, to: &bytes, start: start)
        if shape.receiverNode >= 0 {
            let node = Int(shape.receiverNode)
            if receiverJSON[node] == nil { receiverJSON[node] = PathsBytes.objects(finder!.receiverBase(node)) }
            PathsBytes.group(receiverJSON[node]!, to: &bytes, start: start)
            appendEntries(shape, side: .receiver, json: true, to: &bytes, start: start)
        }
        if bytes.count > start { JSONWriter.newline(&bytes, pretty: true, level: 6) }
        bytes.append(UInt8(ascii: "]"))
        PathsBytes.key("reproduce", 6, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        bytes += reproducePrefix
        bytes += shellWords[x]
        bytes += reproduceRequest[request]
        if request < finder!.targetedCount { bytes += shellWords[y] }
        bytes.append(UInt8(ascii: "\""))
        JSONWriter.newline(&bytes, pretty: true, level: 5)
        bytes.append(UInt8(ascii: "}"))
    }

    /// Appends a group of settings' objects (each after a new line at level 7) to the settings array begun at `start`.
    private static func group(_ objects: [UInt8], to bytes: inout [UInt8], start: Int) {
        guard !objects.isEmpty else { return }
        if bytes.count > start { bytes.append(UInt8(ascii: ",")) }
        bytes += objects
    }

    /// The whitelist entries of `side` among the hop's settings.
    private mutating func appendEntries(_ shape: FleetHopShape, side: FleetSetting.Side, json: Bool, to bytes: inout [UInt8], start: Int = 0) {
        var found = self.found
        found.removeAll(keepingCapacity: true)
        finder!.entries(shape, side: side, into: &found)
        for entry in found {
            while templateText.count <= entry.template {
                let template = finder!.template(templateText.count)
                var start: [UInt8] = [], middle: [UInt8] = []
                start += "      \(template.side.rawValue) \(DecisionText.escaped(template.app.rawValue)): ".utf8
                middle += "  (\(DecisionText.escaped(template.policy)), \(DecisionText.escaped(template.via))".utf8
                templateText.append((start, middle, template.file.map { Array(", \(DecisionText.escaped($0))".utf8) }))
                var object: [UInt8] = Array("{\"side\": ".utf8)
                JSONWriter.appendQuoted(template.side.rawValue, to: &object)
                for (name, value) in [("app", template.app.rawValue), ("policy", template.policy), ("via", template.via)] {
                    object += ", \"\(name)\": ".utf8
                    JSONWriter.appendQuoted(value, to: &object)
                }
                object += ", \"key\": ".utf8
                var file: [UInt8] = Array(", \"file\": ".utf8)
                if let path = template.file { JSONWriter.appendQuoted(path, to: &file) } else { file += "null".utf8 }
                file += ", \"line\": ".utf8
                templateJSON.append((object, file))
            }
            if json {
                let template = templateJSON[entry.template]
                if bytes.count > start { bytes.append(UInt8(ascii: ",")) }
                JSONWriter.newline(&bytes, pretty: true, level: 7)
                bytes += template.start
                JSONWriter.appendQuoted(entry.key, to: &bytes)
                bytes += PathsBytes.valueKey
                JSONWriter.appendQuoted(entry.value, to: &bytes)
                bytes += template.file
                if let line = entry.line { bytes += String(line).utf8 } else { bytes += "null".utf8 }
                bytes.append(UInt8(ascii: "}"))
            } else {
                let template = templateText[entry.template]
                bytes += template.start
                bytes += DecisionText.escaped(entry.key).utf8
                bytes += PathsBytes.equals
                bytes += DecisionText.escaped(entry.value).utf8
                bytes += template.middle
                if let file = template.file {
                    bytes += file
                    if let line = entry.line {
                        bytes.append(UInt8(ascii: ":"))
                        bytes += String(line).utf8
                    }
                } else if let line = entry.line {
                    bytes += ", line \(line)".utf8
                }
                bytes += PathsBytes.closeLine
            }
        }
        self.found = found
    }

    private mutating func senderPartText(_ id: Int) -> (before: [UInt8], after: [UInt8]) {
        while partText.count <= id { partText.append(nil) }
        if let known = partText[id] { return known }
        let (before, after) = finder!.senderPart(id)
        let made = (PathsBytes.lines(before), PathsBytes.lines(after))
        partText[id] = made
        return made
    }

    private mutating func senderPartJSON(_ id: Int) -> (before: [UInt8], after: [UInt8]) {
        while partJSON.count <= id { partJSON.append(nil) }
        if let known = partJSON[id] { return known }
        let (before, after) = finder!.senderPart(id)
        let made = (PathsBytes.objects(before), PathsBytes.objects(after))
        partJSON[id] = made
        return made
    }

    /// Settings' text lines, as ``PathsWriter/appendSetting(_:to:)`` writes them.
    static func lines(_ settings: [FleetSetting]) -> [UInt8] {
        var text = ""
        for setting in settings { PathsWriter.appendSetting(setting, to: &text) }
        return Array(text.utf8)
    }

    /// Settings' JSON objects at level 7, each after a new line, separated by commas, as ``PathsWriter/appendJSON(_:device:level:to:)`` writes them.
    package static func objects(_ settings: [FleetSetting]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, setting) in settings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONWriter.newline(&bytes, pretty: true, level: 7)
            PathsWriter.appendSettingJSON(setting, to: &bytes)
        }
        return bytes
    }

    /// A key of a JSON object at `level` (after a comma unless it is the first).
    package static func key(_ name: String, _ level: Int, first: Bool = false, to bytes: inout [UInt8]) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        JSONWriter.newline(&bytes, pretty: true, level: level)
        bytes.append(UInt8(ascii: "\""))
        bytes += name.utf8
        bytes += "\": ".utf8
    }

    static let valueKey = Array(", \"value\": ".utf8), equals = Array(" = ".utf8), closeLine = Array(")\n".utf8)

    static let indent4 = Array("    ".utf8), arrow = Array(" → ".utf8), twoSpaces = Array("  ".utf8), openRules = Array("  [".utf8)
    static let commaSpace = Array(", ".utf8), closeRules = Array("]\n".utf8)

    /// A setting as a dictionary key: hashed on its cheap parts (the side, the app's stored hash, the line and
    /// the key's length), compared whole (byte for byte).
    struct SettingKey: Hashable {
        package let setting: FleetSetting

        package init(_ setting: FleetSetting) { self.setting = setting }

        package func hash(into hasher: inout Hasher) {
            let line: Int = setting.line ?? -1
            let side: Int = setting.side == .sender ? 0 : 1
            hasher.combine(setting.app)
            hasher.combine(line &* 4 &+ side &+ setting.key.utf8.count &<< 32)
        }

        /// Byte for byte (two texts that are canonically equivalent but not the same bytes are written differently).
        package static func == (lhs: SettingKey, rhs: SettingKey) -> Bool {
            let (a, b) = (lhs.setting, rhs.setting)
            return a.side == b.side && a.app == b.app && a.line == b.line && ExactText.same(a.key, b.key) && ExactText.same(a.value, b.value)
                && ExactText.same(a.policy, b.policy) && ExactText.same(a.via, b.via) && ExactText.same(a.file ?? "", b.file ?? "") && (a.file == nil) == (b.file == nil)
        }
    }
}
