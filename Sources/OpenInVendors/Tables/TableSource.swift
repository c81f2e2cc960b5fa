import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// What a decision table's rows run against when a line above the table, in its section, names it:
/// `Policy: [title](PATH)`, a Markdown link to a JSON policy or an `AppConnect.plist`, PATH
/// relative to the table's file.
///
/// The rows then need no `policy` or `whitelist` column: each starts from the named policy,
/// and a row's own `policy`, `whitelist` and `context` cells still override it (`-` keeps the
/// policy's value). Every problem with the line or the file it names is a ``TableError`` at the
/// line, naming the file, so a table never runs against a policy it did not read.
enum TableSource {
    /// A policy file (`Policy:`): the rows' policy, before each row's own cells.
    case policy(PolicyInputs)

    /// The keywords a source line starts with, one per kind of source; ``load(_:tableFile:cache:)``
    /// reads the one a line names.
    static let keywords = ["Policy:"]

    /// Reads what `line` names, relative to `tableFile`; a file named twice in one table file is read once.
    /// - Throws: ``TableError`` at the line for a line that is not `Policy: [title](PATH)`, a file that
    ///   cannot be read, or one that is not a valid policy.
    package static func load(_ line: MarkdownTables.SourceLine, tableFile: String, cache: inout [String: TableSource]) throws(TableError) -> TableSource {
        let place = Place(file: tableFile, line: line.line)
        let link = try self.link(line.text, keyword: line.keyword, at: place)
        let path = resolve(link, relativeTo: tableFile)
        let key = line.keyword + path
        if let cached = cache[key] { return cached }
        let source: TableSource
        switch line.keyword {
        case "Policy:":
            if let problem = CappedFile.pipeProblem(path: path) {
                throw place.error("the policy '\(link)' this line names cannot be used: \(path): \(problem)")
            }
            do throws(FormatError) {
                source = .policy(try PolicyFile.read(path: path))
            } catch {
                throw place.error("the policy '\(link)' this line names cannot be used: \(error)")
            }
        default:
            preconditionFailure("a keyword of TableSource.keywords without a reader: \(line.keyword)")
        }
        cache[key] = source
        return source
    }

    /// The PATH of `[title](PATH)`: the whole text must be that one link (`<PATH>` for a path with
    /// spaces; `%20` and other percent escapes are decoded, as a Markdown viewer follows the link).
    static func link(_ text: String, keyword: String, at place: Place) throws(TableError) -> String {
        let form = "write '\(keyword) [title](path/to/policy.json)': a Markdown link to a JSON policy or an AppConnect.plist, relative to this file"
        var rest = Substring(text)
        guard rest.first == "[", let close = rest.firstIndex(of: "]") else {
            throw place.error("'\(keyword) \(text)' is not a link: \(form)")
        }
        rest = rest[rest.index(after: close)...]
        guard rest.first == "(", rest.last == ")" else {
            throw place.error("'\(keyword) \(text)' is not a link: \(form)")
        }
        var destination = rest.dropFirst().dropLast().trimmingSpaces
        let angled = destination.first == "<" && destination.last == ">"
        if angled { destination = destination.dropFirst().dropLast() }
        guard !destination.isEmpty else { throw place.error("'\(keyword) \(text)' links to nothing: \(form)") }
        guard angled || !destination.utf8.contains(UInt8(ascii: " ")) else {
            throw place.error("'\(keyword) \(text)': a link's path has no spaces (Markdown ends it there); write <path with spaces> or %20")
        }
        guard let decoded = percentDecoded(destination) else {
            throw place.error("'\(keyword) \(text)': the path has a '%' that is not followed by two hex digits, or escapes that are not UTF-8; write %25 for '%'")
        }
        if ExactText.contains(decoded, "://") || decoded.hasPrefix("#") {
            throw place.error("'\(keyword) \(text)' links to \(decoded), not a file: \(form)")
        }
        return decoded
    }

    /// `path` as the table's own link resolves: relative to the folder of `tableFile`, unless absolute.
    package static func resolve(_ path: String, relativeTo tableFile: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let slash = tableFile.lastIndex(of: "/") else { return path }
        return String(tableFile[...slash]) + path
    }

    /// `text` with `%XX` escapes decoded, or nil when an escape is malformed or the bytes are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while let byte = iterator.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.popFirst().flatMap(hex), let low = iterator.popFirst().flatMap(hex) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
