import Foundation
import PetSpotConcurrency
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The interruption state of one `run` or `check`: the first SIGINT or SIGTERM runs the actions
/// registered (`run`: its budgeted transports stop granting requests; `check`: its flow cases
/// stop and its adapters are stopped); the signal chooses the exit code at the end.
package final class RunInterruption: Sendable {
    /// The signal received, and what to do on it.
    private struct State: Sendable {
        /// The first signal received.
        var signal: Int32?
        /// What to do on the signal, in order.
        var actions: [@Sendable (Int32) -> Void] = []
    }

    /// The interruption's state.
    private let state = Locked(State())

    /// The command interrupted, for the message (`run`, `check`).
    private let command: String

    /// No interruption yet.
    package init(command: String = "run") {
        self.command = command
    }

    /// Runs `action` with the signal when the command is interrupted (at once if it was), after
    /// the actions registered before it.
    package func onInterrupt(_ action: @escaping @Sendable (Int32) -> Void) {
        let signal = state.withLock { state -> Int32? in
            state.actions.append(action)
            return state.signal
        }
        if let signal { action(signal) }
    }

    /// Makes `transport` stop granting requests when the run is interrupted (at once if it was).
    package func stops(_ transport: some RequestGranting) {
        onInterrupt { transport.stopGranting(because: Self.reason($0)) }
    }

    /// Records `signal` (the first one counts), says so on `output` and runs the registered actions.
    package func interrupt(_ signal: Int32, output: RunnerOutput? = nil) {
        let actions = state.withLock { state -> [@Sendable (Int32) -> Void]? in
            guard state.signal == nil else { return nil }
            state.signal = signal
            return state.actions
        }
        guard let actions else { return }
        // Said first: once the actions have run, the command may finish and exit at any moment.
        output?.errorLine(
            "petspot-contracts \(command): \(SignalTrap.name(signal)) received: no new case is started; cleaning up and writing the "
                + "report so far (a second signal exits at once)")
        for action in actions { action(signal) }
    }

    /// Why reservations stop, for notes.
    private static func reason(_ signal: Int32) -> String { "the run was interrupted by \(SignalTrap.name(signal))" }

    /// The signal received, if any.
    package var signal: Int32? { state.withLock { $0.signal } }

    /// 130 or 143 once interrupted, else `nil`.
    package var exitCode: RunnerExitCode? { signal.map(SignalTrap.exitCode(for:)) }
}
