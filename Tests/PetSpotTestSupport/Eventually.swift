import Foundation

/// Checks `condition` up to `polls` times, 50 ms apart, and returns whether it held: a guard
/// against a hang, counted in polls and far above what an idle machine needs (a minute by
/// default), never a measurement of time.
public func eventually(polls: Int = 1200, _ condition: () -> Bool) -> Bool {
    for _ in 0..<polls {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return condition()
}
