import Foundation
import Testing

/// Each error a newcomer met says what is wrong, where (file:line), and how to fix it: the nearest valid
/// name wherever a name is wrong.
@Suite struct ErrorMessagesEndToEndTests {
    @Test func aTableColumnTypoNamesTheColumnItMeant() throws {
        let policy = try TemporaryFile.write(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.example.viewer"]}"#, name: "p.json")
        let table = try TemporaryFile.write("""
            # T

            Policy: [p](\(URL(fileURLWithPath: policy).lastPathComponent))

            | id | channel | target | outcom |
            |---|---|---|---|
            | a | document-interaction | com.example.viewer | allow |

            """, name: "t.md")
        let run = try BuiltBinary.run(["test", table])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(table):5: this table has 'id', 'channel' columns like a decision table but no 'outcome' column, so none of its rows would run. "
            + "Did you mean 'outcome' for the column 'outcom'? Rename or add it"))
    }

    @Test func aPolicyValueTypoSaysDidYouMean() throws {
        let policy = try TemporaryFile.write(#"{"openInPolicy": "whitelsit", "openInWhitelist": ["com.example.viewer"]}"#, name: "p.json")
        let run = try BuiltBinary.run(["eval", "--policy", policy, "--channel", "document-interaction", "--target", "com.example.viewer"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(policy):1:18: openInPolicy: unknown Open In policy 'whitelsit': use unauthorized, authorized, whitelist, appconnect"))
        #expect(run.stderr.contains(". Did you mean 'whitelist'?"))
    }

    static func acme(replacing old: String, with new: String) throws -> String {
        let text = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("Examples/fleet/acme.json"), encoding: .utf8)
        let range = try #require(text.range(of: old))
        return try TemporaryFile.write(text.replacingCharacters(in: range, with: new), name: "acme.json")
    }

    @Test func aFleetKeyInTheSingularSaysDidYouMean() throws {
        let fleet = try Self.acme(replacing: #""containerPolicies""#, with: #""containerPolicy""#)
        let run = try BuiltBinary.run(["fleet", "lint", "--fleet", fleet])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(fleet):11:3: containerPolicy: unknown key. Did you mean 'containerPolicies'? Known keys: "))
    }

    @Test func aMissingCommaInAFleetIsPointedAtWhereItBelongs() throws {
        let fleet = try Self.acme(replacing: #""openInPolicy": "appconnect","#, with: #""openInPolicy": "appconnect""#)
        let run = try BuiltBinary.run(["fleet", "lint", "--fleet", fleet])
        #expect(run.status == 1)
        #expect(run.stderr.contains(#"\#(fleet):5:33: not valid JSON: a ',' is missing after the value of "openInPolicy", before the next key (line 6, column 5): add ',' here"#))
    }

    @Test func aMissingFleetFileIsCalledAFleetFile() throws {
        for arguments in [["fleet", "paths", "--fleet", "no-such-fleet.json", "--from", "com.acme.hr"], ["fleet", "diff", "no-such-fleet.json", "Examples/fleet/acme.json"]] {
            let run = try BuiltBinary.run(arguments)
            #expect(run.status == 1)
            #expect(run.stderr.hasPrefix("Error: cannot read fleet file 'no-such-fleet.json': no such file or directory"))
        }
    }
}
