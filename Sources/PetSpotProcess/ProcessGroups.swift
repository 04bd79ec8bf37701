import Foundation
import PetSpotConcurrency
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process groups of the children this process started and has not terminated yet: every
/// child is started here (``spawn(executable:arguments:environment:streams:)``), in a group of
/// its own, and registered, so that ``terminateAll()`` reaches all of them, from a signal
/// handler's cleanup or when the process exits (`atexit`, installed with the first spawn).
///
/// Terminating a group sends SIGTERM to every process of it, then SIGKILL to what is left
/// after a grace period. A process that leaves its group (`setsid`) is beyond reach.
package enum ProcessGroups {
    /// Seconds between SIGTERM and SIGKILL to a group.
    package static let killGraceSeconds = 0.5

    /// The registered groups; `closed` once ``terminateAll()`` ran (then no child may start:
    /// one started while the others are being terminated would outlive the process).
    private struct Registry {
        var groups: Set<pid_t> = []
        var closed = false
        var exitHookInstalled = false
    }

    private static let registry = Locked(Registry())

    /// Starts `executable` (a path) with `arguments` in a process group of its own and registers
    /// the group; `streams` are its descriptors 0, 1 and 2. The environment is `environment`
    /// (this process's when `nil`) with ``ParentWatch/variable`` set to this process's pid, so
    /// that the package's own programs exit when this process is gone.
    ///
    /// - Returns: the child's pid, which is also its process group's id.
    /// - Throws: ``ProcessError/exiting`` once ``terminateAll()`` has run; ``ProcessError/system(operation:code:)``
    ///   when `posix_spawn` fails.
    package static func spawn(
        executable: String, arguments: [String], environment: [String: String]? = nil, streams: [ProcessSpawn.Source]
    ) throws(ProcessError) -> pid_t {
        PipeIO.ignoreBrokenPipeSignal()
        var variables = environment ?? ProcessInfo.processInfo.environment
        variables[ParentWatch.variable] = String(getpid())
        // Spawned and registered under the registry's lock, so that terminateAll() sees every child.
        let spawned = registry.withLock { registry -> Result<pid_t, ProcessError> in
            guard !registry.closed else { return .failure(.exiting) }
            if !registry.exitHookInstalled {
                registry.exitHookInstalled = true
                atexit { ProcessGroups.terminateAll() }
            }
            do throws(ProcessError) {
                let pid = try ProcessSpawn.spawn(executable: executable, arguments: arguments, environment: variables, streams: streams)
                registry.groups.insert(pid)
                return .success(pid)
            } catch {
                return .failure(error)
            }
        }
        return try spawned.get()
    }

    /// Terminates every registered group: SIGTERM to each, then SIGKILL to those left after
    /// ``killGraceSeconds``. From then on no child can start.
    package static func terminateAll() {
        let groups = registry.withLock { registry -> Set<pid_t> in
            registry.closed = true
            return registry.groups
        }
        for group in groups { kill(-group, SIGTERM) }
        let deadline = Date(timeIntervalSinceNow: killGraceSeconds)
        while Date() < deadline, groups.contains(where: isAlive) { usleep(10_000) }
        for group in groups where isAlive(group) { kill(-group, SIGKILL) }
        registry.withLock { $0.groups.subtract(groups) }
    }

    /// SIGTERM to the group, SIGKILL after `graceSeconds` if any of it is left; waits up to a
    /// second more for it to be gone, and unregisters it. `whileWaiting` runs between checks
    /// (the parent reaps its child there: a zombie is not alive on Linux, see ``isAlive(_:)``).
    package static func terminate(_ group: pid_t, graceSeconds: Double = killGraceSeconds, whileWaiting: () -> Void = {}) {
        defer { registry.withLock { _ = $0.groups.remove(group) } }
        whileWaiting()
        guard isAlive(group) else { return }
        kill(-group, SIGTERM)
        var deadline = Date(timeIntervalSinceNow: graceSeconds)
        while Date() < deadline {
            whileWaiting()
            if !isAlive(group) { return }
            usleep(10_000)
        }
        kill(-group, SIGKILL)
        deadline = Date(timeIntervalSinceNow: 1)
        while Date() < deadline {
            whileWaiting()
            if !isAlive(group) { return }
            usleep(10_000)
        }
    }

    /// Whether any process of group `group` is alive (zombies, which only wait to be reaped by
    /// their parent, do not count on Linux; elsewhere they do).
    package static func isAlive(_ group: pid_t) -> Bool {
        if kill(-group, 0) != 0 && errno == ESRCH { return false }
        #if os(Linux)
        return !livingMembers(of: group).isEmpty
        #else
        return true
        #endif
    }

    /// The pids of group `group` that are not zombies, read from /proc (Linux; empty elsewhere).
    package static func livingMembers(of group: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let state = ProcessState.read(pid), state.group == group, state.isLiving else { return nil }
            return pid
        }
    }
}
