import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A process as `/proc/PID/stat` shows it (Linux): its state letter, parent and process group.
package struct ProcessState: Sendable, Equatable {
    /// `R` running, `S` sleeping, `D` in uninterruptible wait, `Z` zombie, `X` dead, ...
    package let state: Character
    /// The parent's pid.
    package let parent: pid_t
    /// The process group's id.
    package let group: pid_t

    /// Whether the process runs or waits, as opposed to being a zombie or dead.
    package var isLiving: Bool { state != "Z" && state != "X" }

    /// The state of process `pid`, or `nil` when it is gone or `/proc` cannot be read.
    package static func read(_ pid: pid_t) -> ProcessState? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return nil
        }
        // After "(comm)": state, ppid, pgrp, ...
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 2, let state = fields[0].first, let parent = pid_t(fields[1]), let group = pid_t(fields[2]) else { return nil }
        return ProcessState(state: state, parent: parent, group: group)
    }

    /// Whether process `pid` is alive: it exists and is not a zombie (where `/proc` cannot be
    /// read, whether it exists).
    package static func isAlive(_ pid: pid_t) -> Bool {
        if kill(pid, 0) != 0 && errno == ESRCH { return false }
        #if os(Linux)
        return read(pid)?.isLiving ?? true
        #else
        return true
        #endif
    }
}
