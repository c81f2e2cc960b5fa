#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a dual-mode app persists its ``DualModeRecord`` between launches.
public protocol DualModeStore: Sendable {
    /// The persisted record, or `nil` when nothing was persisted (first launch).
    /// - Throws: ``DualModeStoreError`` when the store cannot be read or holds something else.
    func load() throws(DualModeStoreError) -> DualModeRecord?
    /// Persists `record`, replacing what was there.
    /// - Throws: ``DualModeStoreError`` when it cannot be written.
    func save(_ record: DualModeRecord) throws(DualModeStoreError)
}

/// Why a ``DualModeStore`` failed.
public struct DualModeStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store's location (a file path), or a name for other stores.
    public let location: String
    /// What went wrong, and what to do.
    public let reason: String

    /// Creates an error.
    public init(location: String, reason: String) {
        self.location = location
        self.reason = reason
    }

    public var description: String { "dual-mode store \(location): \(reason)" }
}

/// A store in memory, for tests and simulations: it lives as long as the object.
public final class InMemoryDualModeStore: DualModeStore {
    private let record: Locked<DualModeRecord?>

    /// Creates a store, empty (a first launch) or holding `record`.
    public init(_ record: DualModeRecord? = nil) { self.record = Locked(record) }

    public func load() throws(DualModeStoreError) -> DualModeRecord? { record.withLock { $0 } }

    public func save(_ record: DualModeRecord) throws(DualModeStoreError) { self.record.withLock { $0 = record } }

    /// What is persisted now.
    public var saved: DualModeRecord? { record.withLock { $0 } }
}

/// A store in one JSON file, written atomically (a new file renamed over the
/// old one), so a crash mid-write leaves the previous record intact.
///
/// The file holds `{"dataEncryption":"encrypted","state":"appconnect-mode"}`.
public struct FileDualModeStore: DualModeStore {
    /// The file's path.
    public let path: String

    /// Creates a store at `path`; the file is created on the first save.
    public init(path: String) { self.path = path }

    public func load() throws(DualModeStoreError) -> DualModeRecord? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw DualModeStoreError(location: path, reason: "cannot be read (\(describeFileError(error)))")
        }
        do {
            return try JSONDecoder().decode(DualModeRecord.self, from: data)
        } catch {
            throw DualModeStoreError(location: path, reason: "is not a dual-mode record: expected {\"state\": …, \"dataEncryption\": …} with state one of \(DualModeState.allCases.map(\.rawValue).joined(separator: ", ")); delete the file to start as on a first launch")
        }
    }

    public func save(_ record: DualModeRecord) throws(DualModeStoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            try encoder.encode(record).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw DualModeStoreError(location: path, reason: "cannot be written (\(describeFileError(error)))")
        }
    }
}

/// A file error in a few words ("permission denied"), for a store's message.
private func describeFileError(_ error: any Error) -> String {
    guard let cocoa = error as? CocoaError else { return String(describing: error) }
    switch cocoa.code {
    case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or directory"
    case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
    case .fileWriteOutOfSpace: return "no space left on the device"
    case .fileWriteVolumeReadOnly: return "read-only file system"
    default: return "file error \(cocoa.code.rawValue)"
    }
}
