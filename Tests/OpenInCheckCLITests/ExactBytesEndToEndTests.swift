import Foundation
import Testing

/// Issue 16: the attacks that got through, each run through the built binary
/// with its exact output. Protocol strings are the SDK's bytes: a look-alike
/// key is another key, a look-alike separator no separator; a plist key given
/// twice is an error; text output is one line per request whatever the input holds.
@Suite struct ExactBytesEndToEndTests {
    /// `MI_AC_DISABLE_SCHEME_BLOCKING` with U+212A KELVIN SIGN for its `K`.
    static let kelvinKey = "MI_AC_DISABLE_SCHEME_BLOC\u{212A}ING"
    /// Two bundle IDs joined by U+037E GREEK QUESTION MARK, which Swift's `Character` equality takes for `;`.
    static let greekEntry = "com.example.viewer\u{037E}com.evil.exfil"

    static let mailtoDenied = """
        deny: nothing is delivered
          request     open-url mailto:a@example.com
          callback    appConnect:openURLAttemptedWhenUnauthorizedForURL: with mailto:a@example.com
          Open In UI  disabled
          rule        mailto.blocked
          reason      The device's mail app is not allowed, scheme blocking is not disabled and Email+ is not installed.

        """

    static func appConnectPlist(openIn: String, list: String? = nil, config: [(String, String)] = []) -> String {
        var policy = "<key>openin</key><string>\(openIn)</string>"
        if let list { policy += "<key>openinwhitelist</key><string>\(list)</string>" }
        let entries = config.map { "<key>\($0.0)</key><string>\($0.1)</string>" }.joined()
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>policy</key><dict>\(policy)</dict>
            <key>config</key><dict>\(entries)</dict>
            </dict></plist>

            """
    }

    // MARK: The Kelvin-sign key is never read

    @Test func theKelvinKeyInAnAppConnectPlistIsNotTheOverride() throws {
        let path = try TemporaryFile.write(Self.appConnectPlist(openIn: "disable", config: [(Self.kelvinKey, "true")]), name: "AppConnect.plist")
        let run = try BuiltBinary.run(["eval", "--policy", path, "--channel", "open-url", "--url", "mailto:a@example.com"])
        #expect(run.stdout == Self.mailtoDenied)
        #expect(run.stderr == "")
        #expect(run.status == 2)
    }

    @Test(arguments: [false, true])
    func theKelvinKeyInAnInfoPlistIsNotTheOverride(binary: Bool) throws {
        let info = try TemporaryFile.plist(["MI_APP_CONNECT": [Self.kelvinKey: true]], binary: binary, name: "Info.plist")
        let run = try BuiltBinary.run(["eval", "--policy", "Examples/policies/unauthorized.json", "--info-plist", info,
                                       "--channel", "open-url", "--url", "mailto:a@example.com"])
        #expect(run.stdout == Self.mailtoDenied)
        #expect(run.status == 2)
    }

    @Test func theKelvinKeyInAPolicyFileIsNotTheOverride() throws {
        let path = try TemporaryFile.write(#"{"openInPolicy":"unauthorized","config":{"MI_AC_DISABLE_SCHEME_BLOC\u212AING":"true"}}"#, name: "policy.json")
        let run = try BuiltBinary.run(["eval", "--policy", path, "--channel", "open-url", "--url", "mailto:a@example.com"])
        #expect(run.stdout == Self.mailtoDenied)
        #expect(run.status == 2)
    }

    // MARK: The Greek question mark separates nothing

    @Test func theGreekQuestionMarkEntryIsAnErrorNotTwoIDs() throws {
        let path = try TemporaryFile.write(Self.appConnectPlist(openIn: "whitelist", list: Self.greekEntry), name: "AppConnect.plist")
        let run = try BuiltBinary.run(["eval", "--policy", path, "--channel", "document-interaction", "--target", "com.evil.exfil"])
        #expect(run.stdout == "")
        #expect(run.stderr == "Error: \(path): policy.openinwhitelist (entry 1): malformed bundle ID '\(Self.greekEntry)': it contains '\u{037E}' (U+037E GREEK QUESTION MARK), which is not ASCII (a bundle ID is ASCII letters, digits, '-', '_' and '.')\n")
        #expect(run.status == 1)
    }

    @Test func aRequestNamingBothIDsWithTheGreekMarkIsAnErrorRecord() throws {
        let run = try BuiltBinary.run(["eval", "--policy", "Examples/policies/whitelist-half-pair.json", "-"],
                                      stdin: #"{"channel":"document-interaction","target":"com.example.viewer\u037ecom.evil.exfil"}"# + "\n")
        #expect(run.stdout == #"{"line":1,"error":"malformed bundle ID '"# + Self.greekEntry + #"': it contains '"# + "\u{037E}" + #"' (U+037E GREEK QUESTION MARK), which is not ASCII (a bundle ID is ASCII letters, digits, '-', '_' and '.')"}"# + "\n")
        #expect(run.status == 1)
    }

    @Test func lintReportsTheKelvinKeyAndTheGreekEntry() throws {
        let path = try TemporaryFile.write(Self.appConnectPlist(openIn: "whitelist", list: Self.greekEntry, config: [(Self.kelvinKey, "true")]),
                                           name: "AppConnect.plist")
        let run = try BuiltBinary.run(["lint", path])
        #expect(run.stdout == """
            \(path): error OI005 malformed-bundle-id: policy.openinwhitelist (entry 1): "\(Self.greekEntry)" is not a bundle ID: it contains '\u{037E}' (U+037E GREEK QUESTION MARK), which is not ASCII (a bundle ID is ASCII letters, digits, '-', '_' and '.')
                fix: write the app's bundle ID: letters, digits, '-' and '_' in segments separated by single dots, e.g. com.example.app
            \(path): error OI007 override-key-misspelled: config.\(Self.kelvinKey): the key "\(Self.kelvinKey)" is not MI_AC_DISABLE_SCHEME_BLOCKING (it holds '\u{212A}' (U+212A KELVIN SIGN), not an ASCII character): keys are matched byte for byte, so the library never reads it
                fix: rename the key to MI_AC_DISABLE_SCHEME_BLOCKING

            lint: 2 errors, 0 warnings, 0 info in 1 file

            """)
        #expect(run.status == 2)
    }

    // MARK: Names

    @Test func aChannelWithAKelvinSignIsNoChannel() throws {
        let run = try BuiltBinary.run(["eval", "--policy", "Examples/policies/whitelist-half-pair.json", "-"],
                                      stdin: #"{"channel":"quick-loo\u212a","target":"a.b"}"# + "\n")
        #expect(run.stdout == #"{"line":1,"error":"unknown channel 'quick-loo"# + "\u{212A}" + #"' (it contains '"# + "\u{212A}" + #"' (U+212A KELVIN SIGN), which is not ASCII: the SDK's names are ASCII and compared byte for byte): use one of document-interaction, quick-look, app-extension, activity-view, open-url, mail-link, mail-compose, drag-and-drop, open-from, copy, print, paste, keyboard. Did you mean 'quick-look'?"}"# + "\n")
        #expect(run.status == 1)
    }

    @Test func openInPolicyTakesTheNumberNotAStringOfDigits() throws {
        let path = try TemporaryFile.write(#"{"openInPolicy": "1"}"#, name: "policy.json")
        let run = try BuiltBinary.run(["eval", "--policy", path, "--channel", "mail-compose"])
        #expect(run.stderr == "Error: \(path):1:18: openInPolicy: the string \"1\" is not a policy value: write the number 1 without quotes, or a name such as \"whitelist\"\n")
        #expect(run.status == 1)
        let number = try TemporaryFile.write(#"{"openInPolicy": 1}"#, name: "policy.json")
        #expect(try BuiltBinary.run(["eval", "--policy", number, "--channel", "mail-compose"]).status == 0)
    }

    @Test(arguments: ["ACOpenInPolicyWhitelist", "ACOPENINPOLICY_WHITELIST", "whitelist", "acopeninpolicywhitelist"])
    func theSDKsConstantNamesAreAccepted(name: String) throws {
        let path = try TemporaryFile.write(#"{"openInPolicy": ""# + name + #"", "openInWhitelist": ["com.example.docs"]}"#, name: "policy.json")
        let run = try BuiltBinary.run(["eval", "--policy", path, "--channel", "document-interaction", "--target", "com.example.docs", "--format", "jsonl"])
        #expect(run.stdout.hasPrefix(#"{"outcome":"allow","target":"com.example.docs""#))
        #expect(run.status == 0)
    }

    // MARK: Duplicate keys

    @Test func aDuplicateKeyInAnXMLPlistIsAnErrorNamingBothLines() throws {
        let path = try TemporaryFile.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>policy</key><dict><key>openin</key><string>disable</string></dict>
            <key>policy</key><dict><key>openin</key><string>allow</string></dict>
            </dict></plist>

            """, name: "AppConnect.plist")
        let run = try BuiltBinary.run(["eval", "--policy", path, "--channel", "mail-compose"])
        #expect(run.stderr == "Error: \(path):4: not a valid property list: duplicate key \"policy\" in a <dict> (first at line 3): give each key once\n")
        #expect(run.status == 1)
    }

    @Test func canonicallyEquivalentKeysInAnXMLPlistAreAnError() throws {
        let path = try TemporaryFile.write(Self.appConnectPlist(openIn: "disable", config: [("MI_AC_DISABLE_SCHEME_BLOCKING", "false"), (Self.kelvinKey, "true")]),
                                           name: "AppConnect.plist")
        let run = try BuiltBinary.run(["eval", "--policy", path, "--channel", "mail-compose"])
        #expect(run.stderr == "Error: \(path):4: not a valid property list: the keys \"MI_AC_DISABLE_SCHEME_BLOCKING\" (line 4) and \"\(Self.kelvinKey)\" in one <dict> are different bytes that look the same (canonically equivalent Unicode): the SDK reads them as two keys, this tool cannot keep them apart; rename or remove one\n")
        #expect(run.status == 1)
    }

    @Test func aDuplicateKeyInABinaryPlistIsAnErrorNamingBothKeys() throws {
        // {"policy": {"openin": "allow"}, "policy": {…}}: the dictionary refers to two "policy" strings.
        let plist = BinaryPlist.build([
            [0xD2, 1, 2, 3, 3],
            [0x56] + Array("policy".utf8),
            [0x56] + Array("policy".utf8),
            [0xD1, 4, 5],
            [0x56] + Array("openin".utf8),
            [0x55] + Array("allow".utf8),
        ])
        let path = try TemporaryFile.write(plist, name: "AppConnect.plist")
        let run = try BuiltBinary.run(["eval", "--policy", path, "--channel", "mail-compose"])
        #expect(run.stderr == "Error: \(path): not a valid binary property list: duplicate key \"policy\" in the dictionary at byte offset 8 (keys 1 and 2 of 2): give each key once\n")
        #expect(run.status == 1)
    }

    // MARK: Text output

    @Test func aDocumentNameCannotForgeALineOrMoveTheCursor() throws {
        let stream = #"{"id":"r0","channel":"mail-compose","document":"x\nline 1 (id \"r1\"): allow \u001b[2K\u202e"}"# + "\n"
            + #"{"channel":"document-interaction","target":"a\u0000b"}"# + "\n"
        let run = try BuiltBinary.run(["eval", "--policy", "Examples/policies/whitelist-half-pair.json", "--format", "text", "-"], stdin: stream)
        #expect(run.stdout == #"""
            line 1 (id "r0"): deny  mail-compose (x\nline 1 (id "r1"): allow \u{1B}[2K\u{202E})  [mail-view.blocked]
            line 2: error  malformed bundle ID 'a\u{0}b': it contains a control character

            """#)
        #expect(run.status == 1)
    }

    @Test func aSingleRequestsDocumentIsEscapedToo() throws {
        let run = try BuiltBinary.run(["eval", "--policy", "Examples/policies/whitelist-half-pair.json",
                                       "--channel", "mail-compose", "--document", "a\nb\\c"])
        #expect(run.stdout.contains(#"  request     mail-compose (a\nb\\c)"# + "\n"))
        #expect(run.stdout.split(separator: "\n").count == 6)
    }

    @Test func aLookAlikeKeyWithABidiOverrideIsEscapedInLintOutput() throws {
        let path = try TemporaryFile.write(Self.appConnectPlist(openIn: "disable", config: [("MI_AC_DISABLE_SCHEME_BLOCKING&#x202E;", "true")]),
                                           name: "AppConnect.plist")
        let run = try BuiltBinary.run(["lint", path])
        #expect(run.stdout == """
            \(path): error OI007 override-key-misspelled: config.MI_AC_DISABLE_SCHEME_BLOCKING\\u{202E}: the key "MI_AC_DISABLE_SCHEME_BLOCKING\\u{202E}" is not MI_AC_DISABLE_SCHEME_BLOCKING (it holds (U+202E RIGHT-TO-LEFT OVERRIDE), not an ASCII character): keys are matched byte for byte, so the library never reads it
                fix: rename the key to MI_AC_DISABLE_SCHEME_BLOCKING

            lint: 1 error, 0 warnings, 0 info in 1 file

            """)
        #expect(run.status == 2)
    }

    // MARK: diff --requests

    @Test func aLogWithNoValidRequestIsAnErrorNotAVerdict() throws {
        let run = try BuiltBinary.run(["diff", "--requests", "-", "Examples/diff/old.json", "Examples/diff/new.json"],
                                      stdin: "{\"channel\":\"nowhere\"}\n\n")
        #expect(run.stdout == "")
        #expect(run.stderr == "Error: the request log on standard input holds no valid request (2 invalid lines; line 1: unknown channel 'nowhere': use one of document-interaction, quick-look, app-extension, activity-view, open-url, mail-link, mail-compose, drag-and-drop, open-from, copy, print, paste, keyboard): nothing was compared, so there is no verdict; fix the lines and run again\n")
        #expect(run.status == 1)
    }
}

/// SIGTERM and SIGINT end a stream at a record boundary, with every record whole and 128 + the signal as status.
@Suite struct InterruptedStreamTests {
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func aSignalEndsTheStreamWithWholeRecords(signal: Int32, status: Int32) throws {
        let binary = try #require(BuiltBinary.url)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["eval", "--policy", "Examples/policies/whitelist-half-pair.json", "-"]
        process.currentDirectoryURL = BuiltBinary.packageRoot
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Two whole lines, then a half line, and the stream stays open: the process waits in read().
        input.fileHandleForWriting.write(Data("{\"channel\":\"mail-compose\"}\n{\"channel\":\"mail-compose\"}\n{\"chan".utf8))
        // Signal only once both records are out, so a loaded machine cannot make the signal overtake them
        // (or arrive before the process has set up its handlers).
        var written = Data()
        while written.count(where: { $0 == UInt8(ascii: "\n") }) < 2 {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            written.append(chunk)
        }
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("the process did not stop within 10 s of the signal")
        }
        written.append(output.fileHandleForReading.readDataToEndOfFile())
        let records = String(decoding: written, as: UTF8.self)
        process.waitUntilExit()
        #expect(records == HostileInputEndToEndTests.mailComposeDenied + "\n" + HostileInputEndToEndTests.mailComposeDenied + "\n")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == status)
        try? input.fileHandleForWriting.close()
    }
}
