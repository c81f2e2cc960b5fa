import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// Every lint check code the documentation names (the rule tables' READMEs, the README, the articles) is a check
/// the tool has, and where the text gives the check's name or severity beside the code, they are the tool's.
@Suite struct DocumentedCheckCodesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Code → (name, severity) of every check: a single policy's, a fleet's and Intune's.
    static var checks: [String: (name: String, severity: String)] {
        var checks: [String: (String, String)] = [:]
        for check in LintCheck.all { checks[check.code] = (check.name, check.severity.rawValue) }
        for check in FleetLint.checks { checks[check.code] = (check.name, "\(check.severity)") }
        for check in IntuneLint.checks { checks[check.code] = (check.name, "\(check.severity)") }
        return checks
    }

    /// The Markdown files users read: `Rules/**/*.md`, `README.md`, the DocC articles.
    static func documents() throws -> [URL] {
        var files = [root.appendingPathComponent("README.md")]
        for folder in ["Rules", "Sources"] {
            let walk = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = walk?.nextObject() as? URL {
                if url.pathExtension == "md" { files.append(url) }
            }
        }
        return files
    }

    @Test func everyDocumentedCodeIsACheckWithThatNameAndSeverity() throws {
        let checks = Self.checks
        #expect(checks.count > 40)
        // A code, then optionally its name (`IN009 app-group-built-in`) or its severity in parentheses (`(IN009, info)`).
        let pattern = try NSRegularExpression(pattern: #"\b((?:OI|FL|IN)[0-9]{3})\b(?:,? ([a-z]+(?:-[a-z0-9]+)*))?"#)
        var seen = 0
        for file in try Self.documents() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                for match in pattern.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                    let code = String(line[Range(match.range(at: 1), in: line)!])
                    let place = "\(file.path.dropFirst(Self.root.path.count + 1)):\(number + 1)"
                    seen += 1
                    guard let check = checks[code] else {
                        Issue.record("\(place): \(code) is not a check of the tool")
                        continue
                    }
                    guard let range = Range(match.range(at: 2), in: line) else { continue }
                    let word = String(line[range])
                    if ["error", "warning", "info"].contains(word) {
                        #expect(word == check.severity, "\(place): \(code) is \(check.severity), the text says \(word)")
                    } else if word.contains("-") {
                        #expect(word == check.name, "\(place): \(code) is \(check.name), the text says \(word)")
                    }
                }
            }
        }
        #expect(seen > 50)
    }
}
