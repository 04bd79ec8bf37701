/// Where one standard stream of a child process goes.
///
/// Never the parent's own stream unless ``inherited`` is asked for: a child that holds its
/// parent's standard output keeps whoever reads that output waiting for as long as it lives
/// (an orphaned `mock` holding `swift test`'s pipe hung the test run).
package enum ChildStream: Sendable, Equatable {
    /// `/dev/null`.
    case null
    /// A pipe to the parent: the parent writes the child's input (``ChildProcess/write(_:timeout:)``)
    /// or reads its output (``ChildProcess/readLine(timeout:)``).
    case pipe
    /// A pipe that a thread of the parent drains into memory as the child writes it (output
    /// only), so that the child never blocks on a full pipe; read with
    /// ``ChildProcess/collectedOutput(waitingUpTo:)`` and ``ChildProcess/collectedError(waitingUpTo:)``.
    case collected
    /// A file: read for input; created (mode 0600) or truncated for output.
    case file(String)
    /// A descriptor of the parent's (a pipe end or file the caller made and still owns).
    case descriptor(Int32)
    /// The parent's own stream of the same number.
    case inherited
}
