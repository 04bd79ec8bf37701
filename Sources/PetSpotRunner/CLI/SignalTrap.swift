import Dispatch
import Foundation
import PetSpotConcurrency
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Darwin)
private typealias SignalHandler = sig_t
#else
private typealias SignalHandler = __sighandler_t
#endif

/// SIGINT and SIGTERM while a command runs: what the runner does before it ends.
///
/// While at least one handler is registered, both signals are caught (a dispatch source; the
/// previous dispositions come back when the last handler goes). On a signal:
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

    /// Unchecked: dispatch sources are thread-safe; the box is created, resumed and cancelled
    /// under the trap's lock only.
    private final class Sources: @unchecked Sendable {
        /// One source per signal.
        let sources: [DispatchSourceSignal]
        /// The dispositions replaced.
        let previous: [Int32: SignalHandler?]
        /// The installed sources and the dispositions they replaced.
        init(sources: [DispatchSourceSignal], previous: [Int32: SignalHandler?]) {
            self.sources = sources
            self.previous = previous
        }
    }

    /// The handlers, the installed sources, and the signals received.
    private struct State: Sendable {
        /// The handlers by registration id.
        var handlers: [Int: Handler] = [:]
        /// The next registration id.
        var nextId = 0
        /// The sources, while installed.
        var sources: Sources?
        /// Signals received since installation.
        var received = 0
        /// The process is exiting on a signal.
        var exiting = false
    }

    /// The trap's state.
    private let state = Locked(State())

    /// The exit code for a command ended by `signal`: 130 for SIGINT, 143 for SIGTERM.
    package static func exitCode(for signal: Int32) -> RunnerExitCode {
        signal == SIGINT ? .interrupted : .terminated
    }

    /// The signal's name, `SIGINT` or `SIGTERM`.
    package static func name(_ signal: Int32) -> String {
        signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)"
    }

    /// Registers `handler` until the returned registration is ended.
    package func register(_ handler: Handler) -> Registration {
        let id = state.withLock { state -> Int in
            let id = state.nextId
            state.nextId += 1
            state.handlers[id] = handler
            if state.sources == nil { state.sources = Self.install(trap: self) }
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
        let removed = state.withLock { state -> Sources? in
            state.handlers[id] = nil
            guard state.handlers.isEmpty, let sources = state.sources else { return nil }
            state.sources = nil
            state.received = 0
            return sources
        }
        if let removed { Self.uninstall(removed) }
    }

    /// Ignores SIGINT and SIGTERM and watches them with dispatch sources instead.
    private static func install(trap: SignalTrap) -> Sources {
        var previous: [Int32: SignalHandler?] = [:]
        var sources: [DispatchSourceSignal] = []
        for signalNumber in signals {
            previous[signalNumber] = signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { trap.received(signalNumber) }
            source.resume()
            sources.append(source)
        }
        return Sources(sources: sources, previous: previous)
    }

    /// Cancels the sources and restores the previous dispositions.
    private static func uninstall(_ sources: Sources) {
        for source in sources.sources { source.cancel() }
        for (signalNumber, handler) in sources.previous {
            _ = signal(signalNumber, handler ?? SIG_DFL)
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

/// The interruption state of one `run`: the first SIGINT or SIGTERM stops the run's budgeted
/// transports from starting new cases (``BudgetedTransport/stopGranting(because:)``); the signal
/// chooses the exit code at the end.
package final class RunInterruption: Sendable {
    /// The signal received, and the transports to stop.
    private struct State: Sendable {
        /// The first signal received.
        var signal: Int32?
        /// The transports to stop.
        var transports: [BudgetedTransport] = []
    }

    /// The interruption's state.
    private let state = Locked(State())

    /// No interruption yet.
    package init() {}

    /// Makes `transport` stop granting requests when the run is interrupted (at once if it was).
    package func stops(_ transport: BudgetedTransport) {
        let signal = state.withLock { state -> Int32? in
            state.transports.append(transport)
            return state.signal
        }
        if let signal { transport.stopGranting(because: Self.reason(signal)) }
    }

    /// Records `signal` (the first one counts), stops the transports and says so on `output`.
    package func interrupt(_ signal: Int32, output: RunnerOutput? = nil) {
        let transports = state.withLock { state -> [BudgetedTransport]? in
            guard state.signal == nil else { return nil }
            state.signal = signal
            return state.transports
        }
        guard let transports else { return }
        for transport in transports { transport.stopGranting(because: Self.reason(signal)) }
        output?.errorLine(
            "petspot-contracts run: \(SignalTrap.name(signal)) received: no new case is started; cleaning up and writing the "
                + "report so far (a second signal exits at once)")
    }

    /// Why reservations stop, for notes.
    private static func reason(_ signal: Int32) -> String { "the run was interrupted by \(SignalTrap.name(signal))" }

    /// The signal received, if any.
    package var signal: Int32? { state.withLock { $0.signal } }

    /// 130 or 143 once interrupted, else `nil`.
    package var exitCode: RunnerExitCode? { signal.map(SignalTrap.exitCode(for:)) }
}
