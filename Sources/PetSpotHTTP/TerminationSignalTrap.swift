#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PetSpotConcurrency

/// The write end of the termination pipe, read by ``terminationSignalHandler(_:)``.
///
/// `nonisolated(unsafe)` is sound here: the variable is written exactly once, while holding
/// `TerminationSignalTrap.registry`'s lock and before the first `sigaction` call that installs
/// the handler (its only reader), and never again; the pipe is never closed. A handler runs only
/// after `sigaction` installed it, so it always reads the final value, and its `write` always
/// targets the pipe.
nonisolated(unsafe) private var terminationPipeWriteEnd: Int32 = -1

/// The SIGINT/SIGTERM handler: writes the signal number to the termination pipe. Only
/// async-signal-safe calls (`write`; `errno` saved and restored).
private func terminationSignalHandler(_ signalNumber: Int32) {
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: signalNumber)
    _ = write(terminationPipeWriteEnd, &byte, 1)
    errno = savedErrno
}

/// SIGINT and SIGTERM caught for the duration of ``HTTPServer/runUntilTerminated(ready:)``,
/// with the previous dispositions and signal mask put back afterwards.
///
/// ``install()`` saves the calling thread's signal mask and unblocks SIGINT and SIGTERM in it
/// (so the signals reach a handler even when every other thread blocks them), then installs a
/// handler that writes the signal number to a pipe (the self-pipe pattern: nothing but `write`
/// runs in signal context). ``waitForSignal()`` blocks on that pipe. ``restore()`` reinstalls
/// the saved dispositions and mask. One trap may be installed at a time in a process; the pipe
/// is created on first use and kept for the life of the process. Install, wait and restore on
/// the same thread.
package final class TerminationSignalTrap {
    private struct Registry {
        var pipe: (read: Int32, write: Int32)?
        var isInstalled = false
    }

    private static let registry = Locked(Registry())
    /// The signals the trap catches.
    package static let signals: [Int32] = [SIGINT, SIGTERM]
    private let readEnd: Int32
    private var previousActions: ReplacedSignalActions?
    private var previousMask = sigset_t()
    private var isRestored = false

    private init(readEnd: Int32) {
        self.readEnd = readEnd
    }

    /// Installs the handler for SIGINT and SIGTERM and unblocks them in the calling thread.
    /// - Throws: ``HTTPSocketError`` when another trap is installed or the pipe cannot be made.
    package static func install() throws(HTTPSocketError) -> TerminationSignalTrap {
        let claimed: Result<Int32, HTTPSocketError> = registry.withLock { registry in
            guard !registry.isInstalled else {
                return .failure(HTTPSocketError(
                    operation: "runUntilTerminated (another call is already waiting for SIGINT/SIGTERM in this process)", code: 0))
            }
            if registry.pipe == nil {
                do throws(HTTPSocketError) {
                    let pipe = try Socket.makePipe()
                    registry.pipe = pipe
                    terminationPipeWriteEnd = pipe.write
                } catch {
                    return .failure(error)
                }
            }
            registry.isInstalled = true
            return .success(registry.pipe!.read)
        }
        let trap = TerminationSignalTrap(readEnd: try claimed.get())
        trap.discardPendingBytes()
        var caught = sigset_t()
        sigemptyset(&caught)
        for signalNumber in signals { sigaddset(&caught, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &caught, &trap.previousMask)
        trap.previousActions = ReplacedSignalActions.install(terminationSignalHandler, for: signals)
        return trap
    }

    /// Wakes the thread in ``waitForSignal()`` without a signal (it then returns `nil`).
    package static func wake() {
        registry.withLock { registry in
            guard registry.isInstalled, let pipe = registry.pipe else { return }
            var byte: UInt8 = 0
            _ = write(pipe.write, &byte, 1)
        }
    }

    /// Blocks until SIGINT or SIGTERM arrives (returns its number) or ``wake()`` is called
    /// (returns `nil`).
    package func waitForSignal() -> Int32? {
        while true {
            _ = Socket.wait(readEnd, events: Int16(POLLIN), timeoutMilliseconds: Int(Int32.max))
            var byte: UInt8 = 0
            if read(readEnd, &byte, 1) == 1 {
                return byte == 0 ? nil : Int32(byte)
            }
        }
    }

    /// Puts back the dispositions and the calling thread's signal mask saved by ``install()``.
    /// Safe to call more than once.
    package func restore() {
        guard !isRestored else { return }
        isRestored = true
        previousActions?.restore()
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        Self.registry.withLock { $0.isInstalled = false }
    }

    deinit { restore() }

    private func discardPendingBytes() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &bytes, bytes.count) > 0 {}
    }
}
