import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Ends one of the package's own programs (`petspot-contracts mock`, the example adapter, the
/// adapter filter) when the process that started it is gone, even when that process was killed
/// with SIGKILL and could clean nothing up.
///
/// ``ProcessGroups`` sets ``variable`` to its own pid in every child's environment. A program
/// that finds it set starts a thread that checks `getppid()` every ``interval`` seconds and
/// calls `onParentGone` once the parent has changed (the child was handed to another reaper). A
/// program started through a shell that did not `exec` it (`sh -c 'a | b'`) has the shell as
/// its parent: it watches that parent, and the process the variable names as well.
///
/// Not `PR_SET_PDEATHSIG`: that fires when the *thread* that spawned the child exits, and the
/// threads of a test process come and go while the process lives on.
package enum ParentWatch {
    /// The environment variable naming the spawner's pid.
    package static let variable = "PETSPOT_EXIT_WITH_PARENT"
    /// Seconds between two checks.
    package static let interval = 0.2

    /// What the program does when its parent is gone.
    package enum Ending: Sendable {
        /// `exit(0)`: for a program with nothing to clean up (an adapter, a filter).
        case exit
        /// SIGTERM to this process: for a program that stops cleanly on it (`mock`).
        case terminationSignal
    }

    /// Starts the watch when ``variable`` holds a pid; returns whether it started.
    @discardableResult
    package static func start(ending: Ending) -> Bool {
        start { () -> Void in
            switch ending {
            case .exit: Foundation.exit(0)
            case .terminationSignal: kill(getpid(), SIGTERM)
            }
        }
    }

    /// Starts the watch when ``variable`` holds a pid; returns whether it started.
    /// `onParentGone` runs once, on the watch's thread.
    @discardableResult
    package static func start(
        environment: [String: String] = ProcessInfo.processInfo.environment, onParentGone: @escaping @Sendable () -> Void
    ) -> Bool {
        guard let text = environment[variable], let spawner = pid_t(text), spawner > 1 else { return false }
        let parent = getppid()
        let thread = Thread {
            while !isGone(spawner: spawner, parent: parent) { usleep(useconds_t(interval * 1_000_000)) }
            onParentGone()
        }
        thread.name = "petspot-parent-watch"
        thread.stackSize = 128 * 1024
        thread.start()
        return true
    }

    /// Whether the parent this process started with (`parent`) is gone, or, when that is not
    /// the `spawner` the variable names, the spawner is.
    static func isGone(spawner: pid_t, parent: pid_t) -> Bool {
        if getppid() != parent { return true }
        return parent != spawner && !ProcessState.isAlive(spawner)
    }
}
