import Foundation
import PetSpotProcess
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks `condition` up to `polls` times, 50 ms apart, and returns whether it held: a bound
/// counted in polls, far above what an idle machine needs, not a measure of time.
func eventually(polls: Int = 1200, _ condition: () -> Bool) -> Bool {
    for _ in 0..<polls {
        if condition() { return true }
        usleep(50_000)
    }
    return condition()
}

/// The inodes of the pipes process `pid` holds open, from `/proc/PID/fd` (Linux).
func pipeInodes(of pid: pid_t) -> Set<String> {
    let directory = "/proc/\(pid)/fd"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return Set(names.compactMap { name in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(name)"), target.hasPrefix("pipe:") else {
            return nil
        }
        return target
    })
}

/// Kills process `pid` if it is still alive and still in group `group` (so that a pid reused by
/// another process is left alone): a test's last resort when what it checks did not happen.
func killLeftover(_ pid: pid_t, group: pid_t) {
    guard ProcessState.isAlive(pid), ProcessState.read(pid)?.group == group else { return }
    kill(pid, SIGKILL)
}
