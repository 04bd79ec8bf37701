import Foundation
import PetSpotHTTPTestSupport
import PetSpotProcess
import PetSpotTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("children die with their parent", .onOwnThreads)
struct ParentWatchTests {
    /// The process that starts `mock` is `check`, driving it as its adapter (it never answers;
    /// the time-out is 600 s, so only the kill ends the run): `check` starts it through
    /// PetSpotProcess, with a pipe on each standard stream. Killed with SIGKILL, `check` cleans
    /// up nothing: the mock must notice by itself that its parent is gone, and must not have
    /// held any pipe of this test process meanwhile (the way an orphan hung `swift test`).
    @Test("a mock whose starter is killed with SIGKILL stops by itself, and held no pipe of ours")
    func mockOutlivesNoKilledParent() throws {
        #if os(Linux)
        let tool = try #require(BuiltProduct.path("petspot-contracts"), "petspot-contracts not found beside the test bundle")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pidFile = directory.appendingPathComponent("mock.pid").path
        let listening = directory.appendingPathComponent("mock.out").path
        // A pipe of ours without close-on-exec, as Foundation's Pipe makes them.
        var held: [Int32] = [-1, -1]
        #expect(pipe(&held) == 0)
        defer { PipeIO.close(held) }
        let adapter = "echo $$ > '\(pidFile)'; exec '\(tool)' mock --port 0 > '\(listening)'"
        let starter = try ChildProcess(tool, ["check", "--sut", adapter, "--sut-timeout", "600", "--no-mock", "--cases", "3", "--no-progress"])
        var mock: pid_t?
        let started = eventually {
            mock = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return mock != nil && ((try? String(contentsOfFile: listening, encoding: .utf8)) ?? "").hasPrefix("listening on ")
        }
        let mockPid = try #require(mock, "the mock never started: \(String(decoding: starter.collectedError(waitingUpTo: 0), as: UTF8.self))")
        defer { killLeftover(mockPid, group: mockPid) }
        #expect(started, "the mock never listened")
        #expect(ProcessState.read(mockPid)?.parent == starter.pid, "the mock is not check's child")
        let ours = pipeInodes(of: getpid()), its = pipeInodes(of: mockPid)
        #expect(!its.isEmpty, "the mock's standard input and error are check's pipes")
        #expect(ours.isDisjoint(with: its), "the mock holds pipes of the test process: \(ours.intersection(its).sorted())")

        kill(starter.pid, SIGKILL)
        #expect(starter.waitForExit(timeout: 300)?.signal == SIGKILL)
        #expect(eventually { !ProcessState.isAlive(mockPid) }, "the mock \(mockPid) outlived the process that started it")
        #endif
    }
}
