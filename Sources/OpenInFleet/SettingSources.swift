import OpenInCore
import OpenInKit

/// Where one value of a policy file was read: its key path, its line and the value as written.
package struct ValueSource: Sendable {
    /// The key path from the file's root (`containerPolicies[2].openInPolicy`).
    package var path: String { element < 0 ? base : "\(base)[\(element)]" }
    /// The 1-based line of the value, when read from text.
    package let line: Int?
    /// The value as the file writes it (a string's text; `true`, `false` or a number otherwise).
    package let text: String
    /// ``path``, or the path of the array whose element ``element`` the value is: a list's entries share
    /// their list's path, and each entry's own path is made only when it is named.
    private let base: String
    /// The value's position in the array at ``base``; -1 when ``base`` is the value's own path.
    private let element: Int

    package init(path: String, line: Int?, text: String) {
        base = path
        element = -1
        self.line = line
        self.text = text
    }

    /// The source of element `index` of the array at `list` (its key path), read at `line`.
    package init(element index: Int, of list: String, line: Int?, text: String) {
        base = list
        element = index
        self.line = line
        self.text = text
    }

    /// The source of the value under `cursor`.
    package init(_ cursor: JSONCursor) {
        let text: String
        switch cursor.value {
        case .string(let string): text = string
        case .bool(let value): text = value ? "true" : "false"
        default: text = JSONWriter.compact(cursor.value)
        }
        self.init(path: cursor.path, line: cursor.position?.line, text: text)
    }
}

/// Where the values of one policy object were read: the object's own place, each key's value, each
/// app-configuration key's and each list entry's. Provenance is not part of a policy's value: two
/// objects that differ only in where they were read are equal (a translated policy equals the one read).
package struct SettingSources: Sendable, Hashable {
    /// The file the object was read from, when the reader knows it per object (an Intune export folder).
    package var file: String?
    /// The object's key path (`containerPolicies[2]`, `global`).
    package var path = ""
    /// The object's first line.
    package var line: Int?
    /// Each key's value, by key name (the reader's own keys: `openInPolicy`, `allowedOutboundDataTransferDestinations`).
    package var keys: [String: ValueSource] = [:]
    /// Each entry of a bundle-ID list, by list key and then bundle ID (`openInWhitelist` → `com.acme.viewer`).
    package var entries: [String: [BundleID: ValueSource]] = [:]
    /// Each app-configuration key, byte for byte.
    package var config: [ExactKey: ValueSource] = [:]

    package init() {}

    /// Sources starting at the object under `cursor`.
    package init(object cursor: JSONCursor) {
        path = cursor.path
        line = cursor.position?.line
    }

    /// Records every member of `fields` in ``keys``.
    package mutating func record(_ fields: JSONFields) {
        for (key, cursor) in fields.fields { keys[key] = ValueSource(cursor) }
    }

    package static func == (lhs: SettingSources, rhs: SettingSources) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}
