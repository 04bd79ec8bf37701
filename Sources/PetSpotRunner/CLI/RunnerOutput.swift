import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: standard output for results, standard error for progress and errors.
///
/// Every line is flushed as it is written (other programs and CI logs read it live). Tests use
/// ``RunnerOutput/capturing()`` to collect what a command prints.
public final class RunnerOutput: @unchecked Sendable {
    // Unchecked: every mutable member is guarded by `lock`.
    private let lock = NSLock()
    private let writeOut: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void
    private var capturedOut = ""
    private var capturedError = ""
    private let captures: Bool
    /// Whether standard error is a terminal (a live progress line with `\r` is then used).
    public let errorIsTerminal: Bool

    /// Output to the process's standard output and standard error.
    public static func standard() -> RunnerOutput {
        RunnerOutput(
            out: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            error: { text in FileHandle.standardError.write(Data(text.utf8)) },
            errorIsTerminal: isatty(2) == 1, captures: false)
    }

    /// Output collected in memory, for tests (read ``standardOutput`` and ``standardError``).
    public static func capturing() -> RunnerOutput {
        RunnerOutput(out: { _ in }, error: { _ in }, errorIsTerminal: false, captures: true)
    }

    private init(
        out: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void,
        errorIsTerminal: Bool, captures: Bool
    ) {
        writeOut = out
        writeError = error
        self.errorIsTerminal = errorIsTerminal
        self.captures = captures
    }

    /// Writes `text` and a newline to standard output.
    public func line(_ text: String = "") {
        lock.withLock {
            if captures { capturedOut += text + "\n" } else { writeOut(text + "\n") }
        }
    }

    /// Writes `text` and a newline to standard error.
    public func errorLine(_ text: String) {
        lock.withLock {
            if captures { capturedError += text + "\n" } else { writeError(text + "\n") }
        }
    }

    /// Writes `text` as-is to standard error (for the `\r` progress line).
    public func errorRaw(_ text: String) {
        lock.withLock {
            if captures { capturedError += text } else { writeError(text) }
        }
    }

    /// Everything written to standard output (capturing outputs only).
    public var standardOutput: String { lock.withLock { capturedOut } }

    /// Everything written to standard error (capturing outputs only).
    public var standardError: String { lock.withLock { capturedError } }
}

/// The live progress line of a long run: cases done, failures and rate, on standard error.
///
/// On a terminal the line is rewritten in place with `\r` at most ten times a second; otherwise
/// (CI logs) a plain line is written at most every five seconds. Nothing is written during the
/// first second, so short runs stay quiet.
public final class ProgressLine: @unchecked Sendable {
    // Unchecked: every mutable member is guarded by `lock`.
    private let lock = NSLock()
    private let output: RunnerOutput
    private let label: String
    private let total: Int
    private let start = ContinuousClock.now
    private var lastWrite: ContinuousClock.Instant
    private var done = 0
    private var failures = 0
    private var wroteInPlace = false
    private let enabled: Bool

    /// A progress line for `total` units of work labelled `label`.
    public init(output: RunnerOutput, label: String, total: Int, enabled: Bool = true) {
        self.output = output
        self.label = label
        self.total = total
        self.enabled = enabled
        lastWrite = start
    }

    /// Counts `count` more units done, `failed` of them failed, and redraws when due.
    public func advance(by count: Int = 1, failed: Int = 0) {
        lock.withLock {
            done += count
            failures += failed
            guard enabled else { return }
            let now = ContinuousClock.now
            guard now - start >= .seconds(1) else { return }
            let interval: Duration = output.errorIsTerminal ? .milliseconds(100) : .seconds(5)
            guard now - lastWrite >= interval else { return }
            lastWrite = now
            let text = render(now: now)
            if output.errorIsTerminal {
                output.errorRaw("\r\u{1B}[K" + text)
                wroteInPlace = true
            } else {
                output.errorLine(text)
            }
        }
    }

    /// Clears the in-place line (terminals) before the summary is printed.
    public func finish() {
        lock.withLock {
            if wroteInPlace { output.errorRaw("\r\u{1B}[K") }
            wroteInPlace = false
        }
    }

    private func render(now: ContinuousClock.Instant) -> String {
        let elapsed = Double((now - start).components.seconds) + Double((now - start).components.attoseconds) / 1e18
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        return "\(label): \(done)/\(total) cases, \(failures) failed, \(Int(rate.rounded())) cases/s"
    }
}
