import Foundation
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A report file written at the end of a run.
///
/// A report is written by replacing the file atomically (a temporary file in the same directory,
/// then a rename), so it is checked before anything runs: the directory exists and a file can be
/// created in it, and the path, if it exists, is a file that may be written. Nothing is written to
/// the path itself, so an existing report is not clobbered by a failed run.
package enum ReportFile {
    /// Checks that `path` can be written as a report file.
    /// - Throws: a usage error naming `flag` and the reason.
    package static func checkWritable(_ path: String, flag: String, command: String) throws(RunnerError) {
        let shown = DisplayText.sanitized(path, maxBytes: 200)
        func refuse(_ reason: String) -> RunnerError {
            .configuration("cannot write the \(flag) file '\(shown)': \(reason)", command: command)
        }
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw refuse("it is a directory") }
            if access(url.path, W_OK) != 0 { throw refuse(String(cString: strerror(errno))) }
        }
        let directory = url.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw refuse("the directory '\(DisplayText.sanitized(directory, maxBytes: 200))' does not exist")
        }
        guard isDirectory.boolValue else { throw refuse("'\(DisplayText.sanitized(directory, maxBytes: 200))' is not a directory") }
        let probe = url.deletingLastPathComponent().appendingPathComponent(".petspot-contracts-probe-\(getpid())-\(UUID().uuidString)").path
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw refuse("no file can be created in '\(DisplayText.sanitized(directory, maxBytes: 200))': \(String(cString: strerror(errno)))")
        }
        _ = close(descriptor)
        _ = unlink(probe)
    }
}
