#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpotHTTPTestSupport
import PetSpotProcess

/// The built `petspot-contracts` executable, in the build products directory beside the test bundle.
enum ToolBinary {
    static let path = BuiltProduct.path("petspot-contracts")
}

/// What the process tests read of a child (``ChildProcess``, started through PetSpotProcess:
/// no descriptor of ours but its standard streams, an empty signal mask and default SIGINT and
/// SIGTERM dispositions, so that a lowered descriptor limit means what it says).
extension ChildProcess {
    /// Reads the `listening on http://127.0.0.1:PORT` line (its standard output must be a
    /// ``ChildStream/pipe``) and returns the port. The time-out is against a hang only.
    func listeningPort(timeout: Double = 300) -> Int? {
        guard let line = readLine(timeout: timeout), line.hasPrefix("listening on http://127.0.0.1:") else { return nil }
        return Int(line.split(separator: ":").last ?? "")
    }

    /// CPU seconds (user plus system) the running child has used so far; `nil` where the
    /// platform does not tell (read from `/proc/PID/stat` on Linux; after exit, ``Exit`` has it).
    func cpuSecondsSoFar() -> Double? {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let commandEnd = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": state is field 3, utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: commandEnd)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        #else
        return nil
        #endif
    }
}
