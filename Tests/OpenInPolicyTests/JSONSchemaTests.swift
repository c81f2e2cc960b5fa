import Foundation
import OpenInPolicy
import Testing

/// Examples/schemas: every example validates against its schema, and the readers refuse what the schemas
/// refuse (each required key left out, each unknown key, each value outside an enum, each wrong type).
@Suite struct JSONSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A schema, its examples, and the reader of that kind of file.
    struct Kind: Sendable, CustomTestStringConvertible {
        let schema: String
        let examples: [String]
        let read: @Sendable ([UInt8], String) throws -> Void
        var testDescription: String { schema }
    }

    static func files(_ folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
    }

    static let kinds: [Kind] = [
        Kind(schema: "Examples/schemas/policy.schema.json",
             examples: files("Examples/policies") + files("Examples/diff") + files("Examples/lint").filter { !$0.hasSuffix("mistakes.json") },
             read: { bytes, file in _ = try PolicyFile.read(bytes, file: file) }),
        Kind(schema: "Examples/schemas/fleet.schema.json", examples: files("Examples/fleet").filter { !$0.contains("-baseline") },
             read: { bytes, file in _ = try FleetJSON.read(bytes, file: file) }),
        Kind(schema: "Examples/schemas/intune-devices.schema.json",
             examples: ["Examples/intune/devices.json", "Examples/intune/lint-devices.json", "Examples/intune/framework-devices.json"],
             read: { bytes, file in _ = try IntuneDevicesJSON.read(bytes, file: file) }),
    ]

    static func json(_ path: String) throws -> JSONValue {
        let bytes = try Array(Data(contentsOf: root.appendingPathComponent(path)))
        return try JSONReader().read(bytes)
    }

    @Test(arguments: kinds) func everyExampleValidates(kind: Kind) throws {
        let schema = try Self.json(kind.schema)
        guard case .object(let object) = schema else { Issue.record("\(kind.schema) is not an object"); return }
        #expect(object["$schema"] == .string("https://json-schema.org/draft/2020-12/schema"))
        let validator = JSONSchemaSubset(root: schema)
        #expect(kind.examples.count >= 1)
        for example in kind.examples {
            var visits: [JSONSchemaSubset.Visit] = []
            let errors = validator.errors(try Self.json(example), visits: &visits)
            #expect(errors.isEmpty, "\(example): \(errors)")
            // The reader reads it, with "$schema" first as the README of Examples/schemas says.
            let bytes = try Array(Data(contentsOf: Self.root.appendingPathComponent(example)))
            try kind.read(bytes, example)
            let text = String(decoding: bytes, as: UTF8.self)
            let brace = try #require(text.firstIndex(of: "{"))
            let withSchema = String(text[...brace]) + "\"$schema\": \"../schemas/x.schema.json\", " + text[text.index(after: brace)...]
            try kind.read(Array(withSchema.utf8), example)
        }
    }

    @Test func theValidatorRefusesWhatItShould() throws {
        let schema = try Self.json("Examples/schemas/policy.schema.json")
        let validator = JSONSchemaSubset(root: schema)
        var visits: [JSONSchemaSubset.Visit] = []
        let cases: [(String, String)] = [
            (#"{"openInWhitelist": []}"#, "(root): openInPolicy is required"),
            (#"{"openInPolicy": "whitelsit"}"#, ".openInPolicy: matches none of the anyOf choices"),
            (#"{"openInPolicy": 3}"#, ".openInPolicy: matches none of the anyOf choices"),
            (#"{"openInPolicy": "ACOpenInPolicyWhitelist", "enforcing": "yes"}"#, ".enforcing: must be of type boolean, not a string"),
            (#"{"openInPolicy": 2, "device": {"emailPlus": true}}"#, ".device: unknown key emailPlus"),
        ]
        for (text, expected) in cases {
            let errors = validator.errors(try JSONReader().read(Array(text.utf8)), visits: &visits)
            #expect(errors == [expected], "\(text): \(errors)")
        }
    }

    /// The readers and the schemas agree: from each example, every object the schema constrains is
    /// mutated as the schema forbids (a required key removed, an unknown key added, a value outside an
    /// enum, a boolean given as a string), and the reader refuses each, naming the key.
    @Test(arguments: kinds) func theReaderRefusesWhatTheSchemaRefuses(kind: Kind) throws {
        let schema = try Self.json(kind.schema)
        let validator = JSONSchemaSubset(root: schema)
        var checked = 0
        for example in kind.examples {
            let instance = try Self.json(example)
            var visits: [JSONSchemaSubset.Visit] = []
            _ = validator.errors(instance, visits: &visits)
            for visit in visits {
                var mutations: [(what: String, key: String, value: JSONValue)] = []
                if case .array(let required)? = visit.schema["required"] {
                    for case .string(let key) in required { mutations.append(("without \(key)", key, Self.removing(key, at: visit.path, in: instance))) }
                }
                if case .bool(false)? = visit.schema["additionalProperties"] {
                    mutations.append(("with an unknown key", "zzUnknownKey", Self.setting("zzUnknownKey", .bool(true), at: visit.path, in: instance)))
                }
                if case .object(let properties)? = visit.schema["properties"] {
                    for member in properties.members where Self.instanceHas(member.key, at: visit.path, in: instance) {
                        guard case .object(let property) = validator.resolve(member.value) else { continue }
                        if property["enum"] != nil || property["anyOf"] != nil {
                            mutations.append(("\(member.key) outside its values", member.key, Self.setting(member.key, .string("zz-not-a-value"), at: visit.path, in: instance)))
                        }
                        if property["type"] == .string("boolean") {
                            mutations.append(("\(member.key) as a string", member.key, Self.setting(member.key, .string("yes"), at: visit.path, in: instance)))
                        }
                    }
                }
                for mutation in mutations {
                    var ignored: [JSONSchemaSubset.Visit] = []
                    #expect(!validator.errors(mutation.value, visits: &ignored).isEmpty, "the schema accepts \(example) \(mutation.what)")
                    do {
                        try kind.read(Array(JSONWriter.pretty(mutation.value).utf8), example)
                        Issue.record("the reader accepts \(example) at \(JSONSchemaSubset.describe(visit.path)) \(mutation.what), which the schema refuses")
                    } catch {
                        #expect("\(error)".contains(mutation.key), "\(example) \(mutation.what): \(error)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked >= 10, "\(checked) mutations")
    }

    static func instanceHas(_ key: String, at path: [JSONSchemaSubset.PathStep], in value: JSONValue) -> Bool {
        guard case .object(let object) = at(path, in: value) else { return false }
        return object[key] != nil
    }

    static func at(_ path: [JSONSchemaSubset.PathStep], in value: JSONValue) -> JSONValue? {
        var current = value
        for step in path {
            switch (step, current) {
            case (.key(let key), .object(let object)): guard let next = object[key] else { return nil }; current = next
            case (.index(let index), .array(let array)): guard index < array.count else { return nil }; current = array[index]
            default: return nil
            }
        }
        return current
    }

    static func removing(_ key: String, at path: [JSONSchemaSubset.PathStep], in value: JSONValue) -> JSONValue {
        transform(value, at: path) { object in JSONObject(members: object.members.filter { $0.key != key }) }
    }

    static func setting(_ key: String, _ new: JSONValue, at path: [JSONSchemaSubset.PathStep], in value: JSONValue) -> JSONValue {
        transform(value, at: path) { object in
            var members = object.members.filter { $0.key != key }
            let position = object.members.firstIndex { $0.key == key } ?? members.endIndex
            members.insert(.init(key, new), at: min(position, members.endIndex))
            return JSONObject(members: members)
        }
    }

    static func transform(_ value: JSONValue, at path: [JSONSchemaSubset.PathStep], _ change: (JSONObject) -> JSONObject) -> JSONValue {
        guard let step = path.first else {
            guard case .object(let object) = value else { return value }
            return .object(change(object))
        }
        switch (step, value) {
        case (.key(let key), .object(let object)):
            return .object(JSONObject(members: object.members.map { $0.key == key ? .init($0.key, transform($0.value, at: Array(path.dropFirst()), change)) : $0 }))
        case (.index(let index), .array(let array)):
            var elements = Array(array)
            elements[index] = transform(elements[index], at: Array(path.dropFirst()), change)
            return .array(JSONArray(elements))
        default:
            return value
        }
    }
}
