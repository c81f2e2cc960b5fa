import Testing

@Suite struct MatrixEndToEndTests {
    @Test func halfPairMatrix() throws {
        let run = try BuiltBinary.run(["matrix", "--policy", "Examples/policies/whitelist-half-pair.json"])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout.hasPrefix("Policy Examples/policies/whitelist-half-pair.json: WHITELIST of 3 bundle IDs\nOpen In UI: enabled\n\n"))
        #expect(run.stdout.contains("""
                                  listed  unlisted  native
            Sharing to an app     app     app       Mail    Email+
            document-interaction  allow   dummy*    dummy*  dummy*

            """))
        #expect(run.stdout.contains("open-url               redirect     allow   allow    deny*     deny*    allow\n"))
        #expect(run.stdout.contains("mail-link              deny*        ·       ·        ·         ·        ·\n"))
        #expect(run.stdout.contains("Outcomes: allow = delivered to the target"))
        #expect(run.stdout.contains("  handler unlisted        dropbox: → com.getdropbox.Dropbox\n"))
    }

    @Test("keyboard and paste have a grid; an excluded activity a column; the Web DLP setting shows in the header and the web URL's cell")
    func newChannelsAndSettings() throws {
        let plain = try BuiltBinary.run(["matrix", "--policy", "Examples/policies/whitelist-half-pair.json"])
        #expect(plain.stdout.contains("""
                                system    custom    paste from   paste from
            Typing and pasting  keyboard  keyboard  another app  unknown app
            keyboard            allow     allow     ·            ·
            paste               ·         ·         allow        allow

            """))
        #expect(!plain.stdout.contains("excluded"))
        #expect(!plain.stdout.contains("Web DLP"))
        let run = try BuiltBinary.run(["matrix", "--policy", "Examples/policies/whitelist-half-pair.json", "--web-dlp", "not-allowed",
                                       "--excluded-activity", "com.apple.UIKit.activity.AirDrop",
                                       "--config", "MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS=false"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("Policy Examples/policies/whitelist-half-pair.json: WHITELIST of 3 bundle IDs\nOpen In UI: enabled; Web DLP: not allowed\n\n"))
        #expect(run.stdout.contains("activity-view         deny*   deny*     deny*   deny*   deny\n"))
        #expect(run.stdout.contains("open-url               redirect     allow   allow    deny*     deny*    deny\n"))
        #expect(run.stdout.contains("keyboard            allow     deny      ·            ·\n"))
        #expect(run.stdout.contains("  excluded activity       com.apple.UIKit.activity.AirDrop  (excludedAppleActivityTypes)\n"))
        #expect(run.stdout.contains("  web URL                 https://www.example.com/  (Web DLP: not allowed; Web@Work not installed)\n"))
        let withWebAtWork = try BuiltBinary.run(["matrix", "--policy", "Examples/policies/whitelist-half-pair.json", "--web-dlp", "not-allowed", "--web-at-work"])
        #expect(withWebAtWork.stdout.contains("    redirect\n"))
        let bad = try BuiltBinary.run(["matrix", "--policy", "Examples/policies/whitelist-half-pair.json", "--web-dlp", "no"])
        #expect(bad.status == 1)
        #expect(bad.stdout == "")
        #expect(bad.stderr.hasPrefix("Error: --web-dlp no: unknown Web DLP setting 'no': use allowed or not-allowed"))
    }

    @Test func everyPolicySourceGivesAMatrix() throws {
        for arguments in [["--policy", "Examples/AppConnect.plist"],
                          ["--policy", "Examples/policies/unauthorized.json", "--info-plist", "Examples/Info-binary.plist"],
                          ["--policy", "Examples/policies/all-appconnect-apps.json"]] {
            let run = try BuiltBinary.run(["matrix"] + arguments)
            #expect(run.status == 0, "\(arguments)")
            #expect(run.stdout.contains("Sharing to an app"), "\(arguments)")
        }
        let unauthorized = try BuiltBinary.run(["matrix", "--policy", "Examples/policies/unauthorized.json", "--info-plist", "Examples/Info.plist"])
        #expect(unauthorized.stdout.contains("Open In UI: disabled\nOverrides: the Info.plist disables scheme blocking\n"))
    }

    @Test func invalidInputAndUsageErrors() throws {
        let invalid = try BuiltBinary.run(["matrix", "--policy", "Examples/requests.jsonl"])
        #expect(invalid.status == 1)
        #expect(invalid.stdout == "")
        #expect(invalid.stderr.hasPrefix("Error: Examples/requests.jsonl:2:1: not valid JSON: unexpected '{' after the JSON value"))
        let extra = try BuiltBinary.run(["matrix", "--policy", "Examples/AppConnect.plist", "extra"])
        #expect(extra.status == 64)
        #expect(extra.stderr == """
            Error: unexpected argument 'extra': matrix takes only options
            Usage: openin-check matrix --policy FILE [options]
            See 'openin-check matrix --help' for more information.

            """)
        let typo = try BuiltBinary.run(["matrx", "--policy", "x"])
        #expect(typo.status == 64)
        #expect(typo.stderr.hasPrefix("Error: unknown verb 'matrx'. Did you mean 'matrix'?\n"))
    }

    @Test func helpThreeWays() throws {
        let runs = try [["matrix", "-h"], ["matrix", "--help"], ["help", "matrix"]].map { try BuiltBinary.run($0) }
        for run in runs {
            #expect(run.status == 0)
            #expect(run.stdout == runs[0].stdout)
        }
        #expect(runs[0].stdout.hasPrefix("Show a policy at a glance"))
    }
}
