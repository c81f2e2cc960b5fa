import Foundation
import Testing

/// The layers the manifest declares, and what each module's sources may name: a lower layer never
/// depends on a higher one, OpenInKit imports nothing of ours, and the fleet analysis names no vendor's
/// type (it reaches each vendor through its adapter). "How the package is built" states them.
@Suite struct LayersTests {
    static let root = PublicAPITests.packageRoot

    /// Each target of `Package.swift` and the targets it names as dependencies.
    static func targets() throws -> [String: [String]] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [String: [String]] = [:]
        for line in manifest.split(separator: "\n") where line.contains("arget(name: \"") {
            let fields = line.split(separator: "\"", omittingEmptySubsequences: false)
            guard fields.count > 1 else { continue }
            let name = String(fields[1])
            var dependencies: [String] = []
            if let open = line.range(of: "dependencies: [") {
                let list = line[open.upperBound...].prefix { $0 != "]" }
                dependencies = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
                    .filter { !$0.isEmpty }
            }
            targets[name] = dependencies
        }
        return targets
    }

    /// Every dependency of `name`, direct or not.
    static func closure(of name: String, in targets: [String: [String]]) -> Set<String> {
        var seen: Set<String> = [], stack = targets[name] ?? []
        while let next = stack.popLast() {
            if seen.insert(next).inserted { stack += targets[next] ?? [] }
        }
        return seen
    }

    /// The text of every Swift file under `Sources/<folder>`, by path.
    static func sources(_ folder: String) throws -> [(path: String, text: String)] {
        let directory = root.appendingPathComponent("Sources/\(folder)")
        let files = try #require(FileManager.default.enumerator(atPath: directory.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted()
        return try files.map { ("Sources/\(folder)/\($0)", try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test("the manifest's layers: OpenInKit depends on nothing, each layer only on those below it")
    func theManifestKeepsTheLayers() throws {
        let targets = try Self.targets()
        #expect(targets["OpenInKit"] == [], "OpenInKit: \(targets["OpenInKit"] ?? ["(missing)"])")
        let layers = ["OpenInKit", "OpenInPolicy", "OpenInReports", "OpenInCheckCLI"]
        for (index, layer) in layers.enumerated() {
            let below = Self.closure(of: layer, in: targets)
            for higher in layers[index...] {
                #expect(!below.contains(higher), "\(layer) depends on \(higher), a layer at or above it")
            }
            if index > 0 { #expect(below.contains(layers[index - 1]), "\(layer) does not build on \(layers[index - 1])") }
        }
        for runtime in ["AppConnectRuntime", "AppConnect", "AppConnectTesting"] {
            let below = Self.closure(of: runtime, in: targets)
            #expect(!below.contains("OpenInReports") && !below.contains("OpenInCheckCLI"), "\(runtime) depends on \(below.sorted())")
        }
    }

    @Test("OpenInKit imports no module of ours, and no module imports one above it")
    func importsFollowTheLayers() throws {
        let ours = ["OpenInKit", "OpenInPolicy", "OpenInReports", "OpenInCheckCLI", "AppConnectRuntime", "AppConnect", "AppConnectTesting"]
        let allowed: [String: Set<String>] = [
            "OpenInKit": [],
            "OpenInPolicy": ["OpenInKit"],
            "OpenInReports": ["OpenInKit", "OpenInPolicy"],
        ]
        for (module, imports) in allowed {
            for (path, text) in try Self.sources(module) {
                for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@_exported import ") || line.hasPrefix("@testable import ") {
                    let name = String(line.split(separator: " ").last ?? "")
                    #expect(!ours.contains(name) || imports.contains(name), "\(path) imports \(name)")
                }
            }
        }
    }

    @Test("the fleet analysis names no vendor's type: it asks each vendor's adapter")
    func theFleetAnalysisNamesNoVendor() throws {
        let vendorTypes = ["IntuneFleet", "IntuneDeviceIndex", "IntuneGraph", "IntunePolicy", "FleetDevice", "FleetGraph", "EffectivePolicy", "VendorFleet"]
        for (path, text) in try Self.sources("OpenInPolicy/Analysis/Fleet")
        where path.hasSuffix("FleetAnalysis.swift") || path.hasSuffix("FleetVendor.swift") || path.hasSuffix("FleetSearch.swift") {
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            for type in vendorTypes {
                let words = code.split { !($0.isLetter || $0.isNumber || $0 == "_") }
                #expect(!words.contains(Substring(type)), "\(path) names \(type)")
            }
        }
    }

    @Test("the command line holds no format writer: no SARIF version, no Mermaid or DOT syntax; and it stays under 4,000 lines")
    func theCommandLineWritesNoFormat() throws {
        let sources = try Self.sources("OpenInCheckCLI")
        var lines = 0
        for (path, text) in sources {
            lines += text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            for literal in ["2.1.0", "sarif-schema", "digraph", "```mermaid", "flowchart LR", "graph LR"] {
                #expect(!text.contains(literal), "\(path) holds \(literal): a format's writer belongs in OpenInReports")
            }
        }
        #expect(lines < 4_000, "the command line is \(lines) lines: its writers and logic belong in OpenInReports and OpenInPolicy")
    }
}
