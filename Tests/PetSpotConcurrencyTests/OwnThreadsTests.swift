import Foundation
import PetSpotConcurrency
import PetSpotTestSupport
import Testing

/// `.onOwnThreads` (PetSpotTestSupport): a test that waits runs off Swift's cooperative pool,
/// and every test file that waits says so.
@Suite("tests that wait run on threads of their own", .onOwnThreads)
struct OwnThreadsTests {
    /// Calls that wait: sockets, child processes, locks, sleeps, and the test helpers built on them.
    static let waitingCalls = [
        "RawHTTPConnection", "ChildProcess", "Thread.sleep", "usleep", "waitingUntil", "waitingUpTo", ".wait(", "DispatchGroup",
        "concurrentPerform", "wait4", "waitpid", "waitForExit", "endedTrickles", "endedStreams", "blockingAwait", "eventually",
    ]

    @Test("a synchronous test runs on one of the executor's threads")
    func synchronousTest() {
        #expect(OwnThreadsExecutor.isCurrentThreadOwn)
    }

    @Test("an async test stays there across suspensions, and so do its child tasks")
    func asyncTest() async {
        try? await Task.sleep(for: .milliseconds(10))
        #expect(OwnThreadsExecutor.isCurrentThreadOwn)
        let own = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 { group.addTask { OwnThreadsExecutor.isCurrentThreadOwn } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(own == Array(repeating: true, count: 8))
    }

    @Test("a job that waits for another never waits for a thread")
    func waitingJobsGetThreads() async {
        // Twelve tasks (more than any fixed pool here) each wait until all twelve have started.
        let started = Locked(0)
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    started.withLock { $0 += 1 }
                    return started.withLock(waitingUntil: Date(timeIntervalSinceNow: 30), for: { $0 == 12 }) { _, ready in ready }
                }
            }
            #expect(await group.allSatisfy { $0 })
        }
    }

    @Test("every test file that waits runs its suites on threads of their own")
    func waitingFilesCarryTheTrait() throws {
        let root = SourceRulesTests.packageRoot
        let tests = root.appendingPathComponent("Tests")
        let files = try FileManager.default.subpathsOfDirectory(atPath: tests.path).filter {
            $0.hasSuffix(".swift") && !$0.hasPrefix("AppExample/") && !$0.hasSuffix("OwnThreadsTests.swift")
        }
        var forgotten: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            guard text.contains("@Test"), let call = Self.waitingCalls.first(where: text.contains) else { continue }
            let suites = text.components(separatedBy: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("@Suite") }
            if suites.isEmpty || suites.contains(where: { !$0.contains(".onOwnThreads") }) {
                forgotten.append("Tests/\(file) (it calls \(call))")
            }
        }
        #expect(forgotten.isEmpty, "suites without .onOwnThreads: \(forgotten.joined(separator: ", "))")
    }
}
