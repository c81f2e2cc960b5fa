#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Independent work over a range of indices, split across the machine's cores, with the result
/// (and the error) a sequential loop would give.
///
/// Each part is a contiguous range, its results in order; the parts' results are joined in order,
/// and when parts throw, the error of the earliest part is thrown: the error a loop in index order
/// meets first. The body must only read what it shares (the package's models are values, and its
/// classes immutable once made) and write its own results.
package enum Parallel {
    /// The cores to split over.
    package static let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// How many parts `count` indices are split into: up to four per core, so a core whose part goes fast (or
    /// that starts late, being busy with other work) takes another, each of at least `minimum` indices.
    static func parts(_ count: Int, minimum: Int) -> Int { cores > 1 ? min(4 * cores, count / max(1, minimum)) : 1 }

    /// `body` over `0..<count`, in parts of at least `minimum` indices (one part, on this thread, below
    /// twice that or on one core), joined in order.
    /// - Complexity: the body's total work over the cores, in about min(4 × cores, count / minimum) parts.
    package static func map<T, E: Error>(_ count: Int, minimum: Int, _ body: (Range<Int>) throws(E) -> [T]) throws(E) -> [T] {
        let parts = Parallel.parts(count, minimum: minimum)
        guard parts > 1 else { return try body(0..<count) }
        let bounds = (0...parts).map { count * $0 / parts }
        let results = Results<[T], E>(count: parts)
        withoutActuallyEscaping(body) { body in
            let shared = Unchecked(body)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let range = bounds[part]..<bounds[part + 1]
                do throws(E) {
                    results.set(part, .success(try shared.value(range)))
                } catch {
                    results.set(part, .failure(error))
                }
            }
        }
        var joined: [T] = []
        joined.reserveCapacity(count)
        for part in 0..<parts {
            switch results.take(part) {
            case .success(let values): joined.append(contentsOf: values)
            case .failure(let error): throw error
            }
        }
        return joined
    }

    /// `body` for each index of `0..<count`, in parts of at least `minimum` indices across the cores, each result
    /// made in place in one array (none copied from a part's own): every result when no body throws; otherwise the
    /// results before the first index, in index order, whose body throws, with its error.
    package static func fill<T, E: Error>(_ count: Int, minimum: Int, _ body: (Int) throws(E) -> T) -> (values: [T], failure: E?) {
        let parts = Parallel.parts(count, minimum: minimum)
        guard parts > 1 else {
            var values: [T] = []
            values.reserveCapacity(count)
            for index in 0..<count {
                do throws(E) { values.append(try body(index)) } catch { return (values, error) }
            }
            return (values, nil)
        }
        let bounds = (0...parts).map { count * $0 / parts }
        let storage = UnsafeMutablePointer<T>.allocate(capacity: count)
        defer { storage.deallocate() }
        // Per part: the end of what it made, and its error.
        let ends = Results<(end: Int, error: E?), Never>(count: parts)
        withoutActuallyEscaping(body) { body in
            let shared = Unchecked((body, storage))
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let (body, storage) = shared.value
                for index in bounds[part]..<bounds[part + 1] {
                    do throws(E) {
                        (storage + index).initialize(to: try body(index))
                    } catch {
                        ends.set(part, .success((index, error)))
                        return
                    }
                }
                ends.set(part, .success((bounds[part + 1], nil)))
            }
        }
        let made = (0..<parts).map { ends.take($0).get() }
        let failing = made.firstIndex { $0.error != nil }
        let kept = failing.map { made[$0].end } ?? count
        // The parts after the failing one made results a loop would not have reached: let them go.
        if let failing {
            for part in (failing + 1)..<parts { (storage + bounds[part]).deinitialize(count: made[part].end - bounds[part]) }
        }
        let values = [T](unsafeUninitializedCapacity: kept) { buffer, initialized in
            if kept > 0 { buffer.baseAddress!.moveInitialize(from: storage, count: kept) }
            initialized = kept
        }
        return (values, failing.flatMap { made[$0].error })
    }

    /// `first()` and `second()` at once, one on each core (both on this thread, in turn, on one core). The
    /// calling thread runs `first`, so the side that makes what stays should be `first`: its memory comes
    /// from the heap this thread has freed, not a new one. `second` runs on a thread of the global queue,
    /// not inside a `concurrentPerform`, so the parts `first` splits its own work into (``map(_:minimum:_:)``,
    /// ``fill(_:minimum:_:)``) still go to every core: a `concurrentPerform` nested in another runs its
    /// iterations one after the other. When `first` ends before a thread has taken `second` (every thread
    /// busy), the calling thread runs `second` itself: it never waits for work that has not started.
    package static func both<A, B>(_ first: () -> A, _ second: () -> B) -> (A, B) {
        guard cores > 1 else { return (first(), second()) }
        let b = Results<B, Never>(count: 1)
        let done = DispatchSemaphore(value: 0)
        let a = withoutActuallyEscaping(second) { second in
            // The block holds the box, not `second`: the box lets `second` go before the semaphore is signalled,
            // so no reference to it outlives this call (the block itself may be released later). Whichever of
            // the block and this thread takes the box first runs `second`.
            let box = Handoff(second)
            DispatchQueue.global().async {
                // `second` is let go when this inner function returns, before the signal.
                func run() -> Bool {
                    guard let second = box.takeIfThere() else { return false }
                    b.set(0, .success(second()))
                    return true
                }
                if run() { done.signal() }
            }
            let a = first()
            if let second = box.takeIfThere() {
                b.set(0, .success(second()))
            } else {
                done.wait()
            }
            return a
        }
        return (a, b.take(0).get())
    }
}

extension Parallel {
    /// Lets `value` go on a thread of the global queue (on one core, here): freeing what only it holds (a resolved
    /// device's tables, say) leaves the caller's path, which goes on at once.
    package static func release<Value>(_ value: consuming Value) {
        guard cores > 1 else { return }
        let box = Handoff(value)
        DispatchQueue.global().async { _ = box.take() }
    }
}

/// A value (a closure) handed to another thread once: taken (and let go) there, or by whichever thread asks first.
private final class Handoff<Body>: @unchecked Sendable {
    private var body: Body?
    private let lock = DispatchSemaphore(value: 1)
    init(_ body: Body) { self.body = body }

    /// The value, to the first thread that asks; `nil` to any later one.
    func takeIfThere() -> Body? {
        lock.wait()
        defer { lock.signal() }
        let body = self.body
        self.body = nil
        return body
    }

    /// The value (it must still be there).
    func take() -> Body { takeIfThere()! }
}

/// A value shared with the parts of ``Parallel``, which only read it.
private struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// One slot per part, each written by its own part only, read after every part has ended.
private final class Results<Value, Failure: Error>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Result<Value, Failure>?>
    private let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
    }

    func set(_ part: Int, _ result: Result<Value, Failure>) { slots[part] = result }

    func take(_ part: Int) -> Result<Value, Failure> {
        let result = slots[part]!
        slots[part] = nil
        return result
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }
}
