import Foundation
import OpenInPolicy

/// A JSON Schema (draft 2020-12) validator for the subset Examples/schemas uses: `type`, `enum`,
/// `required`, `properties`, `additionalProperties`, `items`, `minimum`, `maximum`, `pattern`, `anyOf`
/// and `$ref` to `#/$defs/…`. A keyword outside the subset is an error, never ignored: a schema
/// that grew one must grow the validator too.
struct JSONSchemaSubset {
    let root: JSONValue

    /// Keywords that only annotate.
    static let annotations: Set<String> = ["$schema", "$id", "$defs", "title", "description"]
    static let assertions: Set<String> = ["type", "enum", "required", "properties", "additionalProperties", "items", "minimum", "maximum", "pattern", "anyOf", "$ref"]

    /// One object schema met while validating, with the instance it applied to (for the reader-agreement test).
    struct Visit {
        let schema: JSONObject
        let path: [PathStep]
    }

    enum PathStep: Hashable {
        case key(String)
        case index(Int)
    }

    /// The problems of `instance`, each `path: what`; empty when valid. `visits` gets every object schema applied.
    func errors(_ instance: JSONValue, visits: inout [Visit]) -> [String] {
        var errors: [String] = []
        validate(instance, root, path: [], errors: &errors, visits: &visits)
        return errors
    }

    func resolve(_ schema: JSONValue) -> JSONValue {
        guard case .object(let object) = schema, case .string(let ref)? = object["$ref"] else { return schema }
        let name = String(ref.dropFirst("#/$defs/".count))
        guard ref.hasPrefix("#/$defs/"), case .object(let root) = root, case .object(let defs)? = root["$defs"], let target = defs[name] else {
            return .object(JSONObject(members: [.init("unresolvable", .string(ref))]))
        }
        return resolve(target)
    }

    static func describe(_ path: [PathStep]) -> String {
        path.isEmpty ? "(root)" : path.map { step in
            switch step {
            case .key(let key): "." + key
            case .index(let index): "[\(index)]"
            }
        }.joined()
    }

    private func validate(_ instance: JSONValue, _ schemaValue: JSONValue, path: [PathStep], errors: inout [String], visits: inout [Visit]) {
        let resolved = resolve(schemaValue)
        guard case .object(let schema) = resolved else { errors.append("\(Self.describe(path)): the schema is not an object"); return }
        let here = Self.describe(path)
        for member in schema.members where !Self.annotations.contains(member.key) && !Self.assertions.contains(member.key) {
            errors.append("\(here): keyword '\(member.key)' is outside the validator's subset")
        }
        if case .string(let type)? = schema["type"], !Self.matches(instance, type: type) {
            errors.append("\(here): must be of type \(type), not \(instance.kindDescription)")
            return
        }
        if case .array(let values)? = schema["enum"], !values.contains(instance) {
            errors.append("\(here): must be one of \(values.map { JSONWriter.compact($0) }.joined(separator: ", "))")
        }
        if case .number(let number) = instance, let value = Double(number.literal) {
            if case .number(let minimum)? = schema["minimum"], let bound = Double(minimum.literal), value < bound { errors.append("\(here): below \(minimum.literal)") }
            if case .number(let maximum)? = schema["maximum"], let bound = Double(maximum.literal), value > bound { errors.append("\(here): above \(maximum.literal)") }
        }
        if case .string(let pattern)? = schema["pattern"], case .string(let text) = instance {
            let regex = try? NSRegularExpression(pattern: pattern)
            let range = NSRange(text.startIndex..., in: text)
            if regex?.firstMatch(in: text, range: range) == nil { errors.append("\(here): does not match \(pattern)") }
        }
        if case .array(let options)? = schema["anyOf"] {
            var scratch: [Visit] = []
            let passing = options.contains { option in
                var optionErrors: [String] = []
                validate(instance, option, path: path, errors: &optionErrors, visits: &scratch)
                return optionErrors.isEmpty
            }
            if !passing { errors.append("\(here): matches none of the anyOf choices") }
        }
        if case .object(let object) = instance {
            visits.append(Visit(schema: schema, path: path))
            if case .array(let required)? = schema["required"] {
                for case .string(let key) in required where object[key] == nil { errors.append("\(here): \(key) is required") }
            }
            var properties = JSONObject(members: [])
            if case .object(let given)? = schema["properties"] { properties = given }
            for member in object.members {
                if let property = properties[member.key] {
                    validate(member.value, property, path: path + [.key(member.key)], errors: &errors, visits: &visits)
                } else if let additional = schema["additionalProperties"] {
                    if case .bool(false) = additional {
                        errors.append("\(here): unknown key \(member.key)")
                    } else if case .object = additional {
                        validate(member.value, additional, path: path + [.key(member.key)], errors: &errors, visits: &visits)
                    }
                }
            }
        }
        if case .array(let elements) = instance, let items = schema["items"] {
            for (index, element) in elements.enumerated() {
                validate(element, items, path: path + [.index(index)], errors: &errors, visits: &visits)
            }
        }
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null), ("number", .number): true
        case ("integer", .number(let number)): number.intValue != nil
        default: false
        }
    }
}
