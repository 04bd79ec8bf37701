import Foundation
import PetSpotProcess
import PetSpotTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the runner leaves in the temporary directory: nothing, however the run ends. The
/// submission under faults writes the photos the app reads into `petspot-sut-PID-...`; each test
/// runs `check` as a process of its own, so that the directories it looks for are that process's.
@Suite("temporary files", .serialized, .onOwnThreads)
struct TemporaryFilesTests {
    /// The photo directories of process `pid` in the temporary directory.
    static func photoDirectories(of pid: pid_t) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
        return names.filter { $0.hasPrefix("petspot-sut-\(pid)-") }
    }

    /// Starts `check` with the submission under faults and waits (counting polls) until its
    /// photo directory is there; returns the child and whether the directory was seen before
    /// `check` ended.
    static func checkWithPhotos(scenarios: Int) throws -> (child: WatchedChild, seen: Bool) {
        let binary = try #require(ToolBinary.path)
        let child = try WatchedChild(binary, [
            "check", "--seed", "3", "--cases", "5", "--submission-scenarios", String(scenarios), "--shrink-seconds", "0", "--no-progress",
        ])
        for _ in 0..<6000 {
            if !photoDirectories(of: child.pid).isEmpty { return (child, true) }
            if !child.process.isRunning { break }
            usleep(20_000)
        }
        return (child, false)
    }

    @Test("check removes the photo directory of the submission under faults when it ends")
    func removedAtTheEnd() throws {
        let (child, seen) = try Self.checkWithPhotos(scenarios: 3)
        let outcome = child.wait(upTo: 600)
        #expect(seen, "no photo directory appeared while check ran: \(outcome.out)")
        #expect(outcome.out.contains("submission under faults"), "\(outcome.out)")
        #expect(Self.photoDirectories(of: child.pid).isEmpty, "left behind: \(Self.photoDirectories(of: child.pid))")
    }

    /// A second SIGINT ends the process at once, from the signal trap: the group's own cleanup
    /// never runs, so the trap's must remove the directory.
    @Test("check removes the photo directory when a second SIGINT ends it in the middle of the submission under faults")
    func removedOnASecondSignal() throws {
        let (child, seen) = try Self.checkWithPhotos(scenarios: 10_000)
        #expect(seen, "no photo directory appeared while check ran")
        child.send(SIGINT)
        // Two signals sent at once may arrive as one: the second goes once the first is handled.
        var handled = false
        for _ in 0..<6000 {
            handled = String(decoding: child.process.collectedError(waitingUpTo: 0), as: UTF8.self).contains("SIGINT received")
            if handled { break }
            usleep(20_000)
        }
        #expect(handled, "check never said it received the first SIGINT")
        child.send(SIGINT)
        let outcome = child.wait(upTo: 600)
        #expect(outcome.status == 130, "\(outcome.err)")
        #expect(outcome.err.contains("exiting now"), "\(outcome.err)")
        #expect(Self.photoDirectories(of: child.pid).isEmpty, "left behind: \(Self.photoDirectories(of: child.pid))")
    }
}
