import OpenInPolicy

/// The seeded input `bench` measures: one WHITELIST policy with a 1,000-entry
/// whitelist, and request lines over every channel.
///
/// Everything comes from the seed: the whitelist, the device's scheme
/// handlers, and each line (``Lines``), so two runs with the same seed
/// measure the same bytes. The mix is meant to look like an audit log: every
/// channel equally often; listed, unlisted and native-Mail targets; `mailto:`,
/// web, handled, unhandled and own-scheme URLs; string, number and missing
/// ids. It reaches every outcome: allow, redirect (Email+ is installed and
/// native Mail is not listed), substitute-dummy-file and deny.
package struct BenchCorpus: Sendable {
    /// The seed `bench` uses unless told otherwise.
    package static let defaultSeed: UInt64 = 2024
    /// The whitelist's size the targets name.
    package static let defaultWhitelistSize = 1_000
    /// The app's own URL scheme (opening it is not Open In).
    static let appScheme = "benchapp"

    /// The seed everything was made from.
    package let seed: UInt64
    /// The whitelist's bundle IDs, in the order the policy file lists them.
    package let whitelist: [String]
    /// Custom URL schemes the device knows and the app that handles each; every other one is listed.
    let schemeHandlers: [(scheme: String, handler: String)]

    /// The eight Open In channels the corpus draws from, in their original order, so the corpus
    /// (and so the figures) stay those of earlier builds; the bench policy sets no control beyond Open In.
    static let openInChannels: [Channel] = [.documentInteraction, .quickLook, .appExtension, .activityView,
                                            .openURL, .mailLink, .mailCompose, .dragAndDrop]

    private static let vendors = ["acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "wonka",
                                  "tyrell", "cyberdyne", "soylent", "aperture", "vandelay", "dunder", "oscorp", "contoso"]
    private static let apps = ["docs", "viewer", "notes", "drive", "reader", "scan", "sign", "chat",
                               "sheets", "slides", "files", "pdf", "photos", "vault", "share", "sync"]
    private static let words = ["report", "minutes", "budget", "contract", "invoice", "roadmap", "scan", "slides", "notes", "photo"]
    private static let extensions = ["pdf", "docx", "xlsx", "pptx", "png", "txt", "key", "zip"]

    /// Makes the corpus's policy from `seed`.
    /// - Parameter whitelistSize: how many bundle IDs the whitelist has.
    package init(seed: UInt64 = defaultSeed, whitelistSize: Int = defaultWhitelistSize) {
        self.seed = seed
        var random = SeededGenerator(seed: seed)
        whitelist = (0..<whitelistSize).map { index in
            "com.\(random.pick(Self.vendors)).\(random.pick(Self.apps))\(index)"
        }
        var handlers: [(String, String)] = []
        for (index, app) in Self.apps.enumerated() {
            let listed = index % 2 == 0 && !whitelist.isEmpty
            let handler = listed ? random.pick(whitelist) : "net.\(random.pick(Self.vendors)).\(app)"
            handlers.append(("\(app)x", handler))
        }
        schemeHandlers = handlers
    }

    /// The policy as a policy file (the README's JSON policy file format), one key per line and one whitelist entry per line.
    package var policyFile: String {
        var text = "{\n  \"description\": \"openin-check bench corpus, seed \(seed)\",\n"
        text += "  \"openInPolicy\": \"whitelist\",\n  \"openInWhitelist\": [\n"
        text += whitelist.map { "    \"\($0)\"" }.joined(separator: ",\n")
        text += "\n  ],\n  \"device\": {\n    \"emailPlusInstalled\": true,\n    \"schemeHandlers\": {\n"
        text += schemeHandlers.map { "      \"\($0.scheme)\": \"\($0.handler)\"" }.joined(separator: ",\n")
        text += "\n    }\n  },\n  \"app\": {\"urlSchemes\": [\"\(Self.appScheme)\"]}\n}\n"
        return text
    }

    /// The same policy, built in code.
    package func policy() throws(InputError) -> Policy {
        var device = DeviceFacts()
        device.emailPlusInstalled = true
        for (scheme, handler) in schemeHandlers { try device.setHandler(try BundleID(handler), for: scheme) }
        return Policy(status: .whitelist, whitelist: try Whitelist(parsing: whitelist), device: device,
                      app: try AppFacts(urlSchemes: [Self.appScheme]))
    }

    /// How often lines depart from the plain form.
    package struct Mix: Sendable, Equatable {
        /// Lines per million that are valid requests written unusually: spaces, other key
        /// orders, escapes, non-ASCII names, number ids in other forms, a carriage return.
        let unusualPerMillion: Int
        /// Lines per million that are not valid requests (each gets an error record).
        let invalidPerMillion: Int
        /// Whether every line, valid or not, is one JSON object (so `jq -c '{id}'` reads the whole file).
        let objectsOnly: Bool

        /// What `bench` measures: plain lines, with one in a thousand unusual and one in a thousand
        /// invalid, every line a JSON object.
        package static let benchmark = Mix(unusualPerMillion: 1_000, invalidPerMillion: 1_000, objectsOnly: true)
        /// Many unusual and invalid lines, some not JSON at all, for tests that compare two ways of reading a stream.
        package static let varied = Mix(unusualPerMillion: 150_000, invalidPerMillion: 150_000, objectsOnly: false)
        /// Only plain, valid lines.
        package static let plain = Mix(unusualPerMillion: 0, invalidPerMillion: 0, objectsOnly: true)
    }

    /// `count` request lines (without line breaks), made from the seed; the same corpus and mix give the same lines.
    package func lines(count: Int, mix: Mix = .benchmark) -> Lines {
        Lines(corpus: self, remaining: count, mix: mix)
    }

    /// Requests for the in-process benchmark: the valid plain lines' requests, built once.
    package func requests(count: Int) throws(InputError) -> [ShareRequest] {
        var requests: [ShareRequest] = []
        requests.reserveCapacity(count)
        var lines = lines(count: count, mix: .plain)
        while let line = lines.next() {
            guard let fields = line.fields else { continue }
            requests.append(try ShareRequest(channel: fields.channel, target: fields.target, url: fields.url, document: fields.document))
        }
        return requests
    }

    /// One generated line.
    package struct Line: Sendable, Equatable {
        /// The request's fields, for a plain line; `nil` for an unusual or invalid one.
        package struct Fields: Sendable, Equatable {
            package let channel: String
            package let target: String?
            package let url: String?
            package let document: String?
        }

        /// The JSON text, without a line break.
        package let text: String
        /// The fields, when the line is plain.
        package let fields: Fields?
    }

    /// The lines of ``lines(count:mix:)``, one at a time: a long corpus is never held whole.
    package struct Lines: IteratorProtocol, Sequence {
        fileprivate let corpus: BenchCorpus
        fileprivate var remaining: Int
        fileprivate let mix: Mix
        private var random: SeededGenerator
        private var number = 0

        fileprivate init(corpus: BenchCorpus, remaining: Int, mix: Mix) {
            self.corpus = corpus
            self.remaining = remaining
            self.mix = mix
            // The lines have their own stream, so the policy's size does not shift them.
            random = SeededGenerator(seed: corpus.seed ^ 0x5EED_0F_11E5)
        }

        package mutating func next() -> Line? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            number += 1
            let roll = random.below(1_000_000)
            if roll < mix.invalidPerMillion { return Line(text: invalidLine(), fields: nil) }
            let fields = plainFields()
            if roll < mix.invalidPerMillion + mix.unusualPerMillion { return Line(text: unusualLine(fields), fields: nil) }
            return Line(text: plainText(fields), fields: fields)
        }

        // MARK: Plain lines

        private mutating func plainFields() -> Line.Fields {
            let channel = random.pick(BenchCorpus.openInChannels)
            var target: String? = nil, url: String? = nil, document: String? = nil
            switch channel {
            case .documentInteraction, .quickLook, .appExtension:
                target = someTarget()
                if random.chance(percent: 70) { document = someDocument() }
            case .dragAndDrop:
                target = someTarget()
            case .activityView:
                if random.chance(percent: 70) { target = someTarget() }
                if random.chance(percent: 30) { document = someDocument() }
            case .openURL:
                url = someURL()
            case .mailLink:
                if random.chance(percent: 80) { url = someMailto() }
            case .mailCompose, .openFrom, .copy, .print, .paste, .keyboard:
                break
            }
            return Line.Fields(channel: channel.rawValue, target: target, url: url, document: document)
        }

        private mutating func someTarget() -> String {
            let roll = random.below(100)
            if roll < 55, !corpus.whitelist.isEmpty { return random.pick(corpus.whitelist) }
            if roll < 90 { return "org.\(random.pick(BenchCorpus.vendors)).\(random.pick(BenchCorpus.apps))\(random.below(5_000))" }
            return random.chance(percent: 50) ? BundleID.mobileMail.rawValue : BundleID.mailActivity.rawValue
        }

        private mutating func someDocument() -> String {
            "\(random.pick(BenchCorpus.words))-\(random.below(1_000)).\(random.pick(BenchCorpus.extensions))"
        }

        private mutating func someMailto() -> String {
            "mailto:user\(random.below(10_000))@example.com"
        }

        private mutating func someURL() -> String {
            let roll = random.below(100)
            if roll < 30 { return someMailto() }
            if roll < 50 { return "https://example.com/d/\(random.below(100_000))" }
            if roll < 85 { return "\(random.pick(corpus.schemeHandlers).scheme)://open?item=\(random.below(100_000))" }
            if roll < 95 { return "zz\(random.pick(BenchCorpus.apps))://open/\(random.below(1_000))" }
            return "\(BenchCorpus.appScheme)://note/\(random.below(1_000))"
        }

        private mutating func someID() -> String? {
            let roll = random.below(100)
            if roll < 50 { return "\"req-\(number)\"" }
            if roll < 90 { return "\(number)" }
            return nil
        }

        private mutating func plainText(_ fields: Line.Fields) -> String {
            var members: [String] = []
            if let id = someID() { members.append("\"id\":\(id)") }
            members.append("\"channel\":\"\(fields.channel)\"")
            if let target = fields.target { members.append("\"target\":\"\(target)\"") }
            if let url = fields.url { members.append("\"url\":\"\(url)\"") }
            if let document = fields.document { members.append("\"document\":\"\(document)\"") }
            return "{" + members.joined(separator: ",") + "}"
        }

        // MARK: Unusual and invalid lines

        /// A valid request written the way other producers might write it.
        private mutating func unusualLine(_ fields: Line.Fields) -> String {
            var members: [(key: String, value: String)] = []
            let ids = ["\"req-\(number)\"", "\(number)", "-0", "1.5e3", "12.0", "\"caf\u{E9}-\(number)\"", "\"tab\\t\(number)\"",
                       "\"\u{7F}\(number)\"", "\"line\u{2028}sep\"", "\"q\\\"uote\"", "\"\\u00e9t\u{E9}\""]
            if random.chance(percent: 80) { members.append(("id", random.pick(ids))) }
            members.append(("channel", "\"\(fields.channel)\""))
            if let target = fields.target { members.append(("target", "\"\(target)\"")) }
            if let url = fields.url {
                let escaped = url.replacingSlashes(with: random.chance(percent: 50) ? "\\/" : "/")
                members.append(("url", "\"\(escaped)\""))
            }
            let documents = ["R\u{E9}sum\u{E9}-\(number).pdf", "a\\\"b.pdf", "\u{65E5}\u{672C}.docx", "plain.pdf", "tab\\tname.txt"]
            if fields.document != nil || random.chance(percent: 30) {
                if fields.channel != Channel.dragAndDrop.rawValue || random.chance(percent: 50) {
                    members.append(("document", "\"\(random.pick(documents))\""))
                }
            }
            if random.chance(percent: 50) { members.reverse() }
            let separators = [(":", ","), (": ", ", "), (" : ", " , "), (":\t", ",\t")]
            let (colon, comma) = random.pick(separators)
            let body = members.map { "\"\($0.key)\"\(colon)\($0.value)" }.joined(separator: comma)
            var forms = ["{\(body)}", "{ \(body) }", "  {\(body)}  ", "{\(body)}\r"]
            if !mix.objectsOnly { forms.append("\u{FEFF}{\(body)}") }
            return random.pick(forms)
        }

        /// A line that is not a valid request: each kind gets a different error record.
        private mutating func invalidLine() -> String {
            let id = "\"bad-\(number)\""
            var lines = [
                "{\"id\":\(id),\"channel\":\"open-in\",\"url\":\"mailto:a@example.com\"}",
                "{\"id\":\(id),\"channel\":\"quick-look\",\"target\":\"com..broken\"}",
                "{\"id\":\(id),\"channel\":\"quick-look\"}",
                "{\"id\":\(id),\"channel\":\"open-url\",\"url\":\"not a url\"}",
                "{\"id\":\(id),\"channel\":\"open-url\"}",
                "{\"id\":\(id),\"channel\":\"mail-link\",\"url\":\"https://example.com\"}",
                "{\"id\":\(id),\"channel\":\"mail-compose\",\"target\":null}",
                "{\"id\":\(id),\"channel\":\"mail-compose\",\"target\":\"com.example.app\"}",
                "{\"id\":\(id),\"channel\":\"mail-compose\",\"extra\":1}",
                "{\"id\":true,\"channel\":\"mail-compose\"}",
                "{\"id\":\(id),\"channel\":\"drag-and-drop\",\"target\":\"com.example.\u{E9}\"}",
                "{\"id\":\(id),\"channel\":3}",
                "{\"id\":\(id),\"channel\":\"Open-URL\",\"url\":\"mailto:a@example.com\"}",
                "{\"id\":\(id)}",
            ]
            if !mix.objectsOnly {
                lines += [
                    "{\"id\":\(id),\"channel\":\"open-url\",",
                    "",
                    "   ",
                    "[1,2]",
                    "\"just a string\"",
                    "{\"id\":\(id),\"id\":2,\"channel\":\"mail-compose\"}",
                    "{\"id\":\(id),\"channel\":\"mail-compose\"} {}",
                    "{\"id\":01,\"channel\":\"mail-compose\"}",
                    "{\"id\":\(id),\"channel\":\"mail-compose\",}",
                ]
            }
            return random.pick(lines)
        }
    }
}

private extension String {
    /// The string with every `/` written as `replacement`.
    func replacingSlashes(with replacement: String) -> String {
        split(separator: "/", omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
