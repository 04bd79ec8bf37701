#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a child process could not be started, written to, or read from.
package enum ProcessError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `operation` failed with `errno` `code` (a pipe, `posix_spawn`, opening a stream's file).
    case system(operation: String, code: Int32)
    /// The process is exiting and terminating its children: no child may start now (it would
    /// outlive the process).
    case exiting
    /// The child's standard input is closed: it exited, or closed it (EPIPE), or ``ChildProcess/closeInput()`` was called.
    case inputClosed(written: Int, of: Int)
    /// The child did not read all that was written within `seconds` seconds: `written` of `of` bytes went.
    case inputStalled(written: Int, of: Int, seconds: Double)
    /// The stream was not asked for as a pipe when the child started.
    case notPiped(stream: String)

    package var description: String {
        switch self {
        case .system(let operation, let code): "\(operation): \(String(cString: strerror(code)))"
        case .exiting: "the process is exiting: no child process may start"
        case .inputClosed(let written, let total): "the child's standard input is closed (broken pipe) after \(written) of \(total) bytes"
        case .inputStalled(let written, let total, let seconds):
            "the child did not read its standard input within \(seconds) s (\(written) of \(total) bytes written)"
        case .notPiped(let stream): "the child's \(stream) is not a pipe to this process"
        }
    }
}
