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
    package let errorIsTerminal: Bool
    /// Whether this is the process's own standard output and error (``standard()``): a command
    /// writing there owns the process and handles its signals.
    package let ownsProcess: Bool

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
