import Foundation
import PetSpotProcess
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
