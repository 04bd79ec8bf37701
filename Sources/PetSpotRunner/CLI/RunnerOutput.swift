import Foundation
import PetSpotConcurrency
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: standard output for results, standard error for progress and errors.
///
/// Every line is written with one unbuffered `write` as it comes (other programs and CI logs
/// read it live; nothing waits in a buffer when the process ends), whole: lines written from
/// several threads never interleave.
public final class RunnerOutput: Sendable {
    /// Writes to standard output.
    private let writeOut: @Sendable (String) -> Void
    /// Writes to standard error.
    private let writeError: @Sendable (String) -> Void
    /// Held while a line is written, so lines stay whole.
    private let writing = Locked(())
    /// Whether standard error is a terminal (a live progress line with `\r` is then used).
    let errorIsTerminal: Bool
    /// Whether this is the process's own standard output and error (``standard()``): a command
    /// writing there owns the process and handles its signals.
    let ownsProcess: Bool

    /// Output to the process's standard output and standard error.
    public static func standard() -> RunnerOutput {
        RunnerOutput(
            out: { text in writeAll(1, text) },
            error: { text in writeAll(2, text) },
            errorIsTerminal: isatty(2) == 1, ownsProcess: true)
    }

    /// Output to two sinks (a host program's log, a test's buffer): each receives whole lines,
    /// newline included, one call at a time. A command writing here does not own the process
    /// (it leaves signals to the host) and draws no in-place progress line.
    public convenience init(writingOut: @escaping @Sendable (String) -> Void, writingError: @escaping @Sendable (String) -> Void) {
        self.init(out: writingOut, error: writingError, errorIsTerminal: false, ownsProcess: false)
    }

    /// Writes all of `text` to `descriptor` with `write(2)` (no buffer to flush); a reader that
    /// went away (EPIPE) or any other error ends the write quietly.
    static func writeAll(_ descriptor: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    private init(
        out: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void,
        errorIsTerminal: Bool, ownsProcess: Bool
    ) {
        writeOut = out
        writeError = error
        self.errorIsTerminal = errorIsTerminal
        self.ownsProcess = ownsProcess
    }

    /// Writes `text` and a newline to standard output.
    package func line(_ text: String = "") {
        writing.withLock { _ in writeOut(text + "\n") }
    }

    /// Writes `text` and a newline to standard error.
    package func errorLine(_ text: String) {
        writing.withLock { _ in writeError(text + "\n") }
    }

    /// Writes `text` as-is to standard error (for the `\r` progress line).
    func errorRaw(_ text: String) {
        writing.withLock { _ in writeError(text) }
    }
}

/// The live progress line of a long run: cases done, failures and rate, on standard error.
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
    /// When the work started.
    private let start: ContinuousClock.Instant
    /// The counts, behind a lock.
    private let counts: Locked<Counts>
    /// Whether the line is drawn at all.
    private let enabled: Bool

    /// A progress line for `total` units of work labelled `label`.
    init(output: RunnerOutput, label: String, total: Int, enabled: Bool = true) {
        self.output = output
        self.label = label
        self.total = total
        self.enabled = enabled
        let start = ContinuousClock.now
        self.start = start
        counts = Locked(Counts(lastWrite: start))
    }

    /// Counts `count` more units done, `failed` of them failed, and redraws when due.
    func advance(by count: Int = 1, failed: Int = 0) {
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

    /// Clears the in-place line (terminals) before the summary is printed.
    func finish() {
        counts.withLock { counts in
            if counts.wroteInPlace { output.errorRaw("\r\u{1B}[K") }
            counts.wroteInPlace = false
        }
    }

    private func render(now: ContinuousClock.Instant, done: Int, failures: Int) -> String {
        let elapsed = Double((now - start).components.seconds) + Double((now - start).components.attoseconds) / 1e18
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        return "\(label): \(done)/\(total) cases, \(failures) failed, \(Int(rate.rounded())) cases/s"
    }
}
