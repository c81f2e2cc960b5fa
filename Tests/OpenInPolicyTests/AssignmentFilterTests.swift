import Foundation
import Testing
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInKit

/// The managed-app filter language: rules Microsoft's reference writes are read and decided, anything
/// else is refused with the filter, the character in the rule and the fix.
@Suite("Assignment filters")
struct AssignmentFilterTests {
    static func filter(_ rule: String) throws -> AssignmentFilter {
        try AssignmentFilter(id: "f1", displayName: "F", rule: rule, file: "devices.json", line: 3)
    }

    /// The refusal of `rule`, as printed; `nil` when it parses.
    static func refusal(_ rule: String) -> String? {
        let result = Result { () throws(FleetError) in try AssignmentFilter(id: nil, displayName: "F", rule: rule, file: "devices.json", line: 3) }
        if case .failure(let error) = result { return error.description }
        return nil
    }

    static let iPhone = FilterSubject(deviceManagementType: "Unmanaged", appVersion: "4.2101.1", deviceManufacturer: "Apple", deviceModel: "iPhone15,2",
                                      osVersion: "17.4.1", operatingSystemVersion: "17.4.1")
    static let iPad = FilterSubject(deviceManagementType: "Managed", appVersion: "", deviceManufacturer: "Apple", deviceModel: "iPad13,1",
                                    osVersion: "16.7", operatingSystemVersion: "16.7")

    static func decide(_ rule: String, _ subject: FilterSubject) throws -> Bool { try filter(rule).matches(subject, device: "d") }

    @Test("the reference's examples, with and without dashes, in any case")
    func referenceExamples() throws {
        #expect(try Self.decide(#"(app.deviceManagementType -eq "Unmanaged")"#, Self.iPhone))
        #expect(try !Self.decide(#"(app.deviceManagementType -eq "Unmanaged")"#, Self.iPad))
        #expect(try Self.decide(#"(APP.DEVICEMANAGEMENTTYPE EQ "unmanaged")"#, Self.iPhone))
        #expect(try Self.decide(#"app.deviceManagementType ne "Managed""#, Self.iPhone))
        #expect(try Self.decide(#"(app.appVersion -eq "4.2101.1")"#, Self.iPhone))
        #expect(try Self.decide(#"(app.deviceModel -in ["iPhone15,2", "iPad13,1"])"#, Self.iPad))
        #expect(try !Self.decide(#"(app.deviceModel -notIn ["IPHONE15,2","x"])"#, Self.iPhone))
        #expect(try Self.decide(#"(app.deviceModel -startsWith "ipad")"#, Self.iPad))
        #expect(try !Self.decide(#"(app.deviceModel startswith "iPad")"#, Self.iPhone))
        #expect(try Self.decide(#"(app.deviceManufacturer -contains "PPL")"#, Self.iPhone))
        #expect(try Self.decide(#"(app.deviceManufacturer -notContains "Samsung")"#, Self.iPhone))
        #expect(try Self.decide(#"(app.osVersion -startsWith "17")"#, Self.iPhone))
    }

    @Test("Null and $Null: the device reports no value")
    func null() throws {
        #expect(try Self.decide(#"(app.appVersion -eq $Null)"#, Self.iPad))
        #expect(try !Self.decide(#"(app.appVersion -eq null)"#, Self.iPhone))
        #expect(try Self.decide(#"(app.appVersion -ne NULL)"#, Self.iPhone))
    }

    @Test("operatingSystemVersion compares as versions, bare or quoted")
    func versions() throws {
        #expect(try Self.decide("(app.operatingSystemVersion -ge 17.4)", Self.iPhone))
        #expect(try !Self.decide("(app.operatingSystemVersion -ge 17.4)", Self.iPad))
        #expect(try Self.decide(#"(app.operatingSystemVersion -gt "16.10")"#, Self.iPhone))
        #expect(try !Self.decide("(app.operatingSystemVersion -gt 16.10)", Self.iPad))  // 16.7 < 16.10: numbers, not text
        #expect(try Self.decide("(app.operatingSystemVersion -eq 16.7.0)", Self.iPad))
        #expect(try Self.decide("(app.operatingSystemVersion -lt 17)", Self.iPad))
        #expect(try Self.decide("(app.operatingSystemVersion le 16.7)", Self.iPad))
        #expect(try Self.decide("(app.operatingSystemVersion -ne 16.7.1)", Self.iPad))
    }

    @Test("-and, -or and nested parentheses")
    func connectives() throws {
        let rule = #"((app.deviceManufacturer -eq "Apple") -and (app.osVersion -startsWith "17")) -or (app.deviceManagementType -eq "Managed")"#
        #expect(try Self.decide(rule, Self.iPhone))
        #expect(try Self.decide(rule, Self.iPad))
        #expect(try !Self.decide(rule, FilterSubject(deviceManagementType: "Unmanaged", deviceManufacturer: "Apple", osVersion: "16.1")))
        #expect(try !Self.decide(#"(app.deviceModel -eq "a") and (app.deviceModel -eq "iPhone15,2") -and (app.osVersion -eq "17.4.1")"#, Self.iPhone))
        #expect(try Self.decide(#"(app.deviceModel -eq "a") or (app.deviceModel -eq "b") -or (app.osVersion -eq "17.4.1")"#, Self.iPhone))
        #expect(try Self.filter(rule).properties == [.deviceManufacturer, .osVersion, .deviceManagementType])
    }

    @Test("a property the rule reads and the device does not give is an error, even where a short-circuit would skip it")
    func missingProperty() throws {
        let filter = try Self.filter(#"(app.deviceManagementType -eq "Managed") -or (app.appVersion -eq "1")"#)
        let subject = FilterSubject(deviceManagementType: "Managed")
        let result = Result { () throws(FleetError) in try filter.matches(subject, device: "ceo-iphone") }
        #expect(throws: FleetError(#"assignment filter "F" reads app.appVersion, and device "ceo-iphone" does not give its appVersion: give it in the devices file (a filter is never evaluated on a guess)"#, file: "devices.json", line: 3)) {
            try result.get()
        }
        let versions = try Self.filter("(app.operatingSystemVersion -gt 17)")
        #expect(throws: FleetError(#"assignment filter "F" on device "d": its operatingSystemVersion "seventeen" is not a version (one to four numbers separated by dots)"#, file: "devices.json", line: 3)) {
            try versions.matches(FilterSubject(operatingSystemVersion: "seventeen"), device: "d")
        }
        #expect(throws: FleetError(#"assignment filter "F" on device "d": its app's deviceManagementType is "MDM", not Managed or Unmanaged"#, file: "devices.json", line: 3)) {
            try Self.filter(#"(app.deviceManagementType -eq "Managed")"#).matches(FilterSubject(deviceManagementType: "MDM"), device: "d")
        }
    }

    @Test("rules outside the language are refused with the character and the fix", arguments: [
        ("", "character 1: the rule is empty: write a clause such as (app.deviceManagementType -eq \"Unmanaged\")"),
        ("(app.model -eq \"x\")", "character 2: unknown property 'app.model': managed-app filters use app.deviceManagementType, app.appVersion, app.deviceManufacturer, app.deviceModel, app.osVersion, app.operatingSystemVersion."),
        ("(app.deviceModl -eq \"x\")", "character 2: unknown property 'app.deviceModl': managed-app filters use app.deviceManagementType, app.appVersion, app.deviceManufacturer, app.deviceModel, app.osVersion, app.operatingSystemVersion. Did you mean 'app.deviceModel'?"),
        ("(device.model -eq \"x\")", "character 2: device.model is a managed-device property: app protection policies take managed-app filters, whose properties are app.deviceManagementType, app.appVersion, app.deviceManufacturer, app.deviceModel, app.osVersion, app.operatingSystemVersion"),
        ("(app.deviceModel -like \"x\")", "character 18: unknown operator '-like': app.deviceModel takes -eq, -ne, -in, -notIn, -startsWith, -contains, -notContains."),
        ("(app.deviceModel -startWith \"x\")", "character 18: unknown operator '-startWith': app.deviceModel takes -eq, -ne, -in, -notIn, -startsWith, -contains, -notContains. Did you mean 'startsWith'?"),
        ("(app.deviceManagementType -contains \"Man\")", "character 27: app.deviceManagementType does not take -contains: Microsoft's filter reference lists -eq, -ne for it"),
        ("(app.appVersion -gt \"1.0\")", "character 17: app.appVersion does not take -gt: Microsoft's filter reference lists -eq, -ne, -in, -notIn, -startsWith, -contains, -notContains for it"),
        ("(app.deviceModel -eq iPad)", "character 22: the value 'iPad' has no quotes: write it as \"iPad\" (values are double-quoted strings; Null and $Null stand alone)"),
        ("(app.deviceModel -eq 'iPad')", "character 22: values are written in double quotes (\"…\"), not single quotes"),
        ("(app.deviceModel -eq \"iPad)", "character 22: the string starting at character 22 has no closing '\"': add it"),
        ("(app.deviceModel -eq \"a\") extra", "character 27: unexpected 'extra' after a complete clause: join clauses with -and or -or (or and, or), or end the rule"),
        ("(app.deviceModel -eq \"a\"))", "character 26: ')' closes no '(': remove it or add the '(' it closes"),
        ("((app.deviceModel -eq \"a\")", "character 27: the '(' at character 1 is never closed: add ')'"),
        ("(app.deviceModel -eq \"a\") -and (app.osVersion -eq \"1\") -or (app.appVersion -eq \"2\")",
         "character 56: '-or' follows '-and' in one group: Microsoft's filter reference does not say whether -and binds tighter than -or, so a rule that mixes them must group them with parentheses, such as (A -and B) -or C"),
        ("(app.deviceModel -eq \"a\") -and", "character 31: the rule ends where a clause should start: write app.<property> <operator> <value>"),
        ("(app.deviceModel -eq)", "character 21: expected a value in double quotes, found ')'"),
        ("(app.deviceModel)", "character 17: expected an operator after app.deviceModel, found ')': use -eq, -ne, -in, -notIn, -startsWith, -contains, -notContains"),
        ("(app.deviceModel -startsWith $Null)", "character 30: Null is a value for -eq and -ne only (Microsoft's reference: \"Null or $Null as a value with the -Equals and -NotEquals operators\")"),
        ("(app.deviceManagementType -eq \"Android Enterprise\")", "character 31: app.deviceManagementType on iOS is \"Managed\" or \"Unmanaged\", not \"Android Enterprise\" (the other values Microsoft lists are Android's)"),
        ("(app.deviceManagementType -eq Null)", "character 31: app.deviceManagementType is always Managed or Unmanaged on iOS: compare it with \"Managed\" or \"Unmanaged\", not Null"),
        ("(app.deviceModel -in \"iPad\")", "character 22: -in takes a list in brackets, such as [\"a\",\"b\"]"),
        ("(app.deviceModel -eq [\"iPad\"])", "character 22: a list is a value for -in and -notIn only: -eq takes one value in double quotes"),
        ("(app.deviceModel -notIn [])", "character 25: the list is empty: -in and -notIn take at least one value, such as [\"a\",\"b\"]"),
        ("(app.deviceModel -in [\"a\" \"b\"])", "character 27: expected ',' or ']' in the list, found '\"'"),
        ("(app.deviceModel -in [\"a\",", "character 22: the list starting at character 22 has no closing ']': add it"),
        ("(app.operatingSystemVersion -gt \"latest\")", "character 33: app.operatingSystemVersion compares versions: \"latest\" is not one (write one to four numbers separated by dots, such as 17.4.1)"),
        ("(app.operatingSystemVersion -gt 1.2.3.4.5)", "character 33: app.operatingSystemVersion compares versions: \"1.2.3.4.5\" is not one (write one to four numbers separated by dots, such as 17.4.1)"),
    ])
    func refused(_ rule: String, _ expected: String) {
        #expect(Self.refusal(rule) == "devices.json:3: assignment filter \"F\": rule, \(expected)")
    }

    @Test("Unicode look-alikes are named, never read as the ASCII they resemble", arguments: [
        ("(app.deviceModel \u{2013}eq \"x\")", "character 18: expected an operator after app.deviceModel, found '\u{2013}' (U+2013 EN DASH), which is not ASCII (a look-alike of '-'?): use -eq, -ne, -in, -notIn, -startsWith, -contains, -notContains"),
        ("(app.deviceModel -eq \u{201C}x\u{201D})", "character 22: expected a value in double quotes, found '\u{201C}' (U+201C LEFT DOUBLE QUOTATION MARK), which is not ASCII (a look-alike of '\"'?)"),
        ("(app.deviceModel\u{00A0}-eq \"x\")", "character 17: expected an operator after app.deviceModel, found (U+00A0 NO-BREAK SPACE), which is not ASCII (a look-alike of a space?): use -eq, -ne, -in, -notIn, -startsWith, -contains, -notContains"),
        ("(\u{0430}pp.deviceModel -eq \"x\")", "character 2: expected a property such as app.deviceModel, found '\u{0430}' (U+0430 CYRILLIC SMALL LETTER A), which is not ASCII (a look-alike of an ASCII character?)"),
        ("(app.deviceModel -\u{0435}q \"x\")", "character 19: expected an operator after app.deviceModel, found '\u{0435}' (U+0435 CYRILLIC SMALL LETTER IE), which is not ASCII (a look-alike of an ASCII character?): use -eq, -ne, -in, -notIn, -startsWith, -contains, -notContains"),
        ("(app.deviceModel -e\u{0071}\u{0301} \"x\")", "character 21: (U+0301 COMBINING ACUTE ACCENT), which is not ASCII (a look-alike of an ASCII character?) inside the operator 'eq…': write it in ASCII"),
        ("(app.deviceModel -eq \"x\") \u{FF0D}and (app.osVersion -eq \"1\")", "character 27: unexpected '\u{FF0D}' (U+FF0D FULLWIDTH HYPHEN-MINUS), which is not ASCII (a look-alike of '-'?) after a complete clause: join clauses with -and or -or (or and, or), or end the rule"),
    ])
    func lookalikes(_ rule: String, _ expected: String) {
        #expect(Self.refusal(rule) == "devices.json:3: assignment filter \"F\": rule, \(expected)")
    }

    @Test("Unicode inside a quoted value is kept and compared as written")
    func unicodeValues() throws {
        let subject = FilterSubject(deviceModel: "iPhone\u{2013}Pro")
        #expect(try Self.decide("(app.deviceModel -eq \"iPhone\u{2013}Pro\")", subject))
        #expect(try !Self.decide("(app.deviceModel -eq \"iPhone-Pro\")", subject))
    }

    @Test("nesting is bounded: 32 levels read, 33 refused, 200,000 refused without exhausting the stack")
    func depth() throws {
        func nested(_ depth: Int) -> String { String(repeating: "(", count: depth) + "app.deviceModel -eq \"iPhone15,2\"" + String(repeating: ")", count: depth) }
        #expect(FilterRuleParser.maximumDepth == 32)
        #expect(try Self.decide(nested(32), Self.iPhone))
        #expect(Self.refusal(nested(33)) == "devices.json:3: assignment filter \"F\": rule, character 33: parentheses nest more than 32 deep: the reader refuses deeper rules; remove the redundant parentheses")
        #expect(Self.refusal(nested(200_000)) == "devices.json:3: assignment filter \"F\": rule, character 33: parentheses nest more than 32 deep: the reader refuses deeper rules; remove the redundant parentheses")
        #expect(Self.refusal(String(repeating: "(", count: 200_000))?.hasSuffix("character 33: parentheses nest more than 32 deep: the reader refuses deeper rules; remove the redundant parentheses") == true)
    }

    @Test("a 1 MB rule reads and decides in one pass")
    func megabyte() throws {
        let clause = #"(app.deviceModel -eq "iPad99,9") -or "#
        let count = (1 << 20) / clause.utf8.count
        let rule = String(repeating: clause, count: count) + #"(app.deviceModel -eq "iPhone15,2")"#
        #expect(rule.utf8.count > 1 << 20)
        let clock = ContinuousClock()
        let start = clock.now
        let filter = try Self.filter(rule)
        #expect(try filter.matches(Self.iPhone, device: "d"))
        #expect(try !filter.matches(Self.iPad, device: "d"))
        // A 1 MB value, and a 1 MB rule with its error at the end (the character counted once, at the error).
        let long = String(repeating: "x", count: 1 << 20)
        #expect(try !Self.decide("(app.deviceModel -contains \"\(long)\")", Self.iPhone))
        #expect(Self.refusal(String(repeating: clause, count: count) + "(app.deviceModel -eq \"a\"") != nil)
        // A hostile pair for a naive search: a 1 MB model of "a" and a 512 KB needle of "a…ab".
        let model = FilterSubject(deviceModel: String(repeating: "a", count: 1 << 20))
        let needle = String(repeating: "a", count: 1 << 19) + "b"
        #expect(try !Self.decide("(app.deviceModel -contains \"\(needle)\")", model))
        #expect(try Self.decide("(app.deviceModel -notContains \"\(needle)\")", model))
        #expect(try Self.decide("(app.deviceModel -contains \"\(needle.dropLast())\")", model))
        #expect(ExactText.contains(bytes: Array("abcabd".utf8), Array("abd".utf8)) && ExactText.contains(bytes: Array("aab".utf8), Array("ab".utf8)))
        #expect(!ExactText.contains(bytes: Array("abcab".utf8), Array("abd".utf8)) && ExactText.contains(bytes: Array("x".utf8), []))
        #expect(clock.now - start < .seconds(30))
    }

    // MARK: reading filter objects

    static func read(_ json: String) throws -> AssignmentFilter {
        let value = try JSONReader().read(Array(json.utf8))
        return try AssignmentFilter.read(JSONCursor(value, path: "", position: JSONPosition(line: 1, column: 1)), file: "Filters/f.json")
    }

    static func readError(_ json: String) -> String? {
        do {
            _ = try read(json)
            return nil
        } catch {
            return "\(error)"
        }
    }

    static let graphFilter = """
        {
          "@odata.type": "#microsoft.graph.deviceAndAppManagementAssignmentFilter",
          "id": "9a7f…",
          "displayName": "iOS unmanaged",
          "description": null,
          "platform": "iOSMobileApplicationManagement",
          "rule": "(app.deviceManagementType -eq \\"Unmanaged\\")",
          "roleScopeTags": ["0"],
          "payloads": [],
          "assignmentFilterManagementType": "apps"
        }
        """

    @Test("Graph's filter object, IntuneCD's (no id) and the devices file's entry read")
    func readsShapes() throws {
        let graph = try Self.read(Self.graphFilter)
        #expect(graph.id == "9a7f…" && graph.displayName == "iOS unmanaged" && graph.rule == #"(app.deviceManagementType -eq "Unmanaged")"#)
        #expect(try graph.matches(Self.iPhone, device: "d") && !graph.matches(Self.iPad, device: "d"))
        #expect(graph.file == "Filters/f.json" && graph.line == 1)
        let intuneCD = try Self.read(Self.graphFilter.replacingOccurrences(of: "\"id\": \"9a7f…\",", with: ""))
        #expect(intuneCD.id == nil && intuneCD.displayName == "iOS unmanaged")
        let entry = try Self.read(#"{"id": "f2", "displayName": "Old iOS", "rule": "(app.operatingSystemVersion -lt 17)"}"#)
        #expect(entry.id == "f2" && entry.properties == [.operatingSystemVersion])
    }

    @Test("filters for devices or other platforms, unknown keys and bad rules are refused at their line", arguments: [
        ("\"platform\": \"iOSMobileApplicationManagement\"", "\"platform\": \"iOS\"",
         "Filters/f.json:6:15: platform: is \"iOS\", a filter for managed devices: Microsoft Learn, \"Supported workloads when creating filters\": for managed devices, filters aren't supported for app protection policies; an iOS app protection policy takes a filter whose platform is iOSMobileApplicationManagement and assignmentFilterManagementType apps"),
        ("\"platform\": \"iOSMobileApplicationManagement\"", "\"platform\": \"androidMobileApplicationManagement\"",
         "Filters/f.json:6:15: platform: is \"androidMobileApplicationManagement\", a filter for another platform's app protection: Microsoft Learn, \"Supported workloads when creating filters\": for managed devices, filters aren't supported for app protection policies; an iOS app protection policy takes a filter whose platform is iOSMobileApplicationManagement and assignmentFilterManagementType apps"),
        ("\"assignmentFilterManagementType\": \"apps\"", "\"assignmentFilterManagementType\": \"devices\"",
         "Filters/f.json:10:37: assignmentFilterManagementType: is \"devices\", not apps: Microsoft Learn, \"Supported workloads when creating filters\": for managed devices, filters aren't supported for app protection policies; an iOS app protection policy takes a filter whose platform is iOSMobileApplicationManagement and assignmentFilterManagementType apps"),
        ("\"platform\": \"iOSMobileApplicationManagement\",", "",
         "Filters/f.json:1:1: has no platform: Microsoft Learn, \"Supported workloads when creating filters\": for managed devices, filters aren't supported for app protection policies; an iOS app protection policy takes a filter whose platform is iOSMobileApplicationManagement and assignmentFilterManagementType apps"),
        ("\"payloads\": []", "\"payload\": []", "Filters/f.json:9:3: payload: unknown key in an assignment filter. Did you mean 'payloads'? Known keys: @odata.type, id, displayName, rule, platform, assignmentFilterManagementType, description, createdDateTime, lastModifiedDateTime, roleScopeTags, roleScopeTagIds, payloads"),
        ("Unmanaged", "Unmanagd", "Filters/f.json:7:11: rule: character 31 of the rule: app.deviceManagementType on iOS is \"Managed\" or \"Unmanaged\", not \"Unmanagd\" (the other values Microsoft lists are Android's)"),
        ("#microsoft.graph.deviceAndAppManagementAssignmentFilter", "#microsoft.graph.deviceManagementConfigurationPolicy",
         "Filters/f.json:2:18: @odata.type: unknown @odata.type \"#microsoft.graph.deviceManagementConfigurationPolicy\": an assignment filter is #microsoft.graph.deviceAndAppManagementAssignmentFilter."),
        ("\"displayName\": \"iOS unmanaged\",", "", "Filters/f.json:1:1: has no displayName: an assignment filter is {\"id\", \"displayName\", \"rule\"} (policies name it by id, or, as IntuneCD writes, by display name)"),
        ("\"roleScopeTags\": [\"0\"]", "\"roleScopeTags\": [0]", "Filters/f.json:8:21: roleScopeTags[0]: must be a string, not the number 0"),
    ])
    func readRefusals(_ from: String, _ to: String, _ expected: String) {
        #expect(Self.readError(Self.graphFilter.replacingOccurrences(of: from, with: to)) == expected)
    }
}

@Suite("Assignment filter sets")
struct AssignmentFiltersTests {
    static func filters(_ json: String) throws -> [AssignmentFilter] {
        try AssignmentFilters.read(JSONCursor(try JSONReader().read(Array(json.utf8)), position: JSONPosition(line: 1, column: 1)), file: "f.json")
    }

    @Test("a list response, an array or one object; looked up by id, then by display name")
    func lookups() throws {
        let list = #"{"@odata.context": "x", "value": [{"id": "a1", "displayName": "Unmanaged", "rule": "(app.deviceManagementType -eq \"Unmanaged\")"}, {"displayName": "a1", "rule": "(app.deviceModel -eq \"x\")"}]}"#
        let set = try AssignmentFilters(try Self.filters(list))
        #expect(set.all.map(\.displayName) == ["Unmanaged", "a1"])
        #expect(set.filter(named: "a1")?.displayName == "Unmanaged")  // an id wins over a name
        #expect(set.filter(named: "Unmanaged")?.id == "a1")
        #expect(set.filter(named: "unmanaged") == nil)  // names compare byte for byte
        #expect(try Self.filters(#"[{"displayName": "X", "rule": "app.osVersion -eq \"1\""}]"#).count == 1)
        #expect(try Self.filters(#"{"displayName": "X", "rule": "app.osVersion -eq \"1\""}"#).count == 1)
    }

    @Test("a repeated id or display name is refused; a partial list too")
    func refusals() throws {
        let twice = try Self.filters(#"[{"id": "a", "displayName": "X", "rule": "app.osVersion -eq \"1\""}, {"id": "b", "displayName": "X", "rule": "app.osVersion -eq \"2\""}]"#)
        #expect(throws: FleetError(#"two assignment filters are named "X" (the first (f.json:1)): a reference by name (as IntuneCD writes them) would be ambiguous; rename one"#, file: "f.json", line: 1)) {
            try AssignmentFilters(twice)
        }
        let sameID = try Self.filters(#"[{"id": "a", "displayName": "X", "rule": "app.osVersion -eq \"1\""}, {"id": "a", "displayName": "Y", "rule": "app.osVersion -eq \"2\""}]"#)
        #expect(throws: FleetError(#"assignment filters "X" (f.json:1) and "Y" have the same id "a": keep one"#, file: "f.json", line: 1)) {
            try AssignmentFilters(sameID)
        }
        #expect(throws: FormatError("@odata.nextLink: the list of assignment filters is one page of several: fetch every page (follow each @odata.nextLink) and save them all", at: JSONPosition(line: 1, column: 1), file: "f.json")) {
            try Self.filters(#"{"value": [], "@odata.nextLink": "https://graph.microsoft.com/beta/deviceManagement/assignmentFilters?$skiptoken=x"}"#)
        }
    }
}
