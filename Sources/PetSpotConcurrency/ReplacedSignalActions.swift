#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A C signal handler installed for some signals, and the actions it replaced, to put back.
///
/// The part of catching SIGINT and SIGTERM that the HTTP server's trap
/// (`runUntilTerminated`) and the runner's trap share: each forwards the signal through its own
/// pipe from its own handler, and installs and restores that handler through this type.
///
/// Unchecked `Sendable`, and safe: the stored actions are plain data (a handler's address, a
/// signal mask, flags), never mutated after ``install(_:for:)``.
package struct ReplacedSignalActions: @unchecked Sendable {
    /// The action each signal had before ``install(_:for:)``.
    private let replaced: [(signal: Int32, action: sigaction)]

    /// Installs `handler` for `signals` (with `SA_RESTART`, blocking no other signal while it
    /// runs) and remembers the actions it replaced.
    package static func install(_ handler: @convention(c) (Int32) -> Void, for signals: [Int32]) -> ReplacedSignalActions {
        var replaced: [(signal: Int32, action: sigaction)] = []
        for signalNumber in signals {
            var action = sigaction()
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = handler
            #else
            action.__sigaction_handler.sa_handler = handler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var previous = sigaction()
            sigaction(signalNumber, &action, &previous)
            replaced.append((signalNumber, previous))
        }
        return ReplacedSignalActions(replaced: replaced)
    }

    /// Puts back the actions the handler replaced.
    package func restore() {
        for (signalNumber, action) in replaced {
            var previous = action
            sigaction(signalNumber, &previous, nil)
        }
    }
}
