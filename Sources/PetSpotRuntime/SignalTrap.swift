import Foundation
import PetSpotConcurrency
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The pipe a caught SIGINT or SIGTERM is forwarded through: the handler writes the signal's
/// number (one byte, `write(2)` being async-signal-safe) and ``SignalTrap``'s watcher thread reads
/// it. Created (with both ends close-on-exec and the write end non-blocking) before any handler
/// is installed.
private let signalPipe: (read: Int32, write: Int32) = {
    var descriptors: [Int32] = [-1, -1]
    guard pipe(&descriptors) == 0 else { return (-1, -1) }
    for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    _ = fcntl(descriptors[1], F_SETFL, fcntl(descriptors[1], F_GETFL) | O_NONBLOCK)
    return (descriptors[0], descriptors[1])
}()

/// The handler installed for SIGINT and SIGTERM: forwards the signal through ``signalPipe``.
private let forwardSignal: @convention(c) (Int32) -> Void = { signalNumber in
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signalNumber)
    _ = write(signalPipe.write, &byte, 1)
    errno = saved
}

/// SIGINT and SIGTERM while a command runs: what the runner does before it ends.
///
/// The trap is armed (``arm()``) only when a command owns the process: the `petspot-contracts`
/// executable, whose output is the process's standard streams. A program or a test that runs
/// commands in-process keeps its own signal handling: registering does nothing there.
///
/// While armed and at least one handler is registered, both signals are caught by a `sigaction`
/// handler that forwards them through a pipe to a watcher thread (which keeps the signals
/// unblocked, so that a process started with them blocked still gets them); the previous actions
/// come back when the last handler goes. A real handler, rather than a dispatch source on an
/// ignored signal, is what makes delivery reliable: on Linux a dispatch source reads a
/// `signalfd`, and a process-directed signal that the kernel hands to any thread not blocking it
/// is then simply ignored. On a signal:
/// - if a **graceful** handler is registered (`run`: stop starting cases, clean up, write the
///   reports) and this is the first signal, it is called and the command finishes on its own,
///   then exits with ``RunnerExitCode/interrupted`` (130, SIGINT) or ``RunnerExitCode/terminated``
///   (143, SIGTERM);
/// - otherwise (no graceful handler, or a second signal) every **cleanup** handler runs (`check`:
///   terminate every adapter's process group) and the process exits at once with 130 or 143.
package final class SignalTrap: Sendable {
    /// The one trap of the process.
    package static let shared = SignalTrap()

    /// The signals caught.
    package static let signals: [Int32] = [SIGINT, SIGTERM]

    /// What a registered handler is for.
    package enum Handler: Sendable {
        /// Called on the first signal; the command then finishes by itself.
        case graceful(@Sendable (Int32) -> Void)
        /// Called before the process exits on a signal.
        case cleanup(@Sendable () -> Void)
    }

    /// The handlers, the installed actions, and the signals received.
    private struct State: Sendable {
        /// The handlers by registration id.
        var handlers: [Int: Handler] = [:]
        /// The next registration id.
        var nextId = 0
        /// The actions replaced, while the handler is installed.
        var previous: ReplacedSignalActions?
        /// Whether the watcher thread runs (it runs for the rest of the process once started).
        var watching = false
        /// Signals received since installation.
        var received = 0
        /// The process is exiting on a signal.
        var exiting = false
        /// A command owns the process: registrations take effect.
        var armed = false
    }

    /// The trap's state.
    private let state = Locked(State())

    /// The exit code for a command ended by `signal`: 130 for SIGINT, 143 for SIGTERM.
    package static func exitCode(for signal: Int32) -> RunnerExitCode {
        signal == SIGINT ? .interrupted : .terminated
    }

    /// The signal's name: `SIGINT`, `SIGTERM`, `SIGSEGV`, ..., or `signal 42`.
    package static func name(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT",
            SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1", SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2",
            SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS",
        ]
        return names[signal] ?? "signal \(signal)"
    }

    /// Arms the trap: from now on, registrations catch SIGINT and SIGTERM. Called once by a
    /// command that owns the process.
    package func arm() {
        state.withLock { $0.armed = true }
    }

    /// Registers `handler` until the returned registration is ended (nothing happens unless the
    /// trap is armed).
    package func register(_ handler: Handler) -> Registration {
        let id = state.withLock { state -> Int in
            guard state.armed, signalPipe.read >= 0 else { return -1 }
            let id = state.nextId
            state.nextId += 1
            state.handlers[id] = handler
            if !state.watching {
                state.watching = true
                let thread = Thread { [self] in watch() }
                thread.name = "petspot-signal-watcher"
                thread.stackSize = 256 * 1024
                thread.start()
            }
            if state.previous == nil { state.previous = ReplacedSignalActions.install(forwardSignal, for: Self.signals) }
            return id
        }
        return Registration(trap: self, id: id)
    }

    /// Runs `body` with `handler` registered.
    package func with<T>(_ handler: Handler, _ body: () async throws -> T) async rethrows -> T {
        let registration = register(handler)
        defer { registration.end() }
        return try await body()
    }

    /// Removes handler `id`, uninstalling the trap with the last one.
    fileprivate func unregister(_ id: Int) {
        guard id >= 0 else { return }
        state.withLock { state in
            state.handlers[id] = nil
            guard state.handlers.isEmpty, let previous = state.previous else { return }
            state.previous = nil
            state.received = 0
            previous.restore()
        }
    }

    /// The watcher thread: unblocks SIGINT and SIGTERM (so that they can be delivered at least
    /// here), then handles every signal number read from ``signalPipe``.
    private func watch() {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signalNumber in Self.signals { sigaddset(&mask, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        var byte: UInt8 = 0
        while true {
            let count = read(signalPipe.read, &byte, 1)
            if count == 1 {
                received(Int32(byte))
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    /// Handles one signal (see the type's documentation).
    private func received(_ signalNumber: Int32) {
        let (count, handlers) = state.withLock { state -> (Int, [Handler]) in
            state.received += 1
            return (state.received, state.handlers.sorted { $0.key < $1.key }.map(\.value))
        }
        let graceful = handlers.compactMap { handler -> (@Sendable (Int32) -> Void)? in
            if case .graceful(let body) = handler { return body }
            return nil
        }
        if count == 1 && !graceful.isEmpty {
            for body in graceful { body(signalNumber) }
            return
        }
        state.withLock { $0.exiting = true }
        for handler in handlers {
            if case .cleanup(let body) = handler { body() }
        }
        let line = "petspot-contracts: \(Self.name(signalNumber)) received: exiting now (exit code \(Self.exitCode(for: signalNumber).rawValue))\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        exit(Self.exitCode(for: signalNumber).rawValue)
    }

    /// Whether the process is exiting on a signal (the cleanup handlers are running).
    package var isExiting: Bool { state.withLock { $0.exiting } }

    /// Blocks for good when the process is exiting on a signal, so that the command's own
    /// ending (its exit code, its last lines) cannot overtake the exit the signal chose; returns
    /// at once otherwise.
    package func waitIfExiting() {
        while isExiting { sleep(60) }
    }

    /// A registered handler; ``end()`` removes it.
    package struct Registration: Sendable {
        let trap: SignalTrap
        let id: Int

        /// Removes the handler (the trap is uninstalled with the last one).
        package func end() { trap.unregister(id) }
    }
}
