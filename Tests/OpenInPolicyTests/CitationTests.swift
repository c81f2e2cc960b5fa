import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// Every source a user is shown can be opened: the SDK guide by its public
/// title and section, the SDK header by file and declaration, our own choices
/// by the `Rules/*.md` section that states them — never a file users do not
/// have (internal design notes, the guide pages' local copies).
@Suite("Citations")
struct CitationTests {
    static let root = URL(fileURLWithPath: RulesFolder.path).deletingLastPathComponent()

    /// Names of documents users do not have; none may appear in what they read.
    static let unopenable = ["DESIGN", "open-in-policy.txt", "ready.txt", "notifications.txt", "app-config.txt", "dual-mode.txt", "shared/"]

    /// Text that names a document users cannot open, if any.
    static func unopenableNames(in text: String) -> [String] {
        var found = unopenable.filter { text.contains($0) }
        if text.range(of: #"README-[A-Za-z0-9-]*section\.md"#, options: .regularExpression) != nil { found.append("README-…-section.md") }
        return found
    }

    /// The text of `## section` in `file` (up to the next heading), whitespace collapsed.
    static func section(_ section: String, of file: String) throws -> String? {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        var lines: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                if lines != nil { break }
                if line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces) == section { lines = [] }
                continue
            }
            lines?.append(line)
        }
        return lines.map(collapse)
    }

    static func collapse(_ lines: [Substring]) -> String {
        lines.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test("every rule cites known documents; a choice names a Rules/ section that exists and holds the quote")
    func ruleCitations() throws {
        for rule in RuleInfo.all + RuleInfo.intune {
            #expect(!rule.citations.isEmpty, "\(rule.id) cites nothing")
            #expect(Self.unopenableNames(in: rule.source + rule.quote).isEmpty, "\(rule.id): \(rule.source)")
            for (index, citation) in rule.citations.enumerated() {
                switch citation.kind {
                case .guide, .header, .ivanti, .learn, .graph:
                    break  // one of the enumerated sections and headers: the type allows nothing else
                case .choice(let file, let section):
                    #expect(file.hasPrefix("Rules/") && file.hasSuffix(".md"), "\(rule.id): our choices are stated in Rules/*.md, not \(file)")
                    #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(file).path), "\(rule.id) cites \(file), which does not exist")
                    let text = try Self.section(section, of: file)
                    #expect(text != nil, "\(rule.id) cites section '\(section)' of \(file), which has no such heading")
                    if index == 0, let text {
                        #expect(text.contains(Self.collapse([Substring(rule.quote)])), "\(rule.id)'s quote is not in \(file), '\(section)': \(rule.quote)")
                    }
                }
            }
        }
    }

    @Test("a citation reads as 'Document: section'")
    func citationText() {
        #expect(Citation.guide(.openIn).text == "AppConnect for iOS SDK Developer Guide: Open In policy API details")
        #expect(Citation.header(.appConnectInterface, "-retire").text == "AppConnectInterface.h: -retire")
        #expect(Citation.choice("Rules/drag-and-drop.md", "Our choices").text == "Rules/drag-and-drop.md: Our choices")
        #expect(Citation.learn(.iosSettings, "Data transfer").text == "Microsoft Learn, iOS/iPadOS app protection policy settings: Data transfer")
        #expect(Citation.graph("printBlocked").text == "Microsoft Graph beta, iosManagedAppProtection resource type: printBlocked")
    }

    /// The README, the DocC articles and `Rules/*.md`: what a user reads in the repository.
    static var userDocuments: [String] {
        let rules = (try? FileManager.default.contentsOfDirectory(atPath: RulesFolder.path)) ?? []
        let articles = files(under: "Sources").filter { $0.hasSuffix(".md") && $0.contains(".docc/") }
        return ["README.md"] + articles + rules.filter { $0.hasSuffix(".md") }.sorted().map { "Rules/" + $0 }
    }

    /// Files allowed to name an unopenable document (none: every file is clean).
    static let pendingElsewhere: Set<String> = []

    /// Every file under `folder` (recursively), as paths relative to the package root.
    static func files(under folder: String) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var found: [String] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            found.append(folder + "/" + url.path.dropFirst(base.path.count + 1))
        }
        return found.sorted()
    }

    @Test("sources, Rules/ (lifecycle scenarios included), Examples/ and Tests/API/ name no document users cannot open")
    func repositoryNamesNoUnopenableDocument() throws {
        let files = ["Sources", "Rules", "Examples", "Tests/API"].flatMap(Self.files(under:))
        #expect(files.contains("Rules/lifecycle/retire-resets-policies.scenario"))
        #expect(files.contains("Sources/OpenInAppConnect/Evaluator.swift"))
        #expect(files.contains { $0.hasPrefix("Examples/scenarios/") })
        for file in files where !Self.pendingElsewhere.contains(file) {
            let bytes = try Data(contentsOf: Self.root.appendingPathComponent(file))
            let text = String(decoding: bytes, as: UTF8.self)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let names = Self.unopenableNames(in: String(line))
                #expect(names.isEmpty, "\(file):\(number + 1) names \(names): cite the guide by title and section, the header by file and declaration, or the Rules/*.md section")
            }
        }
    }

    @Test("the README, the DocC articles and Rules/*.md name no document users cannot open, and every repository path they name exists")
    func documentsCiteWhatExists() throws {
        #expect(Self.userDocuments.count > 5)
        let path = try NSRegularExpression(pattern: #"(?<![A-Za-z0-9_./-])((?:Rules|Examples|Sources|Tests)/[A-Za-z0-9_./+-]*[A-Za-z0-9_/])"#)
        let guide = try NSRegularExpression(pattern: #"AppConnect for iOS SDK Developer Guide: ([A-Za-z][A-Za-z0-9. -]*[a-z])"#)
        let sections = Citation.GuideSection.allCases.map(\.rawValue)
        var paths = 0
        for document in Self.userDocuments {
            let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                let place = "\(document):\(number + 1)"
                #expect(Self.unopenableNames(in: line).isEmpty, "\(place) names \(Self.unopenableNames(in: line)): cite the guide by title and section, or the Rules/*.md section")
                let range = NSRange(line.startIndex..., in: line)
                for match in path.matches(in: line, range: range) {
                    guard let found = Range(match.range(at: 1), in: line) else { continue }
                    let cited = String(line[found])
                    if cited.contains("*") || cited.contains("Your") { continue }
                    paths += 1
                    #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(cited).path), "\(place) names \(cited), which does not exist")
                }
                for match in guide.matches(in: line, range: range) {
                    guard let found = Range(match.range(at: 1), in: line) else { continue }
                    let cited = String(line[found])
                    #expect(sections.contains { cited.hasPrefix($0) }, "\(place) cites guide section '\(cited)', not one of \(sections)")
                }
            }
        }
        #expect(paths > 10)
    }
}
