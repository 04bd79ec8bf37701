import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PetSpotConcurrency
import Testing

/// Runs each test case of a suite (or one test) on threads of its own, off Swift's cooperative
/// pool, at most ``OwnThreadsExecutor/maxTestsAtOnce`` test cases at a time.
///
/// Swift Testing calls a synchronous test from a task, so while it waits (on a socket, a child
/// process, a lock, a sleep) it holds one of the pool's threads, and CI's pool has two. Two such
/// tests stall every async test of the process: one waiting for an answer from a loopback
/// server saw its deadline pass. A suite whose tests wait carries this trait (`OwnThreadsTests`
/// names a file that forgets it).
///
/// ```swift
/// @Suite("HTTPServer over loopback", .onOwnThreads)
/// struct HTTPServerTests { ... }
/// ```
public struct OwnThreadsTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// A scope for each test case only: a suite holding a permit while its tests wait for one
    /// would deadlock.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await OwnThreadsExecutor.shared.permits.acquire()
        defer { OwnThreadsExecutor.shared.permits.release() }
        try await withTaskExecutorPreference(OwnThreadsExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OwnThreadsTrait {
    /// Each test case on threads of its own, off the cooperative pool (see ``OwnThreadsTrait``).
    public static var onOwnThreads: Self { OwnThreadsTrait() }
}

/// A task executor whose jobs run on threads it starts: an idle one when there is one, else a
/// new one. Idle threads end after ``idleSeconds``; the number of threads is not bounded (a
/// waiting job never waits for a thread), the number of test cases is.
public final class OwnThreadsExecutor: TaskExecutor, Sendable {
    /// The one executor of the test process.
    public static let shared = OwnThreadsExecutor()
    /// Test cases on these threads at once.
    public static let maxTestsAtOnce = 4
    /// How long an idle thread waits for a job before it ends.
    static let idleSeconds = 2.0
    /// Whether the caller runs on one of this executor's threads.
    public static var isCurrentThreadOwn: Bool {
        let current = pthread_self()
        return shared.state.withLock { $0.threads.contains(current) }
    }

    /// Invariant: `waiting >= jobs.count`: every queued job has a thread that will take it.
    private struct State {
        var jobs: [UnownedJob] = []
        /// Threads about to look for a job, or waiting for one.
        var waiting = 0
        /// Every thread running, by `pthread_self()`.
        var threads: Set<pthread_t> = []
    }

    private let state = Locked(State())
    let permits = AsyncPermits(limit: maxTestsAtOnce)

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let startsThread = state.withLock { state -> Bool in
            state.jobs.append(job)
            guard state.waiting < state.jobs.count else { return false }
            state.waiting += 1
            return true
        }
        if startsThread {
            let thread = Thread { [self] in work() }
            thread.stackSize = 16 * 1024 * 1024
            thread.start()
        }
    }

    /// Runs jobs until none has come for ``idleSeconds``.
    private func work() {
        let current = pthread_self()
        state.withLock { _ = $0.threads.insert(current) }
        while true {
            let next = state.withLock(waitingUntil: Date(timeIntervalSinceNow: Self.idleSeconds), for: { !$0.jobs.isEmpty }) {
                state, ready -> UnownedJob? in
                state.waiting -= 1
                if ready { return state.jobs.removeFirst() }
                state.threads.remove(current)
                return nil
            }
            guard let next else { return }
            next.runSynchronously(on: asUnownedTaskExecutor())
            state.withLock { $0.waiting += 1 }
        }
    }
}
