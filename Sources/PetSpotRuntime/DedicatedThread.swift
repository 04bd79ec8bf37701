import Foundation
import PetSpotConcurrency

/// Runs blocking work (pipes to an adapter, property runs) on its own thread, off Swift's
/// cooperative pool, and resumes with its result.
package func runOnDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            continuation.resume(returning: body())
        }
        thread.stackSize = 16 * 1024 * 1024
        thread.start()
    }
}

/// Runs async work from a thread that may block (a property's body, a proxy's connection thread),
/// and waits for its result. Never call it from the cooperative pool: the task it starts needs a
/// thread of that pool.
package func blockingAwait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = Locked<T?>(nil)
    Task { let value = await body(); result.withLock { $0 = value } }
    while true {
        // A finite deadline: NSCondition cannot wait until `Date.distantFuture`.
        if let value = result.withLock(waitingUntil: Date(timeIntervalSinceNow: 3600), for: { $0 != nil }, { value, _ in value }) { return value }
    }
}
