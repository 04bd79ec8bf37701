import PetSpotConcurrency

/// A switch that another thread flips to end property runs early: cancellation for checks whose
/// every evaluation may take a long time (an adapter program, an HTTP request).
///
/// Set it as ``PropertyConfiguration/stopSignal`` and call ``stop()`` from any thread. The
/// runner asks the signal before each test case and before each shrink replay, so a run ends
/// within one evaluation of the call: with ``PropertyResult/stopped(_:)`` (and the cases run
/// so far) when no case had failed yet, or with the failure found so far, shrunk as far as it
/// got, its ``PropertyFailure/stopReason`` ``ShrinkStopReason/cancelled``.
///
/// ```swift
/// let signal = StopSignal()
/// var configuration = PropertyConfiguration(cases: 10_000)
/// configuration.stopSignal = signal
/// watchdog.onTimeout { signal.stop() }        // on another thread
/// let result = property.check(configuration)  // returns promptly after stop()
/// ```
///
/// Invariant: once stopped, a signal stays stopped; one signal may serve many runs. Reading it
/// takes one uncontended lock. Signals compare and hash by identity.
public final class StopSignal: Sendable, Hashable {
    private let stopped = Locked(false)

    /// A signal that has not been stopped.
    public init() {}

    /// Asks every run using this signal to stop as soon as its current evaluation returns.
    public func stop() {
        stopped.withLock { $0 = true }
    }

    /// Whether ``stop()`` has been called.
    public var isStopped: Bool {
        stopped.withLock { $0 }
    }

    /// Whether `left` and `right` are the same signal.
    public static func == (left: StopSignal, right: StopSignal) -> Bool {
        left === right
    }

    /// Hashes the signal's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
