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

    @Test("the command line branches on no vendor: which vendor a file holds, and what follows from it, is asked of OpenInVendors")
    func theCommandLineBranchesOnNoVendor() throws {
        // A vendor's value compared or switched on, or a vendor's own fleet type: the signs of a branch by vendor.
        let signs = ["vendor ==", "vendor !=", "case .intune", "case .appConnect", "case .appconnect", ".appConnect", "FleetVendor", "IntuneFleet", "holdsIntunePolicies",
                     "isAppConnectFleetFile", "FleetJSON", "IntuneGraphJSON", "toIntune", "toAppConnect"]
        for (path, text) in try Self.sources("OpenInCheckCLI") {
            let code = Self.outsideStrings(text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n"))
            for sign in signs {
                // The sign as a whole word: `.appConnectApps` (a policy's list) is not `.appConnect`.
                var rest = code[...], found = false
                while let range = rest.range(of: sign) {
                    if !(code[range.upperBound...].first.map { $0.isLetter || $0.isNumber } ?? false) { found = true; break }
                    rest = code[range.upperBound...]
                }
                #expect(!found, "\(path) holds \(sign): what differs by vendor belongs in OpenInVendors")
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

/// The command line reaches no module's `package` API: what it uses of the library is public (an embedder can
/// use it too), or is done below it. `package` is for sibling modules only.
@Suite struct CommandLinePackageAccessTests {
    /// The library modules whose `package` declarations the command line must not name.
    static let libraries = ["OpenInKit", "OpenInCore", "OpenInFleet", "OpenInAppConnect", "OpenInIntune", "OpenInVendors", "OpenInReports"]

    /// The `package` declarations the command line still reaches: none. What it uses of the library is public, or done
    /// below it. The list stays, empty: a name the command line uses is reported, and `.ci/package-access.sh` (which
    /// type-checks the command line against the built modules under another package's name) catches what this scan
    /// cannot see, a `package` member or initializer of a public type.
    static let stillReached: Set<String> = []

    /// The distinctive names of `module`'s declarations at `access` (`package` or `public`): its top-level types and
    /// free functions; one level inside a type or extension, its types and static properties as `Type.name`, and its
    /// static functions as `Type.name(label:` (`Type.name(` without a first argument label), so an overload is told
    /// apart by its first label.
    static func names(_ module: String, access: String = "package") throws -> Set<String> {
        let modifiers: Set<Substring> = ["final", "indirect", "static", "nonisolated", "mutating", "override", "convenience", "required", "class"]
        let kinds: Set<Substring> = ["struct", "enum", "class", "protocol", "typealias", "actor"]
        func name(_ word: Substring) -> String { String(word.prefix { $0.isLetter || $0.isNumber || $0 == "_" }) }
        var names: Set<String> = []
        for (_, text) in try LayersTests.sources(module) {
            var outer: String? = nil
            for line in text.split(separator: "\n") {
                if line.first?.isLetter == true {
                    // A top-level declaration: the type or extension whose members follow.
                    let words = line.split(separator: " ").drop { ["public", "package", "internal", "private", "fileprivate", "final", "indirect"].contains($0) }
                    guard let kind = words.first, let named = words.dropFirst().first else { continue }
                    if kinds.contains(kind) || kind == "extension" { outer = name(named) }
                    if line.hasPrefix(access + " ") && (kinds.contains(kind) || kind == "func") { names.insert(name(named)) }
                } else if line.hasPrefix("    \(access) "), !line.hasPrefix("     "), let outer {
                    let words = line.dropFirst("    \(access) ".count).split(separator: " ")
                    let isStatic = words.contains("static")
                    let rest = words.drop { modifiers.contains($0) }
                    guard let kind = rest.first, let named = rest.dropFirst().first else { continue }
                    if kinds.contains(kind) || (isStatic && ["var", "let"].contains(kind)) { names.insert("\(outer).\(name(named))") }
                    if isStatic, kind == "func", let open = named.firstIndex(of: "(") ?? line.firstIndex(of: "(") {
                        let after = (named.contains("(") ? named[named.index(after: open)...] : line[line.index(after: open)...])
                        let label = after.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                        names.insert("\(outer).\(name(named))(" + (label.isEmpty || label == "_" ? "" : "\(label):"))
                    }
                }
            }
        }
        return names
    }

    /// The names of `names` (``names(_:access:)``) that the command line's code (its comments and string literals left
    /// out) uses, each with a file that uses it.
    static func used(_ names: Set<String>) throws -> [String: String] {
        let own = try LayersTests.declaredTypes("OpenInCheckCLI")
        var used: [String: String] = [:]
        for (path, text) in try LayersTests.sources("OpenInCheckCLI") {
            let code = Self.code(text)
            let words = Set(code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
            // `Type.name` as written, and not the start of a longer name.
            let dotted = Set(code.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }.flatMap { word -> [String] in
                let parts = word.split(separator: ".")
                return parts.indices.dropLast().map { "\(parts[$0]).\(parts[$0 + 1])" }
            })
            /// Whether `code` calls `call` (`Type.name(label:`, or `Type.name(` with no label before the first argument).
            func calls(_ call: String) -> Bool {
                if call.hasSuffix(":") { return code.contains(call) }
                var rest = code[...]
                while let found = rest.range(of: call) {
                    let after = rest[found.upperBound...]
                    let label = after.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                    if after.dropFirst(label.count).first != ":" { return true }
                    rest = after
                }
                return false
            }
            for name in names where used[name] == nil && !own.contains(Substring(name)) {
                let found = name.hasSuffix("(") || name.hasSuffix(":") ? calls(name) : name.contains(".") ? dotted.contains(name) : words.contains(name)
                if found { used[name] = path }
            }
        }
        return used
    }

    /// `text`'s code: its comments and the literal text of its strings left out, and what a string interpolates kept.
    static func code(_ text: String) -> String {
        enum Mode {
            case string
            case interpolation(depth: Int)
        }
        let characters = Array(text)
        var kept = "", modes: [Mode] = [], escaped = false, index = 0
        while index < characters.count {
            let character = characters[index]
            index += 1
            if case .string = modes.last {
                if escaped {
                    escaped = false
                    if character == "(" { modes.append(.interpolation(depth: 0)) }
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    modes.removeLast()
                }
                continue
            }
            // Code, or a string's interpolation.
            if character == "/", index < characters.count, characters[index] == "/" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
                continue
            }
            if character == "\"" {
                modes.append(.string)
                continue
            }
            if case .interpolation(let depth) = modes.last {
                if character == "(" { modes[modes.count - 1] = .interpolation(depth: depth + 1) }
                if character == ")" {
                    if depth == 0 {
                        modes.removeLast()
                        kept.append(" ")
                        continue
                    }
                    modes[modes.count - 1] = .interpolation(depth: depth - 1)
                }
            }
            kept.append(character)
        }
        return kept
    }

    @Test("the command line names no package declaration of the library beyond the shrinking list")
    func theCommandLineReachesNoPackageAPI() throws {
        var names: Set<String> = [], published: Set<String> = []
        for module in Self.libraries {
            names.formUnion(try Self.names(module))
            published.formUnion(try Self.names(module, access: "public"))
        }
        // An overload public by the same first label cannot be told apart by its name: it is left out; and a member of
        // a package type is named by its type.
        names.subtract(published)
        names = names.filter { name in !(name.contains(".") && names.contains(String(name.prefix { $0 != "." }))) }
        // The scan finds what it must: a package type, a static function of a public type by its first label, a nested type.
        #expect(names.contains("IntuneLoadOptions") && names.contains("IntuneFleet.load(policies:") && names.contains("IntuneFleet.LoadError"), "\(names.count) names")
        #expect(names.contains("PolicyFile.read(array:") && !names.contains("FleetJSON.read("), "\(names.count) names")
        let used = try Self.used(names)
        for (name, path) in used.sorted(by: { $0.key < $1.key }) where !Self.stillReached.contains(name) {
            Issue.record("\(path) uses the package declaration \(name): make it a documented public API, or do the work below the command line")
        }
        for name in Self.stillReached.sorted() where used[name] == nil {
            Issue.record("the command line no longer uses \(name): take it off CommandLinePackageAccessTests.stillReached")
        }
    }
}
