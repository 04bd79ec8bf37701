/// The exit codes of `petspot-contracts`, the same for every command.
///
/// CI systems branch on these: `0` and `1` mean the contracts were checked (and held or not);
/// every other code means they were not, and says whose move it is:
/// - `2` configuration: the command line was read, but what it points at cannot be used: an
///   adapter that cannot start or never answers, a report file that cannot be written, a port in
///   use, a contract that does not load, a base URL with no API under it, an admin token the
///   server refuses. Fix the setup, not the app.
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
    package static let helpText = "EXIT CODES: 0 all contracts hold, 1 a contract failed (or run checked fewer than half of its contracts), "
        + "2 configuration error (setup: adapter, files, port), 3 target unreachable, 64 usage error (flags), "
        + "70 internal error, 130/143 interrupted by SIGINT/SIGTERM."
}
