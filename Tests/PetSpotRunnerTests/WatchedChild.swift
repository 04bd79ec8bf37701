import Foundation
import PetSpotProcess
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program run as a child (``ChildProcess``: its own process group, its output collected in
/// memory, its input a pipe), its peak memory watched.
///
/// Peak memory is read from `/proc/PID/status` (`VmHWM`, the high-water mark of the child's own
/// address space, which only grows) every few milliseconds until the child ends. `wait4`'s
/// `ru_maxrss` would not do: `posix_spawn` starts the child with `vfork`, and Linux records the
/// parent's (the whole test process's) resident size as the child's maximum at `exec`.
final class WatchedChild {
    /// How the child ended.
    struct Outcome {
        /// The exit code, or 128 + the signal that killed it.
        var status: Int32
        /// The signal that killed it, if one did.
        var signal: Int32?
        /// Peak resident memory in KiB (the last `VmHWM` read before the child ended).
        var maxRSSKilobytes: Int
        /// Its standard output.
        var out: String
        /// Its standard error.
        var err: String
    }

    /// The child; it is terminated, with its group, when this object goes.
    let process: ChildProcess

    /// Starts `executable` with `arguments`.
    init(_ executable: String, _ arguments: [String]) throws {
        process = try ChildProcess(executable, arguments)
    }

    /// The child's pid.
    var pid: pid_t { process.pid }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) { process.send(signal) }

    /// Waits up to `seconds` for the child to end (then terminates it: a hang, not a measure)
    /// and returns how it ended.
    func wait(upTo seconds: Double) -> Outcome {
        let deadline = Date(timeIntervalSinceNow: seconds)
        var peak = 0
        var exit = process.waitForExit(timeout: 0)
        while exit == nil && Date() < deadline {
            peak = max(peak, Self.highWaterMark(process.pid))
            usleep(2_000)
            exit = process.waitForExit(timeout: 0)
        }
        // Ended or not, nothing of its group outlives the wait.
        let ended = process.terminate(graceSeconds: exit == nil ? ProcessGroups.killGraceSeconds : 0)
        let code = ended?.code ?? 128 + SIGKILL
        return Outcome(
            status: code, signal: ended?.signal, maxRSSKilobytes: peak,
            out: String(decoding: process.collectedOutput(waitingUpTo: 10), as: UTF8.self),
            err: String(decoding: process.collectedError(waitingUpTo: 10), as: UTF8.self))
    }

    /// Whether the child catches `signal` (a handler is installed for it: its bit in `SigCgt` of
    /// `/proc/PID/status`), looking `polls` times 10 ms apart (a hang guard, not a measure).
    func waitUntilCatching(_ signal: Int32, polls: Int = 6000) -> Bool {
        for _ in 0..<polls {
            if let field = Self.statusField("SigCgt", of: pid), let mask = UInt64(field, radix: 16), mask & (1 << UInt64(signal - 1)) != 0 {
                return true
            }
            usleep(10_000)
        }
        return false
    }

    /// Waits until the child has used `seconds` more of CPU time (user and system) than when
    /// called, looking every 10 ms, at most `polls` times (a hang guard, not a measure): on a
    /// loaded machine this takes longer, but the child has done as much work.
    func waitForCPU(seconds: Double, polls: Int = 60_000) -> Bool {
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        func cpuTicks() -> Double? {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let afterName = stat.lastIndex(of: ")")
            else { return nil }
            // Fields after the command name: state is the 3rd field, utime the 14th, stime the 15th.
            let fields = stat[stat.index(after: afterName)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
            return user + system
        }
        guard let start = cpuTicks() else { return false }
        for _ in 0..<polls {
            guard let now = cpuTicks() else { return false }
            if now - start >= seconds * ticksPerSecond { return true }
            usleep(10_000)
        }
        return false
    }

    /// The `VmHWM` of a running process in KiB (0 once it has ended).
    static func highWaterMark(_ pid: pid_t) -> Int {
        statusField("VmHWM", of: pid).flatMap { Int($0.split(separator: " ").first ?? "") } ?? 0
    }

    /// The value of `name` in `/proc/PID/status` (`VmHWM:  1234 kB` gives `1234 kB`), or `nil`
    /// once the process has ended.
    static func statusField(_ name: String, of pid: pid_t) -> String? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") })
        else { return nil }
        return line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
    }

    /// Runs `executable` to the end (terminated after `seconds`: a hang, not a measure).
    static func run(_ executable: String, _ arguments: [String], upTo seconds: Double = 600) throws -> Outcome {
        try WatchedChild(executable, arguments).wait(upTo: seconds)
    }
}
