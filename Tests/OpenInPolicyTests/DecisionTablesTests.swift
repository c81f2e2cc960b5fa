import Testing
@testable import OpenInPolicy

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
         "t.md:3: unknown rule 'mail-view.blockd' (did you mean 'mail-view.blocked'?)"),
        ("| id | policy | context | channel | outcome |\n|-|-|-|-|-|\n| a | whitelist | emailplus | mail-compose | deny |",
         "t.md:3: unknown context setting 'emailplus' (did you mean 'email-plus'?)"),
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
