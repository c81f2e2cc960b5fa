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

    /// Each library module and the modules of ours it may depend on and import: the layers of
    /// "How the package is built", bottom up. AppConnect and Intune sit side by side: neither knows the other.
    static let layers: [(module: String, allowed: Set<String>)] = [
        ("OpenInKit", []),
        ("OpenInCore", ["OpenInKit"]),
        ("OpenInFleet", ["OpenInKit", "OpenInCore"]),
        ("OpenInAppConnect", ["OpenInKit", "OpenInCore", "OpenInFleet"]),
        ("OpenInIntune", ["OpenInKit", "OpenInCore", "OpenInFleet"]),
        ("OpenInVendors", ["OpenInKit", "OpenInCore", "OpenInFleet", "OpenInAppConnect", "OpenInIntune"]),
        ("OpenInPolicy", ["OpenInKit", "OpenInCore", "OpenInFleet", "OpenInAppConnect", "OpenInIntune", "OpenInVendors"]),
        ("OpenInReports", ["OpenInKit", "OpenInCore", "OpenInFleet", "OpenInAppConnect", "OpenInIntune", "OpenInVendors", "OpenInPolicy"]),
    ]

    @Test("the manifest's layers: each module depends only on the modules below it, AppConnect and Intune not on each other")
    func theManifestKeepsTheLayers() throws {
        let targets = try Self.targets()
        let ours = Set(Self.layers.map(\.module) + ["OpenInCheckCLI"])
        for (module, allowed) in Self.layers {
            let dependencies = Set(try #require(targets[module], "\(module) is not in the manifest")).intersection(ours)
            #expect(dependencies.isSubset(of: allowed), "\(module) depends on \(dependencies.subtracting(allowed).sorted())")
            let below = Self.closure(of: module, in: targets).intersection(ours)
            #expect(below.isSubset(of: allowed), "\(module) reaches \(below.subtracting(allowed).sorted())")
        }
        #expect(targets["OpenInKit"] == [], "OpenInKit: \(targets["OpenInKit"] ?? ["(missing)"])")
        #expect(Self.closure(of: "OpenInCheckCLI", in: targets).isSuperset(of: ["OpenInPolicy", "OpenInReports"]))
        for runtime in ["AppConnectRuntime", "AppConnect", "AppConnectTesting"] {
            let below = Self.closure(of: runtime, in: targets)
            #expect(!below.contains("OpenInReports") && !below.contains("OpenInCheckCLI"), "\(runtime) depends on \(below.sorted())")
        }
    }

    @Test("no module imports one of ours that is not below it")
    func importsFollowTheLayers() throws {
        let ours = Set(Self.layers.map(\.module) + ["OpenInCheckCLI", "AppConnectRuntime", "AppConnect", "AppConnectTesting"])
        for (module, allowed) in Self.layers {
            let files = try Self.sources(module)
            #expect(!files.isEmpty, "Sources/\(module) holds no Swift file")
            for (path, text) in files {
                for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@_exported import ") || line.hasPrefix("@testable import ") {
                    let name = String(line.split(separator: " ").last ?? "")
                    #expect(!ours.contains(name) || allowed.contains(name), "\(path) imports \(name)")
                }
            }
        }
    }

    /// The names of the top-level types, protocols and type aliases declared in `module`'s sources.
    static func declaredTypes(_ module: String) throws -> Set<Substring> {
        let modifiers: Set<Substring> = ["public", "package", "internal", "private", "fileprivate", "final", "indirect"]
        let kinds: Set<Substring> = ["struct", "enum", "class", "protocol", "typealias", "actor"]
        var names: Set<Substring> = []
        for (_, text) in try sources(module) {
            for line in text.split(separator: "\n") where line.first?.isLetter == true {
                let words = line.split(separator: " ").drop { modifiers.contains($0) }
                guard let kind = words.first, kinds.contains(kind), let name = words.dropFirst().first else { continue }
                names.insert(name.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            }
        }
        return names
    }

    /// `code` with the text of its string literals left out (a message may name a vendor; the code may not).
    static func outsideStrings(_ code: String) -> String {
        var kept = "", inString = false, escaped = false
        for character in code {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else {
                kept.append(character)
            }
        }
        return kept
    }

    @Test("the fleet analysis and the vocabulary name no vendor's type: they reach each vendor through its adapter")
    func theFleetAnalysisNamesNoVendor() throws {
        var vendorTypes: Set<Substring> = []
        for vendor in ["OpenInAppConnect", "OpenInIntune", "OpenInVendors"] { vendorTypes.formUnion(try Self.declaredTypes(vendor)) }
        #expect(vendorTypes.contains("FleetDevice") && vendorTypes.contains("IntuneFleet") && vendorTypes.contains("CrossVendorDiff"))
        for module in ["OpenInCore", "OpenInFleet"] {
            for (path, text) in try Self.sources(module) {
                let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
                let words = Set(Self.outsideStrings(code).split { !($0.isLetter || $0.isNumber || $0 == "_") })
                let named = words.intersection(vendorTypes)
                #expect(named.isEmpty, "\(path) names \(named.sorted())")
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
