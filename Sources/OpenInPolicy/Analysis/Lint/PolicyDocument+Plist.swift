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
            for (index, entry) in list.split(separator: ";", omittingEmptySubsequences: false).enumerated() {
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
    /// dictionary, or a top-level key spelled close to it, with the strict reader's first error.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the file's name as the user gave it, for locations.
    public init<Bytes: Collection>(infoPlist bytes: Bytes, file: String) where Bytes.Element == UInt8 {
        self.init(kind: .infoPlist, file: file)
        do throws(FormatError) {
            _ = try InfoPlist.read(bytes)
        } catch {
            readErrors = [Written(error.message, at: SourceLocation(file: file, line: error.line, keyPath: ""))]
        }
        guard case .dictionary(let root)? = try? PropertyList.read(bytes) else { return }
        for key in root.keys.sorted() where KeySpelling.matches(key, InfoPlistKeys.section) {
            var entries: [WrittenEntry] = []
            if case .dictionary(let section)? = root[key] { entries = Self.entries(section, path: key, file: file) }
            appConnectSections.append(WrittenSection(key: Written(key, at: place(key)), entries: entries))
        }
    }

    private func place(_ keyPath: String) -> SourceLocation {
        SourceLocation(file: file, keyPath: keyPath)
    }

    /// A dictionary's entries, sorted by key (a parsed plist keeps no order).
    private static func entries(_ dictionary: [String: PropertyListValue], path: String, file: String) -> [WrittenEntry] {
        dictionary.sorted { $0.key < $1.key }.map { key, value in
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
