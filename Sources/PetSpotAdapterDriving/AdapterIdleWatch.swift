import Foundation

/// Watches an adapter that has not answered yet, to tell "still working" from "waiting for the
/// next question without having answered" (an answer left in an unflushed buffer, or none).
///
/// The adapter is **idle** when, in ``confirmations`` samples in a row (``interval`` apart), a
/// thread of its process group is blocked in `read` on the adapter's standard input pipe (so
/// the pipe is empty: the question was read), no process of the group is running, and the
/// group's CPU time has not moved. An adapter computing its answer uses CPU time; one waiting on
/// a network or a timer is not reading its input; either way it is not idle, and the answer's
/// time-out decides. Read from `/proc` (Linux, on the architectures whose `read` system call
/// number is known); elsewhere, or when `/proc` cannot be read, nothing is ever idle.
struct IdleWatch {
    /// Seconds between samples.
    static let interval = 0.1
    /// Idle samples in a row (with the CPU time unchanged) before the adapter counts as idle.
    static let confirmations = 4

    /// The adapter's process group.
    let group: Int32
    /// `pipe:[INODE]`: the adapter's standard input, as `/proc/PID/fd/N` names it.
    let inputPipe: String?
    private var lastTicks: Int?
    private var streak = 0

    /// A watch over process group `group`, whose standard input is our pipe end `input`.
    init(group: Int32, input: Int32) {
        self.group = group
        inputPipe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(input)")
    }

    /// The `read` system call's number on this architecture (`/proc/PID/syscall` names it).
    static var readSyscall: Int? {
        #if os(Linux) && arch(x86_64)
        return 0
        #elseif os(Linux) && arch(arm64)
        return 63
        #else
        return nil
        #endif
    }

    /// Takes one sample; `true` once the adapter has been idle for ``confirmations`` samples.
    mutating func observeIdle() -> Bool {
        guard let sample = sample() else {
            streak = 0
            return false
        }
        defer { lastTicks = sample.ticks }
        guard sample.readingInput, !sample.running, sample.ticks == lastTicks else {
            streak = 0
            return false
        }
        streak += 1
        return streak >= Self.confirmations
    }

    /// The group's CPU ticks (its processes and their reaped children), whether one of them is
    /// running, and whether a thread is blocked reading our pipe; `nil` when unknown.
    private func sample() -> (ticks: Int, running: Bool, readingInput: Bool)? {
        guard let inputPipe, let readSyscall = Self.readSyscall,
            let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc")
        else { return nil }
        var ticks = 0, running = false, readingInput = false, members = 0
        for entry in entries {
            guard Int32(entry) != nil, let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After "(comm)": state, ppid, pgrp, ..., utime (12th), stime, cutime, cstime.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 14, Int32(fields[2]) == group, fields[0] != "Z", fields[0] != "X" else { continue }
            members += 1
            if fields[0] == "R" || fields[0] == "D" { running = true }
            for index in 11...14 { ticks += Int(fields[index]) ?? 0 }
            guard !readingInput, let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(entry)/task") else { continue }
            for thread in threads {
                // "NR ARG0 ARG1 ...": blocked in a system call with its arguments (in hex).
                guard let call = try? String(contentsOfFile: "/proc/\(entry)/task/\(thread)/syscall", encoding: .utf8) else { continue }
                let words = call.split(separator: " ")
                guard words.count > 1, Int(words[0]) == readSyscall, let descriptor = Int(words[1].dropFirst(2), radix: 16) else { continue }
                if (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/fd/\(descriptor)")) == inputPipe {
                    readingInput = true
                    break
                }
            }
        }
        return members == 0 ? nil : (ticks, running, readingInput)
    }
}
