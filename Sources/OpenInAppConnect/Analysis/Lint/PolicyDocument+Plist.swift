import OpenInCore
import OpenInFleet
import OpenInKit

extension PolicyDocument {
    /// Reads an `AppConnect.plist` (XML or binary) for lint, with the strict reader's first error.
    ///
    /// Property lists carry no line numbers once parsed, so locations are key
    /// paths: `policy.openinwhitelist (entry 2)` for the second `;`-separated
    /// entry, `config.KEY` for a config value. Entries are split and trimmed as
    /// ``AppConnectPlist`` does (spaces around IDs and empty entries are ignored).
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the file's name as the user gave it, for locations.
    public init<Bytes: Collection>(appConnectPlist bytes: Bytes, file: String) where Bytes.Element == UInt8 {
        self.init(kind: .appConnectPlist, file: file)
        do throws(FormatError) {
            setting = Written(try AppConnectPlist.read(bytes).setting, at: place("policy.openin"))
        } catch {
            readErrors = [Written(error.message, at: SourceLocation(file: file, line: error.line, keyPath: ""))]
        }
        guard case .dictionary(let root)? = try? PropertyList.read(bytes) else { return }
        if case .dictionary(let policy)? = root["policy"], case .string(let list)? = policy["openinwhitelist"] {
            let path = "policy.openinwhitelist"
            var entries: [Written<String>] = []
            for (index, entry) in ExactText.split(list, at: ";").enumerated() {
                let trimmed = String(entry.trimmingSpaces)
                if !trimmed.isEmpty { entries.append(Written(trimmed, at: place("\(path) (entry \(index + 1))"))) }
            }
            whitelist = WrittenList(at: place(path), entries: entries)
        }
        if case .dictionary(let config)? = root["config"] {
            self.config = Self.entries(config, path: "config", file: file)
        }
    }

    /// Reads an app's Info.plist (XML or binary) for lint: its `MI_APP_CONNECT`
    /// dictionary, or a top-level key spelled close to it, and every string of
    /// its `CFBundleURLTypes` entries' `CFBundleURLSchemes`, with the strict reader's first error.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the file's name as the user gave it, for locations.
    ///   - buildSettings: values for the build-setting references in the schemes.
    public init<Bytes: Collection>(infoPlist bytes: Bytes, file: String, buildSettings: BuildSettings = BuildSettings()) where Bytes.Element == UInt8 {
        self.init(kind: .infoPlist, file: file)
        do throws(FormatError) {
            _ = try InfoPlist.read(bytes, buildSettings: buildSettings)
        } catch {
            readErrors = [Written(error.message, at: SourceLocation(file: file, line: error.line, keyPath: ""))]
        }
        guard case .dictionary(let root)? = try? PropertyList.read(bytes) else { return }
        for key in root.keys where KeySpelling.matches(key, InfoPlistKeys.section) {
            var entries: [WrittenEntry] = []
            if case .dictionary(let section)? = root[key] { entries = Self.entries(section, path: key, file: file) }
            appConnectSections.append(WrittenSection(key: Written(key, at: place(key)), entries: entries))
        }
        // The strict reader reports a URL type of the wrong shape; lint looks at every string scheme.
        let typesKey = InfoPlist.urlTypesKey, schemesKey = InfoPlist.urlSchemesKey
        guard case .array(let types)? = root.first(where: { $0.key.utf8.elementsEqual(typesKey.utf8) })?.value else { return }
        for (index, type) in types.enumerated() {
            guard case .dictionary(let members) = type,
                  case .array(let schemes)? = members.first(where: { $0.key.utf8.elementsEqual(schemesKey.utf8) })?.value else { continue }
            for (position, scheme) in schemes.enumerated() {
                guard case .string(let text) = scheme else { continue }
                let written = Written(text, at: place("\(typesKey)[\(index)].\(schemesKey)[\(position)]"))
                urlSchemes.append(WrittenScheme(written, buildSettings: buildSettings))
            }
        }
    }

    private func place(_ keyPath: String) -> SourceLocation {
        SourceLocation(file: file, keyPath: keyPath)
    }

    /// A dictionary's entries, in byte order of their keys (a parsed plist keeps no order).
    private static func entries(_ dictionary: PropertyListDictionary, path: String, file: String) -> [WrittenEntry] {
        dictionary.map { key, value in
            let location = SourceLocation(file: file, keyPath: "\(path).\(key)")
            return WrittenEntry(key: Written(key, at: location), value: Written(written(value), at: location))
        }
    }

    private static func written(_ value: PropertyListValue) -> WrittenValue {
        switch value {
        case .string(let text): .string(text)
        case .bool(let flag): .bool(flag)
        case .integer(let number): .number(String(number))
        case .real(let number): .number(String(number))
        default: .other(value.found)
        }
    }
}

extension PolicyDocument {
    /// Reads a file for lint as the document its content says it is.
    ///
    /// JSON (`{`) is a policy file. A property list is an `AppConnect.plist`
    /// when the file is named `AppConnect.plist` (any letter case) or has a
    /// top-level `policy` or `appconnectapps` key, and an Info.plist
    /// otherwise. Anything else gives a document holding only the error.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the file's name as the user gave it.
    ///   - buildSettings: values for an Info.plist's build-setting references.
    public init(contentsOf bytes: [UInt8], file: String, buildSettings: BuildSettings = BuildSettings()) {
        do throws(FormatError) {
            switch try PolicyFile.kind(of: bytes) {
            case .json:
                self.init(policyJSON: bytes, file: file, buildSettings: buildSettings)
            case .appConnectPlist where Self.isAppConnectPlist(bytes, file: file):
                self.init(appConnectPlist: bytes, file: file)
            case .appConnectPlist:
                self.init(infoPlist: bytes, file: file, buildSettings: buildSettings)
            }
        } catch {
            self.init(kind: .policyFile, file: file,
                      readErrors: [Written(error.message, at: SourceLocation(file: file, line: error.line, keyPath: ""))])
        }
    }

    private static func isAppConnectPlist(_ bytes: [UInt8], file: String) -> Bool {
        if file.split(separator: "/").last?.lowercased() == "appconnect.plist" { return true }
        guard case .dictionary(let root)? = try? PropertyList.read(bytes) else { return false }
        return root["policy"] != nil || root["appconnectapps"] != nil
    }
}
