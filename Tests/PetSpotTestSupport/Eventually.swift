import Foundation

/// Checks `condition` up to `polls` times, `interval` seconds apart, and returns whether it held:
/// a guard against a hang, counted in polls and far above what an idle machine needs (a minute
/// by default), never a measurement of time.
public func eventually(polls: Int = 1200, every interval: Double = 0.05, _ condition: () -> Bool) -> Bool {
    for _ in 0..<polls {
        if condition() { return true }
        Thread.sleep(forTimeInterval: interval)
    }
    return condition()
}
