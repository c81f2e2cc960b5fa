/// The keys of one JSON object or property-list `<dict>` read so far, to find a key given
/// twice (by bytes, as the SDK's dictionaries key) or two keys that are canonically
/// equivalent (which Swift's `String` keys, and so every tool built on them, would merge).
///
/// Objects of known keys hold a handful: up to ``linearLimit`` keys they are compared one by
/// one, and only a larger object builds its two dictionaries (the first dictionaries of these
/// types a process makes cost more than reading a whole small policy).
/// - Complexity: O(1) expected per key once past ``linearLimit``; O(``linearLimit``) before.
struct RepeatedKeys<Place> {
    static var linearLimit: Int { 16 }
    private var list: [(key: String, place: Place)] = []
    private var exact: [ExactKey: Place] = [:]
    private var canonical: [String: (key: String, place: Place)] = [:]

    /// Where a key with exactly `key`'s bytes was given, if one was.
    package func same(as key: String) -> Place? {
        if list.count <= Self.linearLimit { return list.first { ExactText.same($0.key, key) }?.place }
        return exact[ExactKey(key)]
    }

    /// A key canonically equivalent to `key` (Swift's `String ==`), if one was given.
    func lookalike(of key: String) -> (key: String, place: Place)? {
        if list.count <= Self.linearLimit { return list.first { $0.key == key } }
        return canonical[key]
    }

    package mutating func add(_ key: String, at place: Place) {
        list.append((key, place))
        if list.count == Self.linearLimit + 1 {
            for (key, place) in list {
                exact[ExactKey(key)] = place
                canonical[key] = (key, place)
            }
        } else if list.count > Self.linearLimit + 1 {
            exact[ExactKey(key)] = place
            canonical[key] = (key, place)
        }
    }
}
