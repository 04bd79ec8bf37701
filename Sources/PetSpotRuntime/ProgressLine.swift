import Foundation
import PetSpotConcurrency

/// The live progress line of a long run: units done (cases, scenarios), failures and rate, on
/// standard error. A later part of the run that counts other units draws a line of its own
/// (``stage(_:total:unit:)``).
///
/// On a terminal the line is rewritten in place with `\r` at most ten times a second; otherwise
/// (CI logs) a plain line is written at most every five seconds. Nothing is written during the
/// first second, so short runs stay quiet.
package final class ProgressLine: Sendable {
    /// What advances and redraws change.
    private struct Counts: Sendable {
        /// When the line was last drawn.
        var lastWrite: ContinuousClock.Instant
        /// Units done.
        var done = 0
        /// Units failed.
        var failures = 0
        /// A line was drawn in place (and must be cleared).
        var wroteInPlace = false
    }

    /// Where the line is drawn.
    private let output: RunnerOutput
    /// The label, e.g. `check`.
    private let label: String
    /// Units in all.
    private let total: Int
    /// What a unit is, plural: `cases`.
    private let unit: String
    /// When the work started.
    private let start: ContinuousClock.Instant
    /// The counts, behind a lock.
    private let counts: Locked<Counts>
    /// Whether the line is drawn at all.
    private let enabled: Bool

    /// A progress line for `total` units of work (`unit`, plural) labelled `label`.
    package init(output: RunnerOutput, label: String, total: Int, unit: String = "cases", enabled: Bool = true) {
        self.output = output
        self.label = label
        self.total = total
        self.unit = unit
        self.enabled = enabled
        let start = ContinuousClock.now
        self.start = start
        counts = Locked(Counts(lastWrite: start))
    }

    /// Counts `count` more units done, `failed` of them failed, and redraws when due.
    package func advance(by count: Int = 1, failed: Int = 0) {
        counts.withLock { counts in
            counts.done += count
            counts.failures += failed
            guard enabled else { return }
            let now = ContinuousClock.now
            guard now - start >= .seconds(1) else { return }
            let interval: Duration = output.errorIsTerminal ? .milliseconds(100) : .seconds(5)
            guard now - counts.lastWrite >= interval else { return }
            counts.lastWrite = now
            let text = render(now: now, done: counts.done, failures: counts.failures)
            if output.errorIsTerminal {
                output.errorRaw("\r\u{1B}[K" + text)
                counts.wroteInPlace = true
            } else {
                output.errorLine(text)
            }
        }
    }

    /// A line of its own for a later part of the run, `total` units of `unit` labelled `label`,
    /// drawn to the same output when this one is drawn. Finish this line first.
    package func stage(_ label: String, total: Int, unit: String) -> ProgressLine {
        ProgressLine(output: output, label: label, total: total, unit: unit, enabled: enabled)
    }

    /// Clears the in-place line (terminals) before the summary is printed.
    package func finish() {
        counts.withLock { counts in
            if counts.wroteInPlace { output.errorRaw("\r\u{1B}[K") }
            counts.wroteInPlace = false
        }
    }

    private func render(now: ContinuousClock.Instant, done: Int, failures: Int) -> String {
        let elapsed = Double((now - start).components.seconds) + Double((now - start).components.attoseconds) / 1e18
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let shownRate = rate >= 10 ? String(Int(rate.rounded())) : String(format: "%.1f", rate)
        return "\(label): \(done)/\(total) \(unit), \(failures) failed, \(shownRate) \(unit)/s"
    }
}
