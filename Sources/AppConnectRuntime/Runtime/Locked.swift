import Foundation

/// A value guarded by a lock: every read and write goes through ``withLock(_:)``.
///
/// `NSLock` rather than `Synchronization.Mutex` so the package builds on every
/// platform Swift 6 runs on without raising its deployment targets.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. Never call back into
    /// code that may take the same lock from `body`: the lock is not recursive.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
