#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGTERM and SIGINT, held until the record being written is whole.
///
/// The handler only notes the signal. Standard output then ends at the next
/// record boundary — when a write leaves its buffer ending in a line break, or
/// when a read of the input is interrupted (every record before it is
/// complete) — flushes what it holds and exits with 128 + the signal's number
/// (143 for SIGTERM, 130 for SIGINT), the status a shell reports. So a reader
/// of the stream never sees half a record.
///
/// A verb busy in a long computation (a fleet's lint, matrix or paths, a large Intune
/// export) reaches no record boundary for a while, so a watchdog thread, woken by the
/// handler, ends the process with the same status ``grace`` seconds after the signal if
/// the main thread has not stopped by then: every verb stops within a second of the signal.
enum Interruption {
    /// How long after a signal the watchdog waits for the main thread to stop at a record boundary.
    static let grace: Int32 = 400_000  // microseconds

    /// Posted by the handler (`sem_post` may be called in a signal handler), awaited by the watchdog.
    nonisolated(unsafe) private static let wakeUp: UnsafeMutablePointer<sem_t> = {
        let pointer = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(pointer, 0, 0)
        return pointer
    }()

    /// The signal received, 0 while none: written by the handler, read at record boundaries.
    nonisolated(unsafe) private static let received: UnsafeMutablePointer<sig_atomic_t> = {
        let pointer = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return pointer
    }()
    /// The output flushed before exiting (the process's standard output).
    nonisolated(unsafe) private static var output: Output?

    /// Installs the handlers for SIGTERM and SIGINT; `output` is flushed before the process exits.
    static func install(flushing output: Output) {
        _ = received  // made before a handler can run: the handler only stores through it
        _ = wakeUp
        Interruption.output = output
        #if os(Linux)
        var watchdog = pthread_t()
        _ = pthread_create(&watchdog, nil, { _ in
            while sem_wait(Interruption.wakeUp) != 0 {}  // EINTR: wait on
            usleep(UInt32(Interruption.grace))
            // Still running: the main thread is in a computation with no record boundary. Its output
            // buffer is not this thread's to flush; what it has written stays written.
            _exit(128 + (Interruption.pending ?? SIGTERM))
        }, nil)
        for number in [SIGTERM, SIGINT] {
            // A signal the parent set to be ignored (SIGINT for a background job) stays ignored.
            var previous = sigaction()
            sigaction(number, nil, &previous)
            if unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            var action = sigaction()
            sigemptyset(&action.sa_mask)
            // No SA_RESTART: a read blocked on an idle pipe returns EINTR, so the process can stop there.
            action.sa_flags = 0
            action.__sigaction_handler.sa_handler = { number in
                if Interruption.received.pointee == 0 {
                    Interruption.received.pointee = sig_atomic_t(number)
                    sem_post(Interruption.wakeUp)
                }
            }
            sigaction(number, &action, nil)
            // A parent may have blocked the signal (the mask is inherited): receive it.
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, number)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }
        #endif
    }

    /// The signal received, if any.
    static var pending: Int32? {
        let number = received.pointee
        return number == 0 ? nil : Int32(number)
    }

    /// Whether `candidate` is the output flushed before exiting.
    static func isFlushing(_ candidate: Output) -> Bool { output === candidate }

    /// Flushes the output and exits with 128 + the signal's number; called at a record boundary only.
    static func stop() -> Never {
        let number = pending ?? SIGTERM
        output?.flush()
        exit(128 + number)
    }
}
