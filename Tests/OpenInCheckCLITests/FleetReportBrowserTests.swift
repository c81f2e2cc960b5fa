#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import OpenInTestSupport

/// `fleet report` opened in a real browser: headless Chromium (Debian's `chromium`; `.ci/run` installs
/// it). Under CI=true a missing browser fails the test; elsewhere too: it never passes unchecked.
@Suite(.serialized) struct FleetReportBrowserTests {
    static var chromium: String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            for name in ["chromium", "chromium-browser"] {
                let path = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
        }
        return nil
    }

    /// Runs Chromium headless on `page` with `arguments`; its stdout and stderr.
    static func browse(_ page: URL, _ arguments: [String]) throws -> (stdout: String, stderr: String) {
        let binary = try #require(chromium, "chromium is not installed: apt-get install -y chromium (.ci/run does)")
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("openin-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions", "--disable-sync",
                             "--disable-background-networking", "--disable-component-update", "--user-data-dir=\(profile.path)",
                             "--enable-logging=stderr", "--v=0"] + arguments + [page.absoluteString]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        nonisolated(unsafe) var errorData = Data()
        let done = DispatchSemaphore(value: 0)
        Thread {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        done.wait()
        return (String(decoding: data, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    /// Writes the report of `arguments` to a temporary file.
    static func report(_ arguments: [String], name: String) throws -> URL {
        let run = try BuiltBinary.run(["fleet", "report"] + arguments)
        #expect(run.status == 0, "fleet report: \(run.stderr)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("openin-report-\(name)-\(ProcessInfo.processInfo.processIdentifier).html")
        try run.stdout.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// What a page must satisfy in the browser: no console message, nothing refused or fetched, its own script ran.
    static func checkPage(_ page: URL) throws -> String {
        let (dom, log) = try browse(page, ["--dump-dom"])
        let console = log.split(separator: "\n").filter { $0.contains("CONSOLE") || $0.contains("Uncaught") || $0.contains("Refused to") || $0.contains("net::ERR") }
        #expect(console.isEmpty, "browser console: \(console.joined(separator: "\n"))")
        // The page's own script ran (its hash is in the policy): it shows the device filter.
        #expect(dom.contains("<p id=\"filter\">"), "the inline script did not run under the page's Content-Security-Policy")
        return dom
    }

    /// `data-app` values of the SVG's outside nodes.
    static func outsideNodes(_ dom: String) -> Set<String> {
        var result: Set<String> = []
        for part in dom.components(separatedBy: "<g class=\"node outside\" data-app=\"").dropFirst() {
            if let end = part.firstIndex(of: "\"") { result.insert(String(part[..<end]).replacingOccurrences(of: "&amp;", with: "&")) }
        }
        return result
    }

    /// The outside apps reached from inside the zone, per `fleet paths --from all --to outside --format json`: a
    /// record whose `from` is itself reached as an outside app on its device starts outside, and is left out.
    static func reached(_ arguments: [String]) throws -> Set<String> {
        let run = try BuiltBinary.run(["fleet", "paths", "--from", "all", "--to", "outside", "--format", "json"] + arguments)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        var outsideOn: [String: Set<String>] = [:]
        for record in records {
            for path in record["paths"] as? [[String: Any]] ?? [] where path["outside"] as? Bool == true {
                outsideOn[record["device"] as? String ?? "", default: []].insert(path["to"] as? String ?? "")
            }
        }
        var result: Set<String> = []
        for record in records where !(outsideOn[record["device"] as? String ?? ""] ?? []).contains(record["from"] as? String ?? "") {
            for path in record["paths"] as? [[String: Any]] ?? [] where path["outside"] as? Bool == true { result.insert(path["to"] as? String ?? "") }
        }
        return result
    }

    /// The example fleets opened in the browser: acme under plain `swift test`, the Intune pilot too at soak size
    /// (`OPENIN_SOAK=1`, which `.ci/run` sets, or `CI=true`).
    static let examples: [(name: String, arguments: [String])] = [("acme", ["--fleet", "Examples/fleet/acme.json"])]
        + (Soak.isOn ? [("intune", ["--fleet", "Examples/intune/pilot", "--devices", "Examples/intune/devices.json"])] : [])

    @Test("acme and the Intune pilot: no console error, no request, an SVG node for every outside app reached, a screenshot that is not blank")
    func examples() throws {
        for (name, arguments) in Self.examples {
            let page = try Self.report(arguments, name: name)
            defer { try? FileManager.default.removeItem(at: page) }
            let dom = try Self.checkPage(page)
            let expected = try Self.reached(arguments)
            #expect(!expected.isEmpty, "\(name): the example has paths")
            #expect(Self.outsideNodes(dom) == expected, "\(name): SVG outside nodes")
            let shot = FileManager.default.temporaryDirectory.appendingPathComponent("openin-report-\(name)-\(ProcessInfo.processInfo.processIdentifier).png")
            defer { try? FileManager.default.removeItem(at: shot) }
            _ = try Self.browse(page, ["--hide-scrollbars", "--window-size=1200,900", "--screenshot=\(shot.path)"])
            let pixels = try PNGPixels(Array(try Data(contentsOf: shot)))
            #expect(pixels.width == 1200 && pixels.height == 900)
            #expect(pixels.distinctColors > 20, "\(name): the screenshot has \(pixels.distinctColors) colours")
            #expect(pixels.nonWhiteFraction > 0.02, "\(name): the screenshot is \(pixels.nonWhiteFraction * 100)% non-white")
        }
    }

    @Test("acme and the Intune pilot fit a 1200-pixel window: no horizontal scroll bar")
    func fitsTheWindow() throws {
        for (name, arguments) in Self.examples {
            let page = try Self.report(arguments, name: name)
            defer { try? FileManager.default.removeItem(at: page) }
            // A copy that measures itself: the page's own policy allows only its own script, so the copy leaves the policy out.
            var html = try String(contentsOf: page, encoding: .utf8)
            let policy = try #require(html.range(of: #"<meta http-equiv="Content-Security-Policy"[^>]*>"#, options: .regularExpression))
            html.removeSubrange(policy)
            html = html.replacingOccurrences(of: "</body>", with: #"<script>document.body.setAttribute("data-width", document.documentElement.scrollWidth + " " + document.documentElement.clientWidth);</script></body>"#)
            let probe = page.deletingLastPathComponent().appendingPathComponent("probe-\(name)-\(ProcessInfo.processInfo.processIdentifier).html")
            try html.write(to: probe, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: probe) }
            let (dom, _) = try Self.browse(probe, ["--window-size=1200,900", "--dump-dom"])
            let widths = try #require(dom.firstMatch(of: /data-width="(\d+) (\d+)"/), "\(name): the probe ran")
            #expect(Int(widths.1)! <= Int(widths.2)!, "\(name): the page is \(widths.1) px wide in a window of \(widths.2)")
        }
    }

    @Test("a fleet whose names are markup runs no script: the names show as text")
    func hostileNames() throws {
        let hostile = #"<script>document.title='pwned'</script><img src=x onerror=alert(1)>"#
        let fleet = """
            {"description": "\(hostile)",
             "global": {"authorizeAppsWithoutContainerPolicy": false, "openInPolicy": "authorized", "openFromPolicy": "authorized",
                        "pasteboardPolicy": "authorized", "printPolicy": "authorized", "dragAndDropPolicy": "all"},
             "containerPolicies": [{"name": "\(hostile)", "app": "com.acme.hr", "labels": ["\(hostile)"]}],
             "apps": [{"bundleID": "com.acme.hr", "appconnect": true}, {"bundleID": "com.evil.app", "appconnect": false}],
             "devices": {"\(hostile)": {"labels": ["\(hostile)"], "installed": ["com.acme.hr", "com.evil.app"], "secureServicesAvailable": true}}}
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("openin-hostile-\(ProcessInfo.processInfo.processIdentifier).json")
        try fleet.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let page = try Self.report(["--fleet", file.path, "--title", hostile], name: "hostile")
        defer { try? FileManager.default.removeItem(at: page) }
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.components(separatedBy: "<script").count - 1 == 2, "only the page's own two script elements")
        #expect(!html.contains("<img"))
        let dom = try Self.checkPage(page)
        #expect(!dom.contains("<title>pwned</title>"))
        #expect(dom.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;"), "the name shows as text")
        #expect(!dom.contains("<img"))
    }
}

/// The pixels of an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium's screenshots are), decompressed
/// with the system's zlib (`uncompress`, found with dlopen: no package dependency).
struct PNGPixels {
    let width: Int
    let height: Int
    let distinctColors: Int
    let nonWhiteFraction: Double

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(_ bytes: [UInt8]) throws {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Failure(description: "not a PNG") }
        var offset = 8
        var width = 0, height = 0, channels = 0
        var compressed: [UInt8] = []
        func be32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        while offset + 8 <= bytes.count {
            let length = be32(offset)
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let body = Array(bytes[(offset + 8)..<(offset + 8 + length)])
            switch type {
            case "IHDR":
                width = be32(offset + 8)
                height = be32(offset + 12)
                guard body[8] == 8, body[12] == 0, body[9] == 2 || body[9] == 6 else { throw Failure(description: "not 8-bit RGB(A) non-interlaced") }
                channels = body[9] == 6 ? 4 : 3
            case "IDAT": compressed += body
            default: break
            }
            offset += 12 + length
        }
        guard let zlib = dlopen("libz.so.1", RTLD_NOW) ?? dlopen("libz.dylib", RTLD_NOW), let symbol = dlsym(zlib, "uncompress") else {
            throw Failure(description: "zlib (libz.so.1) not found")
        }
        typealias Uncompress = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?, UnsafePointer<UInt8>?, UInt) -> Int32
        let uncompress = unsafeBitCast(symbol, to: Uncompress.self)
        let stride = width * channels
        var raw = [UInt8](repeating: 0, count: height * (stride + 1))
        var size = UInt(raw.count)
        let status = raw.withUnsafeMutableBufferPointer { out in compressed.withUnsafeBufferPointer { uncompress(out.baseAddress, &size, $0.baseAddress, UInt($0.count)) } }
        guard status == 0, Int(size) == raw.count else { throw Failure(description: "zlib: \(status)") }
        var previous = [UInt8](repeating: 0, count: stride)
        var colors: Set<UInt32> = []
        var nonWhite = 0
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            var line = Array(raw[(y * (stride + 1) + 1)..<((y + 1) * (stride + 1))])
            for x in 0..<stride {
                let a = x >= channels ? Int(line[x - channels]) : 0, b = Int(previous[x]), c = x >= channels ? Int(previous[x - channels]) : 0
                let predictor: Int
                switch filter {
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: predictor = 0
                }
                line[x] = UInt8(truncatingIfNeeded: Int(line[x]) + predictor)
            }
            for x in Swift.stride(from: 0, to: stride, by: channels) {
                let color = UInt32(line[x]) << 16 | UInt32(line[x + 1]) << 8 | UInt32(line[x + 2])
                colors.insert(color)
                if color != 0xFF_FFFF { nonWhite += 1 }
            }
            previous = line
        }
        self.width = width
        self.height = height
        distinctColors = colors.count
        nonWhiteFraction = Double(nonWhite) / Double(max(1, width * height))
    }
}
