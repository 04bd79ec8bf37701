import PetSpotReport
/// The exit codes of `petspot-contracts`, the same for every command.
///
/// CI systems branch on these: `0` and `1` mean the contracts were checked (and held or not);
/// every other code means they were not, and says whose move it is:
/// - `2` configuration: the command line was read, but what it points at cannot be used: an
///   adapter that cannot start or never answers, a report file that cannot be written, a port in
///   use, a contract that does not load. Fix the setup, not the app.
/// - `3` unreachable: the target backend did not answer at all.
/// - `64` usage (as swift-argument-parser and sysexits' EX_USAGE): an unknown flag, a bad value;
///   nothing was run.
/// - `70` internal (sysexits' EX_SOFTWARE): the tool itself failed; please report it.
/// - `130` and `143`: interrupted by SIGINT or SIGTERM (`run` stops starting cases, cleans up,
///   prints and writes the report so far; `check` stops its adapter and writes the report so far).
public enum RunnerExitCode: Int32, Sendable, CaseIterable {
    /// Every contract held (or help was printed).
    case success = 0
    /// At least one contract failed, or `run` checked fewer than half of its contracts.
    case contractFailed = 1
    /// The configuration cannot be used: an adapter that cannot start, a file that cannot be
    /// written, a port in use.
    case configuration = 2
    /// The target backend could not be reached (connection refused, unknown host, no answer).
    case unreachable = 3
    /// A usage error: unknown command or flag, bad value, bad URL.
    case usage = 64
    /// The tool itself failed.
    case `internal` = 70
    /// Interrupted by SIGINT (128 + 2).
    case interrupted = 130
    /// Interrupted by SIGTERM (128 + 15).
    case terminated = 143

    /// The exit codes in one line, as `--help` and the overview print them.
    static let helpText = "EXIT CODES: 0 all contracts hold, 1 a contract failed (or run checked fewer than half of its contracts), "
        + "2 configuration error (setup: adapter, files, port), 3 target unreachable, 64 usage error (flags), "
        + "70 internal error, 130/143 interrupted by SIGINT/SIGTERM."
}

/// Every error the command line can end with, mapped in one place to one line and an exit code.
///
/// Commands throw these (or anything else, which becomes an internal error with exit code 70);
/// ``PetSpotContractsTool/run(arguments:output:)`` catches them and prints
/// ``message`` as a single line on standard error, never a stack trace.
public struct RunnerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which kind of failure, deciding the exit code.
    public enum Kind: Sendable, Hashable {
        /// Bad command line: unknown command or flag, missing or malformed value.
        case usage
        /// Readable command line but unusable configuration (a file that cannot be written, an
        /// adapter command that cannot start).
        case configuration
        /// The target could not be reached.
        case unreachable
        /// The tool itself failed (an error no command expected).
        case `internal`
    }

    /// The kind of failure.
    public let kind: Kind
    /// One line, without the program name, e.g. `unknown option '--cses'; did you mean '--cases'?`.
    public let message: String
    /// The command the error concerns, for the `see '... --help'` hint (nil: the tool itself).
    public let command: String?

    /// Creates an error of `kind` with a one-line `message` (line breaks become spaces, other
    /// control characters are escaped, and it is cut after 2 KiB; `##[` and `::` are shown
    /// escaped, see ``WorkflowCommands``).
    init(_ kind: Kind, _ message: String, command: String? = nil) {
        self.kind = kind
        self.message = WorkflowCommands.visible(DisplayText.sanitized(message.replacingOccurrences(of: "\n", with: " "), maxBytes: 2048))
        self.command = command
    }

    /// A usage error.
    package static func usage(_ message: String, command: String? = nil) -> RunnerError {
        RunnerError(.usage, message, command: command)
    }

    /// A configuration error.
    package static func configuration(_ message: String, command: String? = nil) -> RunnerError {
        RunnerError(.configuration, message, command: command)
    }

    /// An unreachable target.
    static func unreachable(_ message: String) -> RunnerError {
        RunnerError(.unreachable, message)
    }

    /// An internal error: the tool failed.
    static func `internal`(_ message: String) -> RunnerError {
        RunnerError(.internal, "internal error (please report it): " + message)
    }

    /// The exit code for this error.
    public var exitCode: RunnerExitCode {
        switch kind {
        case .usage: .usage
        case .configuration: .configuration
        case .unreachable: .unreachable
        case .internal: .internal
        }
    }

    /// The full line printed on standard error.
    public var description: String {
        var line = "petspot-contracts\(command.map { " \($0)" } ?? ""): error: \(message)"
        if kind == .usage {
            line += " (see 'petspot-contracts\(command.map { " \($0)" } ?? "") --help')"
        }
        return line
    }
}
