import Foundation
import PetSpotConcurrency

/// The live progress line of a long run, on standard error: the group under way (`group 5/14:
/// details`), and the units done (cases, scenarios), failed and their rate once some are counted.
/// A part of a group that counts other units draws a line of its own (``stage(_:total:unit:)``).
///
/// Any group drives it: ``beginGroup(_:number:of:)`` when a group starts (the registry's loop
/// calls it for every group), ``advance(by:failed:)`` for a group that counts cases. It is also
/// redrawn on its own, by a ticker, so a group that counts nothing (or waits on a slow target)
/// still shows: in place with `\r` at most ten times a second on a terminal, otherwise (CI logs,
/// pipes, files) as a plain line at most every five seconds. Nothing is written during the first
/// second, so short runs stay quiet.
package final class ProgressLine: Sendable {
    /// Time since the line was made.
    package typealias Elapsed = @Sendable () -> Duration

    /// Nothing is written before this much time has passed.
    package static let quietStart: Duration = .seconds(1)
    /// The least time between two lines on a pipe or file.
    package static let pipeInterval: Duration = .seconds(5)
    /// The least time between two redraws in place on a terminal.
    package static let terminalInterval: Duration = .milliseconds(100)

    /// The group under way: its place among the run's groups and its name.
    private struct Group: Sendable {
        var number: Int
        var count: Int
        var name: String
    }

    /// What advances and redraws change.
    private struct State: Sendable {
        /// When the line was last drawn (time since the line was made).
        var lastWrite: Duration = .zero
        /// Units done.
        var done = 0
        /// Units failed.
        var failures = 0
        /// The group under way, once one began.
        var group: Group?
        /// A line was drawn in place (and must be cleared).
        var wroteInPlace = false
        /// ``finish()`` was called: nothing more is drawn.
        var finished = false
    }

    /// Where the line is drawn.
    private let output: RunnerOutput
    /// The label, e.g. `check`.
    private let label: String
    /// Units in all.
    private let total: Int
    /// What a unit is, plural: `cases`.
    private let unit: String
    /// Whether the line is drawn at all.
    private let enabled: Bool
    /// Whether the line is redrawn in place (a terminal) rather than written as lines.
    private let inPlace: Bool
    /// Time since the line was made.
    private let elapsed: Elapsed
    /// The counts, behind a lock.
    private let state = Locked(State())

    /// A progress line for `total` units of work (`unit`, plural) labelled `label`, redrawn in place when
    /// `inPlace` (by default: when standard error is a terminal). With the real clock (`elapsed`
    /// `nil`) a ticker redraws it while the run lasts; with a clock of the caller's (tests) it is
    /// drawn only when a group begins, work advances or ``tick()`` is called.
    package init(
        output: RunnerOutput, label: String, total: Int, unit: String = "cases", enabled: Bool = true, inPlace: Bool? = nil,
        elapsed: Elapsed? = nil
    ) {
        self.output = output
        self.label = label
        self.total = total
        self.unit = unit
        self.enabled = enabled
        let inPlace = inPlace ?? output.errorIsTerminal
        self.inPlace = inPlace
        if let elapsed {
            self.elapsed = elapsed
            return
        }
        let start = ContinuousClock.now
        self.elapsed = { ContinuousClock.now - start }
        guard enabled else { return }
        let period = inPlace ? Self.terminalInterval : Self.quietStart
        let seconds = Double(period.components.seconds) + Double(period.components.attoseconds) / 1e18
        // A thread of its own, off the cooperative pool: groups that block their threads (an
        // adapter's pipes, a proxy) must not stop the line that says they are running.
        let ticker = Thread { [weak self] in
            while true {
                Thread.sleep(forTimeInterval: seconds)
                guard let line = self, !line.isFinished else { return }
                line.tick()
            }
        }
        ticker.start()
    }

    /// Whether ``finish()`` was called.
    private var isFinished: Bool { state.withLock { $0.finished } }

    /// Notes that group `number` of `count`, `name`, has begun, and redraws when due.
    package func beginGroup(_ name: String, number: Int, of count: Int) {
        state.withLock { state in
            state.group = Group(number: number, count: count, name: name)
            draw(&state)
        }
    }

    /// Counts `count` more units done, `failed` of them failed, and redraws when due.
    package func advance(by count: Int = 1, failed: Int = 0) {
        state.withLock { state in
            state.done += count
            state.failures += failed
            draw(&state)
        }
    }

    /// Redraws the line when due (the ticker calls it; so may a caller with its own clock).
    package func tick() {
        state.withLock { draw(&$0) }
    }

    /// A line of its own for a part of the run that counts other units: `total` units of `unit`
    /// labelled `label`, on the same output, drawn when it advances (it has no ticker: this
    /// line's keeps naming the group). Finish it before this one.
    package func stage(_ label: String, total: Int, unit: String) -> ProgressLine {
        let start = ContinuousClock.now
        return ProgressLine(
            output: output, label: label, total: total, unit: unit, enabled: enabled, inPlace: inPlace, elapsed: { ContinuousClock.now - start })
    }

    /// Stops the line for good and clears it from a terminal, before the summary is printed.
    package func finish() {
        state.withLock { state in
            if state.wroteInPlace { output.errorRaw("\r\u{1B}[K") }
            state.wroteInPlace = false
            state.finished = true
        }
    }

    /// Draws the line if it is on, past the quiet start, and the interval since the last one passed.
    private func draw(_ state: inout State) {
        guard enabled, !state.finished else { return }
        let now = elapsed()
        guard now >= Self.quietStart else { return }
        guard now - state.lastWrite >= (inPlace ? Self.terminalInterval : Self.pipeInterval) else { return }
        state.lastWrite = now
        let text = render(state, now: now)
        if inPlace {
            output.errorRaw("\r\u{1B}[K" + text)
            state.wroteInPlace = true
        } else {
            output.errorLine(text)
        }
    }

    /// `run: group 2/14: submission, 12/20 cases, 0 failed, 3.0 cases/s (14 s)`; the group part
    /// when one began, the cases part once some are done.
    private func render(_ state: State, now: Duration) -> String {
        let seconds = Double(now.components.seconds) + Double(now.components.attoseconds) / 1e18
        var parts: [String] = []
        if let group = state.group { parts.append("group \(group.number)/\(group.count): \(group.name)") }
        if state.done > 0 || state.group == nil {
            let rate = seconds > 0 ? Double(state.done) / seconds : 0
            let shownRate = rate >= 10 ? String(Int(rate.rounded())) : String(format: "%.1f", rate)
            parts.append("\(state.done)/\(total) \(unit), \(state.failures) failed, \(shownRate) \(unit)/s")
        }
        return "\(label): " + parts.joined(separator: ", ") + " (\(Int(seconds)) s)"
    }
}
