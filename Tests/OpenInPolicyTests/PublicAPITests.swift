import Foundation
import Testing

/// Each library module's public surface is a checked-in list, `Tests/API/<Module>.txt`: a change to
/// it is deliberate. After changing a surface on purpose, rewrite the lists with
/// `OPENIN_UPDATE_PUBLIC_API=1 swift test --filter PublicAPITests` and commit them with the change.
@Suite struct PublicAPITests {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// The library modules whose surface is listed: every `Sources/OpenIn*` but the CLI and the benchmark.
    static func modules() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Sources").path)
        return names.filter { $0.hasPrefix("OpenIn") && $0 != "OpenInCheckCLI" && $0 != "OpenInCheckBench" }.sorted()
    }

    /// The public declarations of the module at `Sources/<module>`.
    static func surface(of module: String) throws -> [String] {
        let sources = packageRoot.appendingPathComponent("Sources/\(module)")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted()
        _ = files as [String]
        #expect(!files.isEmpty, "no sources found under \(sources.path)")
        var texts: [String] = []
        for file in files {
            texts.append(try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8))
        }
        return PublicDeclarations.list(texts)
    }

    @Test("every library module's public declarations are its checked-in list")
    func surfaceIsTheList() throws {
        let modules = try Self.modules()
        #expect(modules.contains("OpenInKit") && modules.contains("OpenInPolicy"), "modules found: \(modules)")
        var everySurface: [String] = []
        for module in modules {
            let surface = try Self.surface(of: module)
            everySurface += surface
            let listPath = Self.packageRoot.appendingPathComponent("Tests/API/\(module).txt").path
            let listed = "# The public API of \(module), one declaration a line (see PublicAPITests).\n"
                + surface.joined(separator: "\n") + "\n"
            if ProcessInfo.processInfo.environment["OPENIN_UPDATE_PUBLIC_API"] == "1" {
                // Rewriting compares nothing: never in CI.
                #expect(ProcessInfo.processInfo.environment["CI"] != "true", "OPENIN_UPDATE_PUBLIC_API=1 under CI=true: the list is rewritten, not compared")
                try FileManager.default.createDirectory(atPath: Self.packageRoot.appendingPathComponent("Tests/API").path, withIntermediateDirectories: true)
                try listed.write(toFile: listPath, atomically: true, encoding: .utf8)
            }
            let checkedIn = try #require(try? String(contentsOfFile: listPath, encoding: .utf8), "no list Tests/API/\(module).txt: write it with OPENIN_UPDATE_PUBLIC_API=1")
            let expected = Set(checkedIn.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") })
            let actual = Set(surface)
            let added = actual.subtracting(expected).sorted(), removed = expected.subtracting(actual).sorted()
            #expect(added.isEmpty && removed.isEmpty, """
                \(module)'s public API differs from Tests/API/\(module).txt.
                Added:\n\(added.map { "  + " + $0 }.joined(separator: "\n"))
                Removed:\n\(removed.map { "  - " + $0 }.joined(separator: "\n"))
                If the change is deliberate: OPENIN_UPDATE_PUBLIC_API=1 swift test --filter PublicAPITests
                """)
        }
        // The surface the README promises, and none of the internals it keeps back, in any module.
        for name in ["struct Evaluator", "struct Policy", "struct Decision", "final class RequestStream", "enum PolicyFile",
                     "enum DecisionTables", "enum PolicyLint", "struct PolicyDiff", "struct FormatError"] {
            #expect(everySurface.contains { $0.hasPrefix("public \(name)") }, "\(name) is not public")
        }
        // The JSON value, reader and writer, request lines and the capped file reader are public (an embedder reads and writes
        // what the command line does); the fast paths and the buffers behind them are not.
        for name in ["RecordSink", "DecisionRecordWriter", "BundleIDInterner", "RequestLineScanner", "JSONLinesFastPath", "PreparedPolicy",
                     "JSONCursor", "JSONSkim", "JSONBytes", "InPlaceList", "ExactKey"] {
            #expect(!everySurface.contains { $0.contains("struct \(name)") || $0.contains("enum \(name)") || $0.contains("class \(name)") },
                    "\(name) is public")
        }
    }

    @Test("OpenInReports' surface is the reporters, the writers' entry points, their report values and the registry, none of the writers' internals")
    func reportsSurfaceIsTheReporters() throws {
        let surface = try Self.surface(of: "OpenInReports")
        for name in ["protocol Reporter", "struct ReporterRegistry", "protocol ReportSink", "final class ReportBuffer", "struct FleetLintReport", "struct PolicyLintReport"] {
            #expect(surface.contains { $0.hasPrefix("public \(name)") }, "\(name) is not public")
        }
        // The entry points the command line calls are public (`PathsWriter`, `DecisionText`, …); the helpers behind them are not.
        for name in ["MarkdownText", "XMLText", "GitHubAnnotation", "SARIFLog", "SHA256", "ReportPath", "ReportHop", "DeviceReport", "ReportSubject",
                     "LeakReportFormat", "MarkdownBudget", "ChainMemo", "FleetAppLookup"] {
            #expect(!surface.contains { $0.contains(" \(name)") }, "\(name) is public")
        }
    }

    @Test("the scanner sees nested and multi-line declarations and enum cases, and skips comments, strings and bodies")
    func scanner() {
        let source = #"""
            /// public struct InADocComment {}
            public struct Outer: Sendable {
                public let name: String // public let inAComment
                let hidden = "public let inAString { }"
                package var notPublic: Int { 1 }
                public init(
                    name: String,
                    count: Int = 1
                ) {
                    self.name = name + "}"
                }
                public enum Kind: String { case a, b
                    case c
                    public var label: String { switch self { case .a: "a" default: "x" } }
                }
                enum InternalKind { case z }
            }
            extension Outer: CustomStringConvertible {
                public var description: String { name }
            }
            extension Internal: Hashable {}
            """#
        #expect(PublicDeclarations.list([source]) == [
            "Outer.Kind: case a, b",
            "Outer.Kind: case c",
            "Outer.Kind: public var label: String",
            "Outer: public enum Kind: String",
            "Outer: public init( name: String, count: Int = 1 )",
            "Outer: public let name: String",
            "Outer: public var description: String",
            "extension Outer: CustomStringConvertible",
            "public struct Outer: Sendable",
        ])
    }
}

/// Lists the public declarations of Swift sources: each with the names of the types it is in,
/// whitespace collapsed, bodies and default values of properties left out; enum cases of public
/// enums; and conformances that extensions add to public types. Sorted, so moving a declaration
/// between files changes nothing.
enum PublicDeclarations {
    static func list(_ sources: [String]) -> [String] {
        var found: [String] = []
        var extensions: [(type: String, header: String)] = []
        var publicTypes: Set<String> = []
        for source in sources { scan(strip(source), into: &found, extensions: &extensions, publicTypes: &publicTypes) }
        for (type, header) in extensions where publicTypes.contains(type) && header.contains(":") { found.append(header) }
        return Array(Set(found)).sorted()
    }

    /// The source without comments, and with every string literal emptied.
    static func strip(_ source: String) -> String {
        let characters = Array(source)
        var output: [Character] = []
        var index = 0
        func at(_ offset: Int) -> Character? { index + offset < characters.count ? characters[index + offset] : nil }
        while index < characters.count {
            let character = characters[index]
            if character == "/" && at(1) == "/" {
                while index < characters.count && characters[index] != "\n" { index += 1 }
            } else if character == "/" && at(1) == "*" {
                index += 2
                while index < characters.count && !(characters[index] == "*" && at(1) == "/") { index += 1 }
                index += 2
            } else if character == "#" || character == "\"" {
                // A string literal: #"…"#, """…""", "…" (raw strings end at a quote followed by as many #).
                var hashes = 0
                while at(hashes) == "#" { hashes += 1 }
                guard at(hashes) == "\"" else {
                    output.append(character)
                    index += 1
                    continue
                }
                index += hashes
                let multiline = at(1) == "\"" && at(2) == "\""
                index += multiline ? 3 : 1
                let closing = String(repeating: "\"", count: multiline ? 3 : 1) + String(repeating: "#", count: hashes)
                let closingCharacters = Array(closing)
                while index < characters.count {
                    if hashes == 0 && characters[index] == "\\" {
                        index += 2
                        continue
                    }
                    if characters[index...].starts(with: closingCharacters) {
                        index += closingCharacters.count
                        break
                    }
                    index += 1
                }
                output.append(contentsOf: "\"\"")
            } else {
                output.append(character)
                index += 1
            }
        }
        return String(output)
    }

    private static let typeKeywords: Set<Substring> = ["struct", "enum", "class", "protocol", "actor", "extension"]

    /// Walks the stripped source, keeping the types the current position is in.
    static func scan(_ source: String, into found: inout [String], extensions: inout [(type: String, header: String)],
                     publicTypes: inout Set<String>) {
        struct Scope {
            let name: String
            let depth: Int
            let isPublicEnum: Bool
        }
        var scopes: [Scope] = []
        var depth = 0, parentheses = 0
        var statement = ""

        func record(opening: Bool) {
            let text = statement.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
            statement = ""
            guard !text.isEmpty else { return }
            let words = text.split(separator: " ")
            let inTypeBody = scopes.last.map { $0.depth == depth } ?? (depth == 0)
            guard inTypeBody else { return }
            let context = scopes.last?.name ?? ""
            let isPublic = words.prefix { !typeKeywords.contains($0) && !["func", "var", "let", "init", "subscript", "case", "static"].contains($0) }
                .contains("public") || words.first == "public"
            var declaration = text
            if words.contains("var") || words.contains("let") {
                if let equals = declaration.range(of: " = ") { declaration = String(declaration[..<equals.lowerBound]) }
                if declaration.hasSuffix(" =") { declaration.removeLast(2) }
            }
            if isPublic {
                found.append(context.isEmpty ? declaration : "\(context): \(declaration)")
            } else if words.first == "case", scopes.last?.isPublicEnum == true {
                found.append("\(context): \(declaration)")
            }
            if opening, let keyword = words.firstIndex(where: { typeKeywords.contains($0) }), keyword + 1 < words.count {
                let name = String(words[keyword + 1].prefix { $0 != ":" && $0 != "<" })
                if words[keyword] == "extension" {
                    extensions.append((type: name, header: "extension " + words[(keyword + 1)...].joined(separator: " ")))
                }
                let full = context.isEmpty || words[keyword] == "extension" ? name : "\(context).\(name)"
                if isPublic && words[keyword] != "extension" { publicTypes.insert(full) }
                scopes.append(Scope(name: full, depth: depth + 1, isPublicEnum: isPublic && words[keyword] == "enum"))
            }
        }
        for character in source {
            switch character {
            case "{":
                // A type's body opens a scope; any other body (a function's, a property's) is skipped, as it is deeper than its type.
                record(opening: true)
                depth += 1
            case "}":
                record(opening: false)
                depth -= 1
                while let last = scopes.last, last.depth > depth { scopes.removeLast() }
            case "(", "[":
                parentheses += 1
                statement.append(character)
            case ")", "]":
                parentheses -= 1
                statement.append(character)
            case "\n", ";":
                if parentheses == 0 { record(opening: false) } else { statement.append(" ") }
            default:
                statement.append(character)
            }
        }
    }
}
