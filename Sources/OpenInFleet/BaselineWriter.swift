#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OpenInCore
import OpenInKit

/// Writes a baseline of today's paths (`fleet paths --write-baseline FILE --reason TEXT --expires DAY`):
/// the paths the gate judged, merged with the file's entries when it exists.
///
/// - An entry that matched a path is kept with its reason and expiry (an expired one stays expired:
///   renewing an acceptance is a review's decision, made by editing its `expires`).
/// - A path no entry accepted becomes a new entry with the given reason and expiry.
/// - A resolved entry (no path of the part of the fleet examined matches it) is dropped; an entry the
///   run did not examine, or one naming a device or app the fleet does not know, is kept.
///
/// Entries are written grouped: one line per (device, from, reason, expires), its destinations in
/// one `to` list, so the 161,600 paths of the 1,000-app benchmark fleet take a few MB, well within
/// the reader's 16 MiB (one entry per path would take about 17 MB).
public enum BaselineWriter {
    /// What merging gives.
    public struct Merge: Sendable {
        /// The entries to write: the kept ones in file order, then the new ones in the order found.
        public let entries: [FleetBaseline.Entry]
        /// The entries dropped as resolved.
        public let dropped: [FleetBaseline.Entry]
        /// How many entries were kept.
        public let kept: Int
        /// How many were added.
        public let added: Int
        /// The kept entries whose expiry is before `today`: the gate still fails on their paths.
        public let expired: [FleetBaseline.Entry]
    }

    /// Whether `path` names a file (or anything) that exists: a baseline to merge with.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Merges `baseline` (the file's entries, or none) with what a run judged: `newPaths` (each path no entry
    /// accepted) and `resolved` (the entries the run found no path for, among those it examined).
    public static func merge(_ baseline: FleetBaseline, newPaths: [(device: String, from: BundleID, to: FleetNode)],
                              resolved: [FleetBaseline.Entry], reason: String, expires: BaselineDate, today: BaselineDate) -> Merge {
        let gone = Set(resolved)
        var entries: [FleetBaseline.Entry] = []
        var dropped: [FleetBaseline.Entry] = []
        for entry in baseline.entries {
            if gone.contains(entry) { dropped.append(entry) } else { entries.append(entry) }
        }
        let kept = entries.count
        var seen = Set(entries.map(FleetBaseline.EntryKey.init))
        for path in newPaths {
            let entry = FleetBaseline.Entry(device: path.device, from: path.from, to: path.to, reason: reason, expires: expires)
            if seen.insert(FleetBaseline.EntryKey(entry)).inserted { entries.append(entry) }
        }
        let expired = entries.prefix(kept).filter { $0.expires < today }
        return Merge(entries: entries, dropped: dropped, kept: kept, added: entries.count - kept, expired: expired)
    }

    /// The baseline JSON of `entries`: one line per (device, from, reason, expires), in the order each first
    /// appears, its destinations in that order (a string for one, a list for more).
    public static func json(_ entries: [FleetBaseline.Entry], description: String?) -> [UInt8] {
        struct Group: Hashable {
            package let device: String
            package let from: String
            package let reason: String
            package let expires: BaselineDate
        }
        var order: [Group] = []
        var destinations: [Group: [FleetNode]] = [:]
        for entry in entries {
            let group = Group(device: entry.deviceName, from: entry.from.rawValue, reason: entry.reason, expires: entry.expires)
            if destinations[group] == nil { order.append(group) }
            destinations[group, default: []].append(entry.to)
        }
        var bytes: [UInt8] = Array("{\n".utf8)
        if let description {
            bytes += "  \"description\": ".utf8
            JSONWriter.appendQuoted(description, to: &bytes)
            bytes += ",\n".utf8
        }
        bytes += "  \"accepted\": [".utf8
        for (index, group) in order.enumerated() {
            bytes += (index == 0 ? "\n    {\"device\": " : ",\n    {\"device\": ").utf8
            JSONWriter.appendQuoted(group.device, to: &bytes)
            bytes += ", \"from\": ".utf8
            JSONWriter.appendQuoted(group.from, to: &bytes)
            bytes += ", \"to\": ".utf8
            let to = destinations[group]!
            if to.count == 1 {
                JSONWriter.appendQuoted(to[0].description, to: &bytes)
            } else {
                bytes.append(UInt8(ascii: "["))
                for (position, node) in to.enumerated() {
                    if position > 0 { bytes += ", ".utf8 }
                    JSONWriter.appendQuoted(node.description, to: &bytes)
                }
                bytes.append(UInt8(ascii: "]"))
            }
            bytes += ", \"reason\": ".utf8
            JSONWriter.appendQuoted(group.reason, to: &bytes)
            bytes += ", \"expires\": \"\(group.expires)\"}".utf8
        }
        bytes += (order.isEmpty ? "]\n}\n" : "\n  ]\n}\n").utf8
        return bytes
    }

    /// Writes `bytes` to `path` atomically: into a new file beside it, flushed, then renamed over it, so a reader
    /// sees the old file or the new one, never a part (and a failure leaves the old file as it was).
    /// - Returns: `nil`, or why the file could not be written.
    public static func write(_ bytes: [UInt8], to path: String) -> String? {
        let temporary = "\(path).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return "cannot create '\(temporary)': \(String(cString: strerror(errno)))" }
        var written = 0
        let failure: String? = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = systemWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                written += count
            }
            return fsync(descriptor) == 0 ? nil : String(cString: strerror(errno))
        }
        if close(descriptor) != 0, failure == nil {
            unlink(temporary)
            return "cannot write '\(temporary)': \(String(cString: strerror(errno)))"
        }
        if let failure {
            unlink(temporary)
            return "cannot write '\(temporary)': \(failure)"
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return "cannot replace '\(path)': \(reason)"
        }
        return nil
    }
}

/// POSIX `write(2)`, out of the reach of ``BaselineWriter/write(_:to:)``'s name.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(descriptor, buffer, count) }
