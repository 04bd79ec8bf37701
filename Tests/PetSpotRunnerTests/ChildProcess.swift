import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program run as a child with `posix_spawn`, its output in temporary files, its peak memory
/// watched.
///
/// Peak memory is read from `/proc/PID/status` (`VmHWM`, the high-water mark of the child's own
/// address space, which only grows) every few milliseconds until the child ends. `wait4`'s
/// `ru_maxrss` would not do: `posix_spawn` starts the child with `vfork`, and Linux records the
/// parent's (the whole test process's) resident size as the child's maximum at `exec`.
final class ChildProcess {
    /// How the child ended.
    struct Outcome {
        /// The exit code, or 128 + the signal that killed it.
        var status: Int32
        /// The signal that killed it, if one did.
        var signal: Int32?
        /// Peak resident memory in KiB (the last `VmHWM` read before the child ended).
        var maxRSSKilobytes: Int
        /// Seconds from start to exit.
        var seconds: Double
        /// Its standard output.
        var out: String
        /// Its standard error.
        var err: String
    }

    let pid: pid_t
    private let outPath: String
    private let errPath: String
    private let started = ContinuousClock.now

    /// Starts `executable` with `arguments`.
    init(_ executable: String, _ arguments: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.path
        outPath = "\(directory)/child-\(UUID().uuidString).out"
        errPath = "\(directory)/child-\(UUID().uuidString).err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // No other descriptor of the test process (another test's pipe) is held by the child.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            if let descriptor = Int32(name), descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGPIPE, SIGINT, SIGTERM] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let words: [String] = [executable] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) }
        let environment: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") }
        defer { for pointer in argv + environment { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], environment + [nil])
        guard status == 0 else { throw CocoaError(.executableLoad) }
        self.pid = pid
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) { kill(pid, signal) }

    /// Waits up to `seconds` for the child to end (then kills it) and returns how it ended.
    func wait(upTo seconds: Double) -> Outcome {
        var status: Int32 = 0
        var usage = rusage()
        let deadline = Date(timeIntervalSinceNow: seconds)
        var reaped = false
        var peak = 0
        while Date() < deadline {
            peak = max(peak, Self.highWaterMark(pid))
            if wait4(pid, &status, WNOHANG, &usage) == pid {
                reaped = true
                break
            }
            usleep(2_000)
        }
        if !reaped {
            kill(pid, SIGKILL)
            _ = wait4(pid, &status, 0, &usage)
        }
        let elapsed = ContinuousClock.now - started
        let signal = status & 0x7F
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: outPath)
        try? FileManager.default.removeItem(atPath: errPath)
        return Outcome(
            status: signal != 0 ? 128 + signal : (status >> 8) & 0xFF, signal: signal != 0 ? signal : nil,
            maxRSSKilobytes: peak,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, out: out, err: err)
    }

    /// The `VmHWM` of a running process in KiB (0 once it has ended).
    static func highWaterMark(_ pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Runs `executable` to the end (at most `seconds`).
    static func run(_ executable: String, _ arguments: [String], upTo seconds: Double = 60) throws -> Outcome {
        try ChildProcess(executable, arguments).wait(upTo: seconds)
    }
}

/// Whether process `pid` is alive (a zombie waiting to be reaped is not).
func processIsAlive(_ pid: pid_t) -> Bool {
    if kill(pid, 0) != 0 { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
        return true
    }
    let state = stat[stat.index(after: close)...].split(separator: " ").first
    return state != "Z" && state != "X"
}

/// The pids of the processes of group `group` that are alive (from /proc; zombies excluded).
func livingProcesses(inGroup group: pid_t) -> [pid_t] {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
    return entries.compactMap { entry -> pid_t? in
        guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 2, pid_t(fields[2]) == group, fields[0] != "Z", fields[0] != "X" else { return nil }
        return pid
    }
}
