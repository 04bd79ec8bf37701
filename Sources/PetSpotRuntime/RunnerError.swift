import PetSpotReport
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
    package static func unreachable(_ message: String) -> RunnerError {
        RunnerError(.unreachable, message)
    }

    /// An internal error: the tool failed.
    package static func `internal`(_ message: String) -> RunnerError {
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
