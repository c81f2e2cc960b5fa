#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OpenInPolicy

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
        var status = stat()
        if stat(path, &status) != 0, errno == ENOENT { return nil }
        let bytes: [UInt8]
        do throws(CappedFile.Failure) {
            bytes = try CappedFile.read(path: path, what: "dual-mode store")
        } catch {
            throw DualModeStoreError(location: path, reason: "cannot be read (\(error.reason))")
        }
        guard let record = Self.record(in: bytes) else {
            throw DualModeStoreError(location: path, reason: "is not a dual-mode record: expected {\"state\": …, \"dataEncryption\": …} with state one of \(DualModeState.allCases.map(\.rawValue).joined(separator: ", ")); delete the file to start as on a first launch")
        }
        return record
    }

    /// The record a file's bytes hold: a JSON object with the two states as strings (other members are ignored).
    private static func record(in bytes: [UInt8]) -> DualModeRecord? {
        guard case .object(let object)? = try? JSONReader().read(bytes),
              case .string(let state)? = object.member("state")?.value,
              case .string(let encryption)? = object.member("dataEncryption")?.value,
              let dualMode = DualModeState.allCases.first(where: { ExactText.same($0.rawValue, state) }),
              let dataEncryption = DataEncryptionState.allCases.first(where: { ExactText.same($0.rawValue, encryption) }) else { return nil }
        return DualModeRecord(state: dualMode, dataEncryption: dataEncryption)
    }

    public func save(_ record: DualModeRecord) throws(DualModeStoreError) {
        let text = "{\"dataEncryption\":\(JSONWriter.quoted(record.dataEncryption.rawValue)),\"state\":\(JSONWriter.quoted(record.state.rawValue))}"
        // A new file beside the old one, renamed over it: a crash mid-write leaves the previous record.
        let temporary = path + ".\(getpid()).tmp"
        func failed(_ number: Int32) -> DualModeStoreError {
            unlink(temporary)
            return DualModeStoreError(location: path, reason: "cannot be written (\(CappedFile.describe(number)))")
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw DualModeStoreError(location: path, reason: "cannot be written (\(CappedFile.describe(errno)))") }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let number = errno
                close(descriptor)
                throw failed(number)
            }
            bytes = bytes.dropFirst(written)
        }
        guard fsync(descriptor) == 0 else {
            let number = errno
            close(descriptor)
            throw failed(number)
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else { throw failed(errno) }
    }
}
