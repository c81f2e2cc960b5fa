import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

@Suite("Decision table parser and runner")
struct DecisionTablesTests {
    static let table = """
    # Example

    Some prose. | not a table

    | id | policy | whitelist | context | channel | target | url | outcome | to | callbacks | ui | rule |
    |----|--------|-----------|---------|---------|--------|-----|---------|----|-----------|----|------|
    | half-pair | whitelist | com.apple.mobilemail | - | mail-compose | - | - | deny | - | openInAttemptedWhenACOpenInPolicyBlocked(WHITELIST) | enabled | mail-view.blocked |
    | redirect | `unauthorized` | - | email-plus | open-url | - | `mailto:a@example.com` | redirect | com.mobileiron.ios.emailplus | - | disabled | mailto.email-plus-redirect |
    | bad-url | whitelist | - | - | open-url | - | ` mailto:x` | error | - | - | - | - |

    ```
    | id | outcome |
    |----|---------|
    | inside-a-fence | nonsense |
    ```
    """

    @Test func parsesRowsWithTheirLines() throws {
        let cases = try DecisionTables.parse(Self.table, file: "t.md")
        #expect(cases.map(\.id) == ["half-pair", "redirect", "bad-url"])
        #expect(cases.map(\.line) == [7, 8, 9])
        #expect(cases[1].cells["url"] == "mailto:a@example.com")
        #expect(cases.map(DecisionTables.run).filter { !$0.passed }.isEmpty)
    }

    @Test func aChangedExpectationFailsAtItsFileAndLine() throws {
        let changed = Self.table.replacingOccurrences(of: "| redirect | com.mobileiron", with: "| deny | com.mobileiron")
        let cases = try DecisionTables.parse(changed, file: "Rules/x.md")
        let failures = cases.map(DecisionTables.run).filter { !$0.passed }
        #expect(failures.count == 1)
        #expect(failures.first?.failureMessage == "Rules/x.md:8: redirect: outcome: expected deny, got redirect")
    }

    @Test func anErrorRowFailsWhenTheInputIsValid() throws {
        let changed = Self.table.replacingOccurrences(of: "` mailto:x`", with: "`mailto:x`")
        let result = try DecisionTables.parse(changed, file: "t.md").map(DecisionTables.run)[2]
        #expect(result.failureMessage == "t.md:9: bad-url: outcome: expected error, got deny (rule mailto.blocked)")
    }

    @Test(arguments: [
        ("| id | policy | channel | outcome | colour |\n|-|-|-|-|-|\n| a | whitelist | quick-look | allow | red |",
         "t.md:1: unknown column 'colour'"),
        ("| id | channel | outcome |\n|-|-|-|\n| a | quick-look | allow |",
         "t.md:1: a decision table needs a 'policy' column"),
        ("| id | policy | channel | outcome |\n|-|-|-|-|\n| a | whitelist | quick-look |",
         "t.md:3: this row has 3 cells but the header has 4"),
        ("| id | policy | channel | outcome |\n|-|-|-|-|\n| a | whitelist | mail-compose | allow |\n| a | whitelist | mail-compose | deny |",
         "t.md:4: duplicate id 'a' (first used on line 3)"),
        ("| id | policy | channel | outcome |\n|-|-|-|-|\n| a | whitelist | mail-compose | alow |",
         "t.md:3: unknown outcome 'alow'"),
        ("| id | policy | channel | outcome | rule |\n|-|-|-|-|-|\n| a | whitelist | mail-compose | deny | mail-view.blockd |",
         "t.md:3: unknown rule 'mail-view.blockd': `openin-check rules` lists every rule id. Did you mean 'mail-view.blocked'?"),
        ("| id | policy | context | channel | outcome |\n|-|-|-|-|-|\n| a | whitelist | emailplus | mail-compose | deny |",
         "t.md:3: unknown context setting 'emailplus': settings are not-enforcing, email-plus, email-plus-id=, plist-override, config:KEY=VALUE, handler:SCHEME=ID, app-scheme=, dnd=, appconnect-apps=, open-from=, open-from-whitelist=, pasteboard=, print=, secure-services=, web-dlp=, web-at-work, web-at-work-id=, excluded-activity=, app-custom-keyboards=. Did you mean 'email-plus'?"),
        ("| id | policy | channel | outcome | ui |\n|-|-|-|-|-|\n| a | whitelist | mail-compose | deny | |",
         "t.md:3: the 'ui' cell is empty: write '-' for none"),
    ])
    func malformedTablesAreErrorsWithFileAndLine(_ text: String, _ prefix: String) {
        #expect(throws: TableError.self) { try DecisionTables.parse(text, file: "t.md") }
        do {
            _ = try DecisionTables.parse(text, file: "t.md")
        } catch {
            #expect(error.description.hasPrefix(prefix), "\(error.description)")
        }
    }

    @Test func invalidInputInARowIsAFailureNotAnAllow() throws {
        let text = "| id | policy | channel | target | outcome |\n|-|-|-|-|-|\n| a | authorized | quick-look | com.bad id | allow |"
        let result = try DecisionTables.parse(text, file: "t.md").map(DecisionTables.run)[0]
        #expect(result.failureMessage == "t.md:3: a: outcome: expected allow, got error: malformed bundle ID 'com.bad id': it contains a space")
    }

    @Test(arguments: [
        // Shaped like a decision table, so skipping it would check nothing.
        ("| id | policy | channel | result |\n|-|-|-|-|\n| a | whitelist | quick-look | allow |",
         "t.md:1: this table has 'id', 'policy', 'channel' columns like a decision table but no 'outcome' column, so none of its rows would run. Add it, or rename the other columns if it is not a decision table"),
        ("| name | policy | channel | outcome |\n|-|-|-|-|\n| a | whitelist | quick-look | allow |",
         "t.md:1: this table has 'policy', 'channel', 'outcome' columns like a decision table but no 'id' column, so none of its rows would run. Add it, or rename the other columns if it is not a decision table"),
        ("| id | policy | channel | outcome |\n|-|-|-|-|\n\nprose",
         "t.md:1: this decision table has no rows: add a row under the delimiter line, or remove the table"),
        // Fences: one never closed hides every table after it; one closed with the other character is a typo.
        ("text\n```sh\ncode\n\n| id | policy | channel | outcome |\n|-|-|-|-|\n| a | whitelist | quick-look | allow |",
         "t.md:2: this ``` code block is never closed, so nothing after it is read: close it with a ``` line"),
        ("```\ncode\n~~~\n| id | policy | channel | outcome |\n|-|-|-|-|\n| a | whitelist | quick-look | allow |",
         "t.md:3: this ~~~ line does not close the ``` code block opened on line 1: close a block with the characters that opened it"),
        // A tab-indented row is code to Markdown, and used to end the table without a word.
        ("| id | policy | channel | outcome |\n|-|-|-|-|\n| a | whitelist | mail-compose | deny |\n\t| b | whitelist | quick-look | allow |",
         "t.md:4: this table row is indented with a tab, which Markdown reads as code, not as a row: indent it with spaces, or not at all"),
    ])
    func silentSkipsAreErrors(_ text: String, _ message: String) {
        #expect(throws: TableError.self) { try DecisionTables.parse(text, file: "t.md") }
        do {
            _ = try DecisionTables.parse(text, file: "t.md")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func fencesOfAnotherLengthOrWithAnInfoStringAreContent() throws {
        let text = "````markdown\n```\n| id | outcome |\n|-|-|\n```\n````\n| id | policy | channel | outcome |\n|-|-|-|-|\n| a | whitelist | mail-compose | deny |"
        #expect(try DecisionTables.parse(text, file: "t.md").map(\.id) == ["a"])
    }

    @Test func windowsLineEndingsReadLikeUnixOnes() throws {
        let unix = try DecisionTables.parse(Self.table, file: "t.md")
        let windows = try DecisionTables.parse(Self.table.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n", file: "t.md")
        #expect(windows == unix)
        #expect(windows.count == 3)
    }

    @Test func aMissingPathIsAnError() {
        #expect(throws: TableError(file: "/nonexistent/rules", line: 0, message: "no such file or directory")) {
            try DecisionTables.load(paths: ["/nonexistent/rules"])
        }
    }
}

@Suite("Callbacks cells")
struct CallbacksCellTests {
    @Test func aURLArgumentMayHoldSemicolons() throws {
        let text = """
            | id | policy | channel | url | outcome | callbacks |
            |-|-|-|-|-|-|
            | a | unauthorized | open-url | mailto:a@example.com;b@example.com | deny | openURLAttemptedWhenUnauthorizedForURL(mailto:a@example.com;b@example.com) |
            """
        let results = try DecisionTables.parse(text, file: "t.md").map(DecisionTables.run)
        #expect(results.map(\.mismatches) == [[]])
    }

    @Test func cellsSplitWhereANewCallbackStarts() {
        let names = ["openURLAttemptedWhenUnauthorizedForURL", "appConnectAttemptedDragAndDropToNonAppConnectApp"]
        #expect(DecisionTables.splitCallbacks("openURLAttemptedWhenUnauthorizedForURL(x:a;b); appConnectAttemptedDragAndDropToNonAppConnectApp", names: names)
                == ["openURLAttemptedWhenUnauthorizedForURL(x:a;b)", "appConnectAttemptedDragAndDropToNonAppConnectApp"])
    }
}
