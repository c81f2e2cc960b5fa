import OpenInCore
import OpenInFleet
import OpenInKit

extension PolicyDocument {
    /// Reads a JSON policy file for lint: every value the checks look at, with
    /// its line, column and key path, plus the strict reader's first error.
    ///
    /// A file that is not JSON gives a document with only the syntax error.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the file's name as the user gave it, for locations.
    ///   - buildSettings: values for the build-setting references in `infoPlist`'s URL schemes.
    public init<Bytes: Collection>(policyJSON bytes: Bytes, file: String, buildSettings: BuildSettings = BuildSettings()) where Bytes.Element == UInt8 {
        self.init(kind: .policyFile, file: file)
        let root: JSONValue
        do throws(JSONError) {
            root = try JSONReader().read(bytes)
        } catch {
            readErrors = [Written("not valid JSON: \(error.message)", at: location(error.position, ""))]
            return
        }
        guard case .object(let object) = root else {
            readErrors = [Written("a policy file must hold a JSON object, not \(root.kindDescription)", at: location(JSONPosition(line: 1, column: 1), ""))]
            return
        }
        for member in object.members {
            let here = location(member.valuePosition, member.key)
            switch member.key {
            case "openInPolicy":
                setting = Self.setting(member.value).map { Written($0, at: here) }
            case "openInWhitelist":
                whitelist = WrittenList(at: location(member.keyPosition, member.key), entries: strings(member.value, path: member.key))
            case "config":
                config = entries(member.value, path: member.key)
            case "infoPlist":
                appConnectSections = sections(member.value, path: member.key)
                urlSchemes = schemes(member.value, path: member.key, buildSettings: buildSettings)
            case "device":
                guard case .object(let device) = member.value else { break }
                if let ids = device.member("emailPlusBundleIDs") {
                    emailPlusBundleIDs = strings(ids.value, path: "device.emailPlusBundleIDs").map(\.value)
                }
                // Schemes are case-insensitive: `MAILTO` names the mail app too.
                if let handlers = device.member("schemeHandlers"), case .object(let schemes) = handlers.value {
                    for scheme in schemes.members where scheme.key.lowercased() == "mailto" {
                        if case .string(let id) = scheme.value {
                            mailHandler = Written(id, at: location(scheme.valuePosition, "device.schemeHandlers.\(scheme.key)"))
                        }
                    }
                }
                if device.member("secureServicesAvailable") != nil { givesSecureServices = true }
                if device.member("webAtWorkInstalled")?.value == .bool(true) { webAtWorkInstalled = true }
            case "openFromPolicy":
                openFromSetting = Self.text(member.value).flatMap { try? OpenFromPolicy.Setting(parsing: $0) }.map { Written($0, at: here) }
            case "openFromWhitelist":
                openFromWhitelist = WrittenList(at: location(member.keyPosition, member.key), entries: strings(member.value, path: member.key))
            case "pasteboardPolicy":
                pasteboard = Self.text(member.value).flatMap { try? PasteboardPolicy(parsing: $0) }.map { Written($0, at: here) }
            case "webDLP":
                webDLP = Self.text(member.value).flatMap { try? WebDLPPolicy(parsing: $0) }.map { Written($0, at: here) }
            case "excludedAppleActivityTypes":
                excludedActivityTypes = WrittenList(at: location(member.keyPosition, member.key), entries: strings(member.value, path: member.key))
            default:
                break
            }
        }
        do throws(FormatError) {
            _ = try PolicyJSON.read(root, buildSettings: buildSettings)
        } catch {
            readErrors = [Written(error.message, at: location(error.position, ""))]
        }
    }

    /// The setting a JSON value names, as the strict reader reads it, or `nil` when it names none.
    private static func setting(_ value: JSONValue) -> PolicySetting? {
        switch value {
        case .string(let text): try? PolicySetting(parsing: text)
        case .number(let number): number.intValue.flatMap { try? PolicySetting(parsing: String($0)) }
        default: nil
        }
    }

    /// A control's value as text: a string, or an integer's digits.
    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let number): number.intValue.map(String.init)
        default: nil
        }
    }

    private func location(_ position: JSONPosition?, _ keyPath: String) -> SourceLocation {
        SourceLocation(file: file, line: position?.line, column: position?.column, keyPath: keyPath)
    }

    /// The string elements of an array, each located; other elements are left to the strict reader.
    private func strings(_ value: JSONValue, path: String) -> [Written<String>] {
        guard case .array(let array) = value else { return [] }
        return array.indices.compactMap { index in
            guard case .string(let text) = array[index] else { return nil }
            return Written(text, at: location(array.position(at: index), "\(path)[\(index)]"))
        }
    }

    private func entries(_ value: JSONValue, path: String) -> [WrittenEntry] {
        guard case .object(let object) = value else { return [] }
        return object.members.map { member in
            let keyPath = "\(path).\(member.key)"
            return WrittenEntry(key: Written(member.key, at: location(member.keyPosition, keyPath)),
                                value: Written(Self.written(member.value), at: location(member.valuePosition, keyPath)))
        }
    }

    /// Every string scheme of an `infoPlist` object's `CFBundleURLTypes` entries (keys compared by bytes);
    /// a URL type of the wrong shape is left to the strict reader.
    private func schemes(_ value: JSONValue, path: String, buildSettings: BuildSettings) -> [WrittenScheme] {
        func member(_ key: String, of value: JSONValue) -> JSONValue? {
            guard case .object(let object) = value else { return nil }
            return object.members.first { $0.key.utf8.elementsEqual(key.utf8) }?.value
        }
        let typesKey = InfoPlist.urlTypesKey, schemesKey = InfoPlist.urlSchemesKey
        guard case .array(let types)? = member(typesKey, of: value) else { return [] }
        var result: [WrittenScheme] = []
        for index in types.indices {
            guard case .array(let schemes)? = member(schemesKey, of: types[index]) else { continue }
            for position in schemes.indices {
                guard case .string(let text) = schemes[position] else { continue }
                let keyPath = "\(path).\(typesKey)[\(index)].\(schemesKey)[\(position)]"
                result.append(WrittenScheme(Written(text, at: location(schemes.position(at: position), keyPath)), buildSettings: buildSettings))
            }
        }
        return result
    }

    /// The `MI_APP_CONNECT` dictionaries of an `infoPlist` object, by exact name or a spelling close to it.
    private func sections(_ value: JSONValue, path: String) -> [WrittenSection] {
        guard case .object(let object) = value else { return [] }
        return object.members.compactMap { member in
            guard KeySpelling.matches(member.key, InfoPlistKeys.section) else { return nil }
            let keyPath = "\(path).\(member.key)"
            return WrittenSection(key: Written(member.key, at: location(member.keyPosition, keyPath)),
                                  entries: entries(member.value, path: keyPath))
        }
    }

    private static func written(_ value: JSONValue) -> WrittenValue {
        switch value {
        case .string(let text): .string(text)
        case .bool(let flag): .bool(flag)
        case .number(let number): .number(number.literal)
        default: .other(value.kindDescription)
        }
    }
}
