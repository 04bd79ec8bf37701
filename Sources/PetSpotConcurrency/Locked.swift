import Foundation

/// A value behind a lock: the one way this package shares mutable state between threads.
///
/// Every read and write of the value goes through ``withLock(_:)``, so no code can touch it
/// without holding the lock, and the type is honestly `Sendable` whenever its value is. A
/// thread that must wait for another thread's change (an adapter's next answer line, a worker
/// finishing) uses ``withLock(waitingUntil:for:_:)``: the lock doubles as a condition variable,
/// and every ``withLock(_:)`` wakes the waiters to re-check their condition.
///
/// ```swift
/// let counter = Locked(0)
/// counter.withLock { $0 += 1 }
/// let answer = lines.withLock(waitingUntil: deadline, for: { !$0.isEmpty }) { lines, ready in
///     ready ? lines.removeFirst() : nil
/// }
/// ```
///
/// Invariant: `value` is read or written only between `condition.lock()` and
/// `condition.unlock()`; `body` closures must not call back into the same `Locked` (the lock is
/// not recursive). Cost: one uncontended mutex acquisition per access.
package final class Locked<Value> {
    private let condition = NSCondition()
    private var value: Value

    /// A lock around `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value, then wakes any waiting thread.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Waits until `isReady` holds for the value or `deadline` passes, then runs `body` with
    /// exclusive access; `body` learns whether the condition held.
    package func withLock<Result>(
        waitingUntil deadline: Date, for isReady: (Value) -> Bool, _ body: (inout Value, _ isReady: Bool) throws -> Result
    ) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        var ready = isReady(value)
        while !ready {
            if !condition.wait(until: deadline) {
                ready = isReady(value)
                break
            }
            ready = isReady(value)
        }
        return try body(&value, ready)
    }
}

// Proof of the unchecked conformance: `value` is private and every access holds `condition`
// (see the invariant above), so sharing a `Locked` between threads never races, provided the
// value itself may cross threads.
extension Locked: @unchecked Sendable where Value: Sendable {}
