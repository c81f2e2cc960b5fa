import OpenInCore
import OpenInKit

/// Where one value of a policy file was read: its key path, its line and the value as written.
package struct ValueSource: Sendable {
    /// The key path from the file's root (`containerPolicies[2].openInPolicy`).
    package var path: String { JSONCursor.path(base, step) }
    /// The 1-based line of the value, when read from text.
    package var line: Int? { storedLine == 0 ? nil : Int(storedLine) }
    /// The value as the file writes it (a string's text; `true`, `false` or a number otherwise).
    package var text: String {
        switch written {
        case .text(let text): text
        case .value(.bool(let value)): value ? "true" : "false"
        case .value(let value): JSONWriter.compact(value)
        case .strings(let strings): JSONWriter.compact(.array(JSONArray(strings.map(JSONValue.string))))
        }
    }
    /// The value, kept so that its text is written only when asked: no text made per value.
    private let written: Kept
    fileprivate enum Kept: Sendable {
        /// A string's text, as given or read.
        case text(String)
        /// A number, `true`, `false`, `null`, an object, or a list of other values.
        case value(JSONValue)
        /// A list of strings: its elements alone, so the source does not keep the JSON tree's array (and each
        /// element's place) alive after the file is read.
        case strings([String])
    }
    /// ``path``, or the path of the object or array the value is in: a list's entries and an object's
    /// members share their parent's path, and each one's own path is made only when it is named.
    private var base: String
    /// The value's key or index under ``base``; `.none` when ``base`` is the value's own path.
    private var step: JSONCursor.Step
    /// ``line``, 0 when not known (a fleet file is at most 16 MiB, so a line fits).
    private let storedLine: Int32

    package init(path: String, line: Int?, text: String) {
        self.init(base: path, step: .none, line: line, written: .text(text))
    }

    fileprivate init(base: String, step: JSONCursor.Step, line: Int?, written: Kept) {
        (self.base, self.step, storedLine, self.written) = (base, step, Int32(clamping: line ?? 0), written)
    }

    /// The same source with its own key path made: for a source named many times (a whitelist entry a
    /// path finder names in every hop through it), made once rather than at each naming.
    package var withPath: ValueSource {
        if case .none = step { return self }
        var made = self
        made.base = path
        made.step = .none
        return made
    }

    /// The source of element `index` of the array at `list` (its key path), read at `line`.
    package init(element index: Int, of list: String, line: Int?, text: String) {
        self.init(base: list, step: .index(index), line: line, written: .text(text))
    }

    /// The source of the value under `cursor`.
    package init(_ cursor: JSONCursor) {
        let (base, step) = cursor.place
        self.init(base: base, step: step, line: cursor.position?.line, written: Self.written(cursor))
    }

    /// The value under `cursor`, as a source keeps it.
    fileprivate static func written(_ cursor: JSONCursor) -> Kept {
        switch cursor.value {
        case .array(let array):
            var strings: [String] = []
            strings.reserveCapacity(array.count)
            for element in array.elements {
                guard case .string(let string) = element else { break }
                strings.append(string)
            }
            return strings.count == array.count ? .strings(strings) : .value(cursor.value)
        case .string(let string): return .text(string)
        case .bool, .number, .null, .object: return .value(cursor.value)
        }
    }

    /// The parts a ``SourceKeys`` keeps of a member's source when the object's path is kept once for all its members.
    fileprivate var member: (base: String, key: String, line: Int32, written: Kept)? {
        guard case .key(let key) = step else { return nil }
        return (base, key, storedLine, written)
    }
}

/// Where each entry of one bundle-ID list was read, by bundle ID: a few bytes an entry (its place in the
/// list and its line), each entry's source made when it is asked for. A fleet's thousands of whitelists
/// keep their entries' places this way, not a source each in a table of their own.
package struct EntrySources: Sendable {
    /// The list's key path (`containerPolicies[2].openInWhitelist`).
    package let list: String
    private var ids: [BundleID] = []
    /// Per entry in ``ids``: its index in the list and its line (0: not known). A fleet file is at most 16 MiB,
    /// so both fit.
    private var places: [(element: Int32, line: Int32)] = []
    /// The positions in ``ids`` by bundle ID, once there are many; before, they are searched in order (an ID's
    /// stored hash compared first): a table per whitelist of a few dozen entries cost more than the list itself.
    /// Each search is then at most 64 comparisons, and a list of n entries is indexed in O(n).
    private var positions: [BundleID: Int]? = nil
    private static let indexedFrom = 64

    /// No entries yet, of the list at `list`, room made for `capacity`.
    package init(list: String, capacity: Int = 0) {
        self.list = list
        ids.reserveCapacity(capacity)
        places.reserveCapacity(capacity)
    }

    /// Records that element `element` of the list, read at `line`, is `id`, unless an earlier element is.
    package mutating func add(_ id: BundleID, element: Int, line: Int?) {
        guard position(of: id) == nil else { return }
        ids.append(id)
        places.append((Int32(clamping: element), Int32(clamping: line ?? 0)))
        if positions != nil {
            positions![id] = ids.count - 1
        } else if ids.count > Self.indexedFrom {
            var made: [BundleID: Int] = [:]
            made.reserveCapacity(max(ids.count, places.capacity))
            for (position, id) in ids.enumerated() { made[id] = position }
            positions = made
        }
    }

    private func position(of id: BundleID) -> Int? {
        if let positions { return positions[id] }
        return ids.firstIndex(of: id)
    }

    /// The source of the first element that is `id`, if any.
    package subscript(id: BundleID) -> ValueSource? {
        position(of: id).map(source)
    }

    private func source(_ position: Int) -> ValueSource {
        let place = places[position]
        return ValueSource(element: Int(place.element), of: list, line: place.line == 0 ? nil : Int(place.line), text: ids[position].rawValue)
    }

    /// Every entry's source with its own key path made, by bundle ID: for the hops that name them, made once.
    package var withPaths: [BundleID: ValueSource] {
        var made: [BundleID: ValueSource] = [:]
        made.reserveCapacity(ids.count)
        for position in ids.indices { made[ids[position]] = source(position).withPath }
        return made
    }
}

/// Each bundle-ID list's entry sources by list key, compared byte for byte: an object's few lists in order, not a
/// table of its own per object (a fleet's thousands of policies each had one, for one or two lists).
package struct EntryLists: Sendable {
    private var lists: [(key: String, entries: EntrySources)] = []

    package init() {}

    /// The entries of the list at `key`, or `nil`; setting `nil` removes them.
    package subscript(key: String) -> EntrySources? {
        get { lists.first { ExactText.same($0.key, key) }?.entries }
        set {
            if let at = lists.firstIndex(where: { ExactText.same($0.key, key) }) {
                if let newValue { lists[at].entries = newValue } else { lists.remove(at: at) }
            } else if let newValue {
                lists.append((key, newValue))
            }
        }
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
    package var keys = SourceKeys()
    /// Each entry of a bundle-ID list, by list key and then bundle ID (`openInWhitelist` → `com.acme.viewer`).
    package var entries = EntryLists()
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
        keys.record(fields)
    }

    package static func == (lhs: SettingSources, rhs: SettingSources) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}

/// Each key's source by key name, compared byte for byte: the few keys of an object in order (no table
/// made, nor a key hashed, for the keys of each of a fleet's thousands of policies), indexed by their
/// bytes once there are many (a device's scheme handlers).
///
/// The members recorded from one object share its path, kept once: each keeps its key, its line and its
/// value (40 bytes, where a source of its own is 64); a source given whole (set by key) is kept whole.
package struct SourceKeys: Sendable {
    private var entries: [Entry] = []
    /// The path of the object whose members were recorded (``record(_:)``).
    private var base = ""
    private var index: [ExactKey: Int]? = nil
    /// Past this many keys, they are indexed: a lookup stays O(1) whatever the file holds.
    private static let indexedFrom = 16

    private struct Entry: Sendable {
        let key: String
        let value: Value
        /// The value's line, 0 when not known, for a member of the object at ``SourceKeys/base``.
        let line: Int32
    }

    private enum Value: Sendable {
        /// A member of the object at ``SourceKeys/base``: its source is that path, the key, the line and this.
        case member(ValueSource.Kept)
        /// Any other source.
        case given(Given)
    }

    private final class Given: Sendable {
        let source: ValueSource
        init(_ source: ValueSource) { self.source = source }
    }

    package init() {}

    /// The source recorded for `key`, or `nil`; setting `nil` removes it.
    package subscript(key: String) -> ValueSource? {
        get { position(of: key).map { source(entries[$0]) } }
        set {
            if let at = position(of: key) {
                if let newValue {
                    entries[at] = entry(key, newValue)
                } else {
                    entries.remove(at: at)
                    index = nil
                    reindex()
                }
            } else if let newValue {
                entries.append(entry(key, newValue))
                if index != nil { index![ExactKey(key)] = entries.count - 1 } else { reindex() }
            }
        }
    }

    /// Records every member of `fields` (an object's members, no key twice: the reader refuses repeats).
    mutating func record(_ fields: JSONFields) {
        if entries.isEmpty, let first = fields.fields.first {
            base = first.cursor.place.parent
            entries.reserveCapacity(fields.fields.count)
            // The members of one object: each kept as a member of `base` at once (no source made, nor its path compared).
            for (key, cursor) in fields.fields {
                entries.append(Entry(key: key, value: .member(ValueSource.written(cursor)), line: Int32(clamping: cursor.position?.line ?? 0)))
            }
            reindex()
        } else {
            for (key, cursor) in fields.fields { self[key] = ValueSource(cursor) }
        }
    }

    /// `source` kept for `key`: without its path when it is the member `key` of the object at ``base``.
    private func entry(_ key: String, _ source: ValueSource) -> Entry {
        if let member = source.member, ExactText.same(member.key, key), ExactText.same(member.base, base) {
            return Entry(key: key, value: .member(member.written), line: member.line)
        }
        return Entry(key: key, value: .given(Given(source)), line: 0)
    }

    private func source(_ entry: Entry) -> ValueSource {
        switch entry.value {
        case .member(let written): ValueSource(base: base, step: .key(entry.key), line: entry.line == 0 ? nil : Int(entry.line), written: written)
        case .given(let given): given.source
        }
    }

    private func position(of key: String) -> Int? {
        if let index { return index[ExactKey(key)] }
        return entries.firstIndex { ExactText.same($0.key, key) }
    }

    /// Indexes the keys once there are many.
    private mutating func reindex() {
        guard index == nil, entries.count > Self.indexedFrom else { return }
        var made: [ExactKey: Int] = [:]
        made.reserveCapacity(entries.count)
        for (position, entry) in entries.enumerated() where made[ExactKey(entry.key)] == nil { made[ExactKey(entry.key)] = position }
        index = made
    }
}
