import Foundation
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// The deadline of one `run` (`--deadline`): when it passes, the run's budgeted transport stops
/// granting requests (``BudgetedTransport/stopGranting(because:)``, as an interruption does), so
/// no new request is sent; the requests under way end within their `--timeout`, every group
/// still to run is skipped with the reason, cleanup runs and the report is written.
///
/// A target that answers its health check and then nothing costs the run at most its deadline
/// plus one `--timeout` and the cleanup (itself bounded by the breaker).
package final class RunDeadline: Sendable {
    /// The seconds the run may take.
    package let seconds: Double
    /// Whether it passed, and the timer.
    private let state = Locked<(passed: Bool, timer: Task<Void, Never>?, stop: (@Sendable () -> Void)?)>((false, nil, nil))

    /// A deadline `seconds` after ``start(stopping:output:)``.
    package init(seconds: Double) {
        self.seconds = seconds
    }

    /// Why requests stop once it passed, for notes and skip reasons.
    package var reason: String { "the run's deadline (--deadline \(ContractReport.plainNumber(seconds)) s) passed" }

    /// Whether it passed.
    package var hasPassed: Bool { state.withLock { $0.passed } }

    /// Starts the timer: when it fires, `transport` stops granting requests and `output` says so.
    package func start(stopping transport: BudgetedTransport, output: RunnerOutput) {
        let reason = reason
        let stop: @Sendable () -> Void = {
            transport.stopGranting(because: reason)
            output.errorLine("petspot-contracts run: \(reason): no new request is sent; cleaning up and writing the report")
        }
        let nanoseconds = UInt64(min(seconds, 1e9) * 1e9)
        let timer = Task { [weak self] in
            try? await Task.sleep(nanoseconds: nanoseconds)
            if !Task.isCancelled { self?.expire() }
        }
        state.withLock { state in
            state.stop = stop
            state.timer = timer
        }
    }

    /// Ends the run's time now (the timer does it; tests call it to end a run at a chosen
    /// request): every later request is refused. Does nothing the second time, or before
    /// ``start(stopping:output:)``.
    package func expire() {
        let stop = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.passed, let stop = state.stop else { return nil }
            state.passed = true
            return stop
        }
        stop?()
    }

    /// Stops the timer (the run is over).
    package func cancel() {
        state.withLock { $0.timer }?.cancel()
    }
}
