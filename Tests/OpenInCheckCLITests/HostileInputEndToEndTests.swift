import Foundation
import Testing

/// Issue 6: limits and hostile shapes, each run through the built binary with
/// its exact error text. Every one fails closed: an error record or an error
/// message, never a decision the input did not ask for.
@Suite struct HostileInputEndToEndTests {
    static let policy = "Examples/policies/whitelist-half-pair.json"
    /// The record of `{"channel":"mail-compose"}` under ``policy``.
    static let mailComposeDenied = #"{"outcome":"deny","callbacks":[{"selector":"appConnect:openInAttemptedWhenACOpenInPolicyBlocked:","policy":"ACOPENINPOLICY_WHITELIST"}],"openInUI":"enabled","rule":"mail-view.blocked","reason":"The mail app is not listed (UNAUTHORIZED lists no app; WHITELIST lists native Mail only with both Mail IDs), and the scheme-blocking override covers only the app's own openURL: call."}"#

    /// A request stream, the records it must give and the exit status.
    struct StreamCase: Sendable, CustomStringConvertible {
        let description: String
        let stream: [UInt8]
        let records: [String]
        let status: Int32
        var arguments: [String] = []

        init(_ description: String, _ stream: [UInt8], _ records: [String], status: Int32 = 1, arguments: [String] = []) {
            self.description = description
            self.stream = stream
            self.records = records
            self.status = status
            self.arguments = arguments
        }

        init(_ description: String, _ stream: String, _ records: [String], status: Int32 = 1, arguments: [String] = []) {
            self.init(description, Array(stream.utf8), records, status: status, arguments: arguments)
        }
    }

    static let streams: [StreamCase] = [
        StreamCase("invalid UTF-8", Array(#"{"channel":"mail-compose","id":""#.utf8) + [0xFF] + Array("\"}\n".utf8),
                   [#"{"line":1,"error":"column 33: not valid JSON: invalid UTF-8: byte 0xFF cannot start a character"}"#]),
        StreamCase("a NUL byte after the object", Array(#"{"channel":"mail-compose"}"#.utf8) + [0] + [0x0A],
                   [#"{"line":1,"error":"column 27: not valid JSON: unexpected byte 0x0 after the JSON value: the input must hold exactly one value"}"#]),
        StreamCase("a NUL byte alone", [0, 0x0A],
                   [#"{"line":1,"error":"column 1: not valid JSON: expected a value (object, array, string, number, true, false or null), found byte 0x0"}"#]),
        StreamCase("a NUL escaped in a bundle ID", #"{"channel":"document-interaction","target":"a\u0000b"}"# + "\n",
                   [#"{"line":1,"error":"malformed bundle ID 'a\u0000b': it contains a control character"}"#]),
        StreamCase("a byte order mark before any line is skipped", [0xEF, 0xBB, 0xBF] + Array("{\"channel\":\"mail-compose\"}\n".utf8),
                   [mailComposeDenied], status: 2),
        StreamCase("CRLF line ends are accepted, the last line needs none", "{\"channel\":\"mail-compose\"}\r\n{\"channel\":\"mail-compose\"}\r",
                   [mailComposeDenied, mailComposeDenied], status: 2),
        StreamCase("blank and whitespace-only lines are invalid lines", "{\"channel\":\"mail-compose\"}\n\n \t \r\n{\"channel\":\"mail-compose\"}\n",
                   [mailComposeDenied,
                    #"{"line":2,"error":"blank line: write one JSON request per line"}"#,
                    #"{"line":3,"error":"blank line: write one JSON request per line"}"#,
                    mailComposeDenied]),
        StreamCase("wrong JSON types", """
            {"id":true,"channel":"mail-compose"}
            {"id":null,"channel":"mail-compose"}
            {"id":"n","channel":"document-interaction","target":null}
            {"id":"c","channel":5}
            "mail-compose"
            [1]

            """,
                   [#"{"line":1,"error":"id: must be a string or a number, not true"}"#,
                    #"{"line":2,"error":"id: must be a string or a number, not null"}"#,
                    #"{"line":3,"id":"n","error":"target: must be a string, not null (leave the key out for none)"}"#,
                    #"{"line":4,"id":"c","error":"channel: must be a string, not the number 5"}"#,
                    #"{"line":5,"error":"a request must be a JSON object such as {\"channel\": \"open-url\", \"url\": \"mailto:a@example.com\"}, not a string"}"#,
                    #"{"line":6,"error":"a request must be a JSON object such as {\"channel\": \"open-url\", \"url\": \"mailto:a@example.com\"}, not an array"}"#]),
        StreamCase("duplicate keys are an error, not a pick", """
            {"channel":"mail-compose","channel":"open-url"}
            {"id":"x","id":"y","channel":"mail-compose"}

            """,
                   [#"{"line":1,"error":"column 27: not valid JSON: duplicate key \"channel\" (first at line 1, column 2): give each key once"}"#,
                    #"{"line":2,"error":"column 11: not valid JSON: duplicate key \"id\" (first at line 1, column 2): give each key once"}"#]),
        StreamCase("very deep nesting", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n",
                   [#"{"line":1,"error":"column 65: not valid JSON: arrays and objects nest deeper than 64 levels"}"#]),
        StreamCase("huge numbers are echoed as written, never rounded", """
            {"id":1e999999999,"channel":"mail-compose"}
            {"id":123456789012345678901234567890,"channel":"mail-compose"}

            """,
                   [#"{"id":1e999999999,"# + mailComposeDenied.dropFirst(),
                    #"{"id":123456789012345678901234567890,"# + mailComposeDenied.dropFirst()], status: 2),
        StreamCase("bundle IDs with spaces, control characters or empty segments", """
            {"id":1,"channel":"document-interaction","target":"com.example docs"}
            {"id":2,"channel":"document-interaction","target":"com.example\\u0007docs"}
            {"id":3,"channel":"document-interaction","target":"com..docs"}
            {"id":4,"channel":"document-interaction","target":"com.example."}
            {"id":5,"channel":"document-interaction","target":""}

            """,
                   [#"{"line":1,"id":1,"error":"malformed bundle ID 'com.example docs': it contains a space"}"#,
                    #"{"line":2,"id":2,"error":"malformed bundle ID 'com.example\u0007docs': it contains a control character"}"#,
                    #"{"line":3,"id":3,"error":"malformed bundle ID 'com..docs': it has an empty segment (two dots, or a dot at the start)"}"#,
                    #"{"line":4,"id":4,"error":"malformed bundle ID 'com.example.': it has an empty segment (a dot at the end)"}"#,
                    #"{"line":5,"id":5,"error":"malformed bundle ID '': it is empty"}"#]),
        StreamCase("URLs with leading spaces or no scheme", """
            {"channel":"open-url","url":" mailto:a@example.com"}
            {"channel":"open-url","url":"a@example.com"}
            {"channel":"open-url","url":"://x"}
            {"channel":"mail-link","url":""}

            """,
                   [#"{"line":1,"error":"malformed URL ' mailto:a@example.com': it starts with a space"}"#,
                    #"{"line":2,"error":"malformed URL 'a@example.com': it has no scheme (expected e.g. 'mailto:' or 'https:')"}"#,
                    #"{"line":3,"error":"malformed URL '://x': the scheme before ':' is empty"}"#,
                    #"{"line":4,"error":"malformed URL '': it is empty"}"#]),
        StreamCase("a line longer than --max-line-length", """
            {"channel":"mail-compose"}
            {"channel":"mail-compose","id":"\(String(repeating: "y", count: 100))"}
            {"channel":"mail-compose"}
            """,
                   [mailComposeDenied, #"{"line":2,"error":"the line is longer than 64 bytes"}"#, mailComposeDenied],
                   arguments: ["--max-line-length", "64"]),
        StreamCase("a line of exactly --max-line-length bytes is read", "{\"channel\":\"mail-compose\"}\r\n",
                   [mailComposeDenied], status: 2, arguments: ["--max-line-length", "26"]),
    ]

    @Test(arguments: streams)
    func requestStream(_ stream: StreamCase) throws {
        let path = try TemporaryFile.write(stream.stream, name: "hostile.jsonl")
        let run = try BuiltBinary.run(["eval", "--policy", Self.policy, path] + stream.arguments)
        #expect(run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == stream.records + [""])
        #expect(run.stderr == "")
        #expect(run.status == stream.status)
    }

    /// `{"channel":"mail-compose","id":"yyy…"}` of exactly `length` bytes.
    static func requestLine(length: Int) -> String {
        "{\"channel\":\"mail-compose\",\"id\":\"" + String(repeating: "y", count: length - 34) + "\"}"
    }

    @Test func theDefaultMaximumLineIsOneMebibyte() throws {
        let tooLong = Self.requestLine(length: (1 << 20) + 1), longest = Self.requestLine(length: 1 << 20)
        #expect(tooLong.utf8.count == (1 << 20) + 1 && longest.utf8.count == 1 << 20)
        let path = try TemporaryFile.write(tooLong + "\n" + longest + "\n", name: "long.jsonl")
        let run = try BuiltBinary.run(["eval", "--policy", Self.policy, path])
        let records = run.stdout.split(separator: "\n")
        #expect(records.count == 2)
        #expect(records.first == #"{"line":1,"error":"the line is longer than 1048576 bytes"}"#)
        #expect(records.last?.hasPrefix(#"{"id":"yyyy"#) == true)
        #expect(records.last?.hasSuffix(Self.mailComposeDenied.dropFirst()) == true)
        #expect(run.status == 1)
    }

    @Test(arguments: [
        (["0"], "'--max-line-length' must be a number of bytes from 1 to 1073741824, not '0'"),
        (["2000000000"], "'--max-line-length' must be a number of bytes from 1 to 1073741824, not '2000000000'"),
        (["1MiB"], "'--max-line-length' must be a number of bytes from 1 to 1073741824, not '1MiB'"),
    ])
    func maxLineLengthMustBeABoundedNumber(value: [String], message: String) throws {
        let run = try BuiltBinary.run(["eval", "--policy", Self.policy, "-", "--max-line-length"] + value)
        #expect(run.stderr.hasPrefix("Error: \(message)\nUsage: "))
        #expect(run.stdout == "")
        #expect(run.status == 64)
    }

    @Test func maxLineLengthIsForStreamsOnly() throws {
        let run = try BuiltBinary.run(["eval", "--policy", Self.policy, "--channel", "mail-compose", "--max-line-length", "10"])
        #expect(run.stderr.hasPrefix("Error: '--max-line-length' limits the lines of a stream; it cannot be used with --channel\n"))
        #expect(run.status == 64)
    }

    // MARK: Files

    /// A policy or plist file that cannot be used, and the exact message.
    struct FileCase: Sendable, CustomStringConvertible {
        let description: String
        /// The arguments after `eval`; `FILE` is replaced by the written file's path.
        let arguments: [String]
        let contents: [UInt8]?
        /// The message after `Error: `; `FILE` is replaced by the path.
        let message: String
    }

    static let xmlHeader = """
        <?xml version="1.0" encoding="UTF-8"?>

        """
    static let appleDoctype = """
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">

        """

    /// `--policy FILE --channel mail-compose`.
    static func policyOnly(_ file: String) -> [String] { ["--policy", file, "--channel", "mail-compose"] }

    static let deepJSONPolicy: [UInt8] = {
        let brackets: String = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        return Array("{\"description\": \(brackets)}".utf8)
    }()

    static let files: [FileCase] = [
        FileCase(description: "entity definitions, the billion laughs",
                 arguments: policyOnly("FILE"),
                 contents: Array((xmlHeader + """
                     <!DOCTYPE plist [
                     <!ENTITY a "allow">
                     <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
                     <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
                     ]>
                     <plist version="1.0"><dict><key>policy</key><dict><key>openin</key><string>&c;</string></dict></dict></plist>
                     """).utf8),
                 message: "FILE:3: entity definitions (<!ENTITY …>) are not allowed in a property list"),
        FileCase(description: "an external entity in an Info.plist",
                 arguments: ["--policy", "Examples/policies/unauthorized.json", "--info-plist", "FILE", "--channel", "mail-compose"],
                 contents: Array((xmlHeader + """
                     <!DOCTYPE plist [ <!ENTITY leak SYSTEM "file:///etc/passwd"> ]>
                     <plist version="1.0"><dict><key>CFBundleName</key><string>&leak;</string></dict></plist>
                     """).utf8),
                 message: "FILE:2: entity definitions (<!ENTITY …>) are not allowed in a property list"),
        FileCase(description: "an OpenStep text plist",
                 arguments: ["--policy", "Examples/policies/unauthorized.json", "--info-plist", "FILE", "--channel", "mail-compose"],
                 contents: Array("{MI_APP_CONNECT = {MI_AC_DISABLE_SCHEME_BLOCKING = YES;};}".utf8),
                 message: "FILE: not a valid property list (XML or binary): it starts with neither '<' nor 'bplist' (OpenStep text property lists are not read; convert one with 'plutil -convert xml1')"),
        FileCase(description: "a truncated binary plist", arguments: policyOnly("FILE"),
                 contents: Array(BinaryPlist.appConnect.dropLast(10)),
                 message: "FILE: not a valid binary property list: its trailer is corrupt (offset size 0, reference size 0)"),
        FileCase(description: "a binary plist cut to its header", arguments: policyOnly("FILE"),
                 contents: Array("bplist00".utf8),
                 message: "FILE: not a valid binary property list: it is shorter than the smallest binary property list"),
        FileCase(description: "a binary plist whose offset table lies outside the file", arguments: policyOnly("FILE"),
                 contents: BinaryPlist.withTrailer(BinaryPlist.appConnect, tableStart: 1 << 40),
                 message: "FILE: not a valid binary property list: its trailer is corrupt (the objects or the offset table lie outside the file)"),
        FileCase(description: "a binary plist that contains itself", arguments: policyOnly("FILE"),
                 contents: BinaryPlist.build([[0xD1, 1, 0], [0x56] + Array("policy".utf8)]),
                 message: "FILE: not a valid binary property list: an object contains itself"),
        FileCase(description: "a binary plist that expands to 2^59 values", arguments: policyOnly("FILE"),
                 contents: BinaryPlist.sharedOverAndOver,
                 message: "FILE: not a valid binary property list: it expands to more than 100000 values (objects shared over and over)"),
        FileCase(description: "a binary plist nested 1000 deep", arguments: policyOnly("FILE"),
                 contents: BinaryPlist.nested1000Deep,
                 message: "FILE: not a valid binary property list: arrays and dictionaries nest deeper than 512 levels"),
        FileCase(description: "a binary plist whose string runs past the end", arguments: policyOnly("FILE"),
                 contents: BinaryPlist.build([[0x5F, 0x13, 0, 0, 1, 0, 0, 0, 0, 0]]),
                 message: "FILE: not a valid binary property list: it is truncated or corrupt"),
        FileCase(description: "a binary Info.plist holding a set (Foundation crashed on it)",
                 arguments: ["--policy", "Examples/policies/unauthorized.json", "--info-plist", "FILE", "--channel", "mail-compose"],
                 contents: BinaryPlist.build([[0xC1, 1], [0x51, 0x61]]),
                 message: "FILE: not a valid binary property list: it holds a set, which property lists do not have"),
        FileCase(description: "a JSON policy with a duplicate key", arguments: policyOnly("FILE"),
                 contents: Array(#"{"openInPolicy": "unauthorized", "openInPolicy": "authorized"}"#.utf8),
                 message: #"FILE:1:34: not valid JSON: duplicate key "openInPolicy" (first at line 1, column 2): give each key once"#),
        FileCase(description: "a JSON policy nested too deep", arguments: policyOnly("FILE"),
                 contents: deepJSONPolicy,
                 message: "FILE:1:80: not valid JSON: arrays and objects nest deeper than 64 levels"),
        FileCase(description: "a huge number as the policy", arguments: policyOnly("FILE"),
                 contents: Array(#"{"openInPolicy": 100000000000000000000000000000000001}"#.utf8),
                 message: #"FILE:1:18: openInPolicy: the number 100000000000000000000000000000000001 is not a policy: write 0, 1 or 2 as an integer, or a name such as "whitelist""#),
        FileCase(description: "a directory", arguments: policyOnly("Examples"), contents: nil,
                 message: "cannot read policy file 'Examples': it is a directory; give a file"),
        FileCase(description: "a directory as the stream", arguments: ["--policy", policy, "Examples"], contents: nil,
                 message: "cannot read request stream 'Examples': it is a directory; give a file"),
        FileCase(description: "a missing file", arguments: policyOnly("Examples/no-such-policy.json"), contents: nil,
                 message: "cannot read policy file 'Examples/no-such-policy.json': no such file or directory"),
        FileCase(description: "a path through a file", arguments: ["--policy", policy, "--info-plist", "Examples/Info.plist/x", "--channel", "mail-compose"],
                 contents: nil, message: "cannot read Info.plist 'Examples/Info.plist/x': not a directory"),
    ]

    @Test func aFileOver16MiBIsNotRead() throws {
        let path = try TemporaryFile.write("{}", name: "huge.json")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: (16 << 20) + 1)  // sparse: nothing is written
        try handle.close()
        for arguments in [Self.policyOnly(path), ["--policy", Self.policy, "--info-plist", path, "--channel", "mail-compose"]] {
            let run = try BuiltBinary.run(["eval"] + arguments)
            let what = arguments.contains("--info-plist") ? "Info.plist" : "policy file"
            #expect(run.stderr == "Error: cannot read \(what) '\(path)': it is larger than 16 MiB\n")
            #expect(run.status == 1)
        }
    }

    @Test func maxFileSizeRaisesAndLowersTheCap() throws {
        // A valid policy just over 16 MiB: refused by default, read under a raised cap.
        let padding = String(repeating: " ", count: (16 << 20) + 1)
        let path = try TemporaryFile.write("{\"openInPolicy\": \"unauthorized\"" + padding + "}", name: "large.json")
        let refused = try BuiltBinary.run(["eval"] + Self.policyOnly(path))
        #expect(refused.stderr == "Error: cannot read policy file '\(path)': it is larger than 16 MiB\n")
        #expect(refused.status == 1)
        let read = try BuiltBinary.run(["eval", "--max-file-size", "\(32 << 20)"] + Self.policyOnly(path))
        #expect(read.stderr == "")
        #expect(!read.stdout.isEmpty && read.status != 1 && read.status != 64)
        // And lowered.
        let lowered = try BuiltBinary.run(["eval", "--max-file-size", "100"] + Self.policyOnly(Self.policy))
        #expect(lowered.stderr == "Error: cannot read policy file '\(Self.policy)': it is larger than 100 bytes\n")
        #expect(lowered.status == 1)
    }

    @Test(arguments: ["0", "1073741825", "16MiB"])
    func maxFileSizeMustBeABoundedNumber(value: String) throws {
        let run = try BuiltBinary.run(["eval", "--max-file-size", value] + Self.policyOnly(Self.policy))
        #expect(run.stderr.hasPrefix("Error: '--max-file-size' must be a number of bytes from 1 to 1073741824, not '\(value)'\nUsage: "))
        #expect(run.status == 64)
    }

    @Test(arguments: files)
    func unusableFile(_ file: FileCase) throws {
        var path = ""
        if let contents = file.contents { path = try TemporaryFile.write(contents, name: "hostile") }
        let run = try BuiltBinary.run(["eval"] + file.arguments.map { $0 == "FILE" ? path : $0 })
        #expect(run.stderr == "Error: \(file.message.replacingOccurrences(of: "FILE", with: path))\n")
        #expect(run.stdout == "")
        #expect(run.status == 1)
    }

    @Test(.enabled(if: geteuid() != 0, "root reads any file"))
    func anUnreadableFile() throws {
        let path = try TemporaryFile.write("{\"openInPolicy\": \"authorized\"}", name: "unreadable.json")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
        let run = try BuiltBinary.run(["eval", "--policy", path, "--channel", "mail-compose"])
        #expect(run.stderr == "Error: cannot read policy file '\(path)': permission denied\n")
        #expect(run.status == 1)
    }

    /// The same path as root (CI runs as root, and root reads a file of mode 0): an open that fails
    /// (a path through a file), and a read that fails after the open (/proc/self/mem at offset 0: EIO).
    @Test(arguments: [("FILE/x", "not a directory"), ("/proc/self/mem", "input/output error")])
    func aFileThatCannotBeOpenedOrRead(_ path: String, _ reason: String) throws {
        let file = try TemporaryFile.write("{\"openInPolicy\": \"authorized\"}", name: "plain.json")
        let given = path.replacingOccurrences(of: "FILE", with: file)
        for (flag, what) in [("--policy", "policy file"), ("--info-plist", "Info.plist")] {
            let arguments = flag == "--policy" ? ["--policy", given] : ["--policy", file, "--info-plist", given]
            let run = try BuiltBinary.run(["eval"] + arguments + ["--channel", "mail-compose"])
            #expect(run.stderr == "Error: cannot read \(what) '\(given)': \(reason)\n")
            #expect(run.stdout == "")
            #expect(run.status == 1)
        }
    }

    @Test func theHandBuiltBinaryPlistIsValid() throws {
        let path = try TemporaryFile.write(BinaryPlist.appConnect, name: "AppConnect.plist")
        let run = try BuiltBinary.run(["eval", "--policy", path, "--channel", "mail-compose", "--format", "jsonl"])
        #expect(run.stdout.contains(#""rule":"mail-view.blocked""#))
        #expect(run.stderr == "")
        #expect(run.status == 2)
    }

    @Test func theAppleDoctypeIsAccepted() throws {
        let path = try TemporaryFile.write(Self.xmlHeader + Self.appleDoctype + """
            <plist version="1.0"><dict><key>policy</key><dict><key>openin</key><string>disable</string></dict></dict></plist>
            """, name: "AppConnect.plist")
        let run = try BuiltBinary.run(["eval", "--policy", path, "--channel", "mail-compose", "--format", "jsonl"])
        #expect(run.stdout.contains(#""rule":"mail-view.blocked""#))
        #expect(run.stderr == "")
        #expect(run.status == 2)
    }

    @Test func aFullDiskIsReportedNotIgnored() throws {
        let binary = try #require(BuiltBinary.url)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["eval", "--policy", Self.policy, "Examples/requests.jsonl"]
        process.currentDirectoryURL = BuiltBinary.packageRoot
        let errors = Pipe()
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: message, as: UTF8.self) == "Error: cannot write standard output: no space left on device\n")
        #expect(process.terminationStatus == 1)
    }
}

/// Binary property lists built byte by byte, to be as broken as a test needs.
enum BinaryPlist {
    /// `bplist00`, the objects, the offset table and the trailer; the top object is the first.
    static func build(_ objects: [[UInt8]], referenceSize: UInt8 = 1) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableStart = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 24 & 0xFF), UInt8(offset >> 16 & 0xFF), UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 4, referenceSize]
        bytes += bigEndian(UInt64(objects.count)) + bigEndian(0) + bigEndian(UInt64(tableStart))
        return bytes
    }

    /// 60 arrays, each holding the next one twice: 2^59 values once expanded.
    static let sharedOverAndOver: [UInt8] = {
        var objects: [[UInt8]] = []
        for index in 0..<59 { objects.append([0xA2, UInt8(index + 1), UInt8(index + 1)]) }
        objects.append([0x50])
        return build(objects)
    }()

    /// 1000 arrays, each holding the next one.
    static let nested1000Deep: [UInt8] = {
        var objects: [[UInt8]] = []
        for index in 0..<999 { objects.append([0xA1, UInt8((index + 1) >> 8), UInt8((index + 1) & 0xFF)]) }
        objects.append([0xA0])
        return build(objects, referenceSize: 2)
    }()

    /// `bytes` with the trailer's offset table start replaced.
    static func withTrailer(_ bytes: [UInt8], tableStart: UInt64) -> [UInt8] {
        Array(bytes.dropLast(8)) + bigEndian(tableStart)
    }

    static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).reversed().map { UInt8(value >> (8 * UInt64($0)) & 0xFF) }
    }

    /// A valid AppConnect.plist: `policy` → `openin` = `disable`.
    static let appConnect: [UInt8] = build([
        [0xD1, 1, 2], [0x56] + Array("policy".utf8), [0xD1, 3, 4], [0x56] + Array("openin".utf8), [0x57] + Array("disable".utf8),
    ])
}
