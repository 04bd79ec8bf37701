/// At most ``limit`` holders at once, for async code: ``acquire()`` suspends (it never blocks a
/// thread) until a permit is free, ``release()`` hands it to the longest waiter.
///
/// ```swift
/// let permits = AsyncPermits(limit: 4)
/// await permits.acquire()
/// defer { permits.release() }
/// ```
///
/// Invariant: holders (permits acquired and not released) never exceed the limit; waiters are
/// served first come, first served. A waiting task that is cancelled keeps waiting.
package final class AsyncPermits: Sendable {
    private struct State {
        var limit: Int
        var holders = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Locked<State>

    /// Permits for `limit` holders at once (at least 1).
    package init(limit: Int) {
        state = Locked(State(limit: max(1, limit)))
    }

    /// The most holders at once.
    package var limit: Int { state.withLock { $0.limit } }

    /// Sets the most holders at once (at least 1); waiters that now fit are let in.
    package func setLimit(_ limit: Int) {
        let admitted = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.limit = max(1, limit)
            var admitted: [CheckedContinuation<Void, Never>] = []
            while state.holders < state.limit, !state.waiters.isEmpty {
                state.holders += 1
                admitted.append(state.waiters.removeFirst())
            }
            return admitted
        }
        for waiter in admitted { waiter.resume() }
    }

    /// Takes a permit, suspending until one is free.
    package func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state -> Bool in
                guard state.holders < state.limit else {
                    state.waiters.append(continuation)
                    return false
                }
                state.holders += 1
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    /// Gives a permit back: to the longest waiter, if any.
    package func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.holders <= state.limit, !state.waiters.isEmpty { return state.waiters.removeFirst() }
            state.holders -= 1
            return nil
        }
        next?.resume()
    }
}
