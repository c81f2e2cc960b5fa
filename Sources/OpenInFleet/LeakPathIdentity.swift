import OpenInCore
import OpenInKit

/// The identity of a leak path, for tools that track findings across runs (SARIF's `partialFingerprints`).
package enum LeakPathIdentity {
    /// A stable identity of what a path is: device, source, destination and the chain (each hop's
    /// channel, URL and destination), never lines or file names, so it is the same across runs, re-indented
    /// files and unrelated additions. 16 hex digits of a 64-bit FNV-1a over those bytes, NUL-separated,
    /// after the version `leak-path/v1`.
    package static func fingerprint(device: String, from: BundleID, to: FleetNode, chain: [(channel: FleetChannel, url: String?, to: FleetNode)]) -> String {
        var hash = FNV1a.offsetBasis
        func add(_ text: String) { hash = FNV1a.hash(bytes: CollectionOfOne(0), continuing: FNV1a.hash(bytes: text.utf8, continuing: hash)) }
        add("leak-path/v1")
        add(device)
        add(from.rawValue)
        add(to.description)
        for hop in chain {
            add(hop.channel.rawValue)
            add(hop.url ?? "")
            add(hop.to.description)
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
