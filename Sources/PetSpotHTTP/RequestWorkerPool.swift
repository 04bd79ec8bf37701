import Foundation
import PetSpotConcurrency

/// The threads that run request handlers for an ``HTTPServer``.
///
/// Elastic, as a handler may block: a job goes to an idle thread (last-in first-out, so the
/// surplus ages out after `idleLifetime`), else to a new one up to `maximumThreads`, else waits
/// in a FIFO queue. Each thread waits on its own `Locked` mailbox, so a hand-over wakes one thread.
final class RequestWorkerPool<Job: Sendable>: Sendable {
    /// One pool thread's mailbox: the job handed to it, or the order to end.
    private final class Worker: Sendable {
        struct Mailbox {
            var job: Job?
            var retire = false
        }

        let mailbox = Locked(Mailbox())
    }

    private struct State {
        var idleWorkers: [Worker] = []
        var queue: [Job] = []
        var queueHead = 0
        var threadCount = 0
        var isShutDown = false

        mutating func dequeue() -> Job? {
            guard queueHead < queue.count else { return nil }
            let job = queue[queueHead]
            queueHead += 1
            if queueHead == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            } else if queueHead >= 64 && queueHead * 2 >= queue.count {
                queue.removeFirst(queueHead)
                queueHead = 0
            }
            return job
        }
    }

    /// Where ``submit(_:)`` put a job.
    private enum Placement {
        case handedTo(Worker)
        case newThread
        case queued
        case refused
    }

    /// What a thread does after a job.
    private enum Next {
        case run(Job)
        case end
        case wait
    }

    private let state = Locked(State())
    private let minimumThreads: Int
    private let maximumThreads: Int
    private let idleLifetime: Double
    private let threadName: String
    private let perform: @Sendable (Job, _ hasQueuedJobs: () -> Bool) -> Void

    /// A pool that runs `perform` for each submitted job on one of its threads; `perform` can ask
    /// whether other jobs are waiting for a thread (to cut optional work short).
    /// - Parameters:
    ///   - minimumThreads: threads kept once started, even without work.
    ///   - maximumThreads: threads at most; more jobs queue.
    ///   - idleLifetime: seconds a thread beyond the minimum waits for work before it ends.
    init(minimumThreads: Int, maximumThreads: Int, idleLifetime: Double, threadName: String,
         perform: @escaping @Sendable (Job, _ hasQueuedJobs: () -> Bool) -> Void) {
        self.maximumThreads = max(1, maximumThreads)
        self.minimumThreads = min(max(0, minimumThreads), self.maximumThreads)
        self.idleLifetime = idleLifetime
        self.threadName = threadName
        self.perform = perform
    }

    /// Hands `job` to a thread (or queues it).
    /// - Returns: `false` when the pool is shut down and the job was not taken.
    func submit(_ job: Job) -> Bool {
        let placement: Placement = state.withLock { state in
            if state.isShutDown { return .refused }
            if let worker = state.idleWorkers.popLast() { return .handedTo(worker) }
            if state.threadCount < maximumThreads {
                state.threadCount += 1
                return .newThread
            }
            state.queue.append(job)
            return .queued
        }
        switch placement {
        case .handedTo(let worker):
            worker.mailbox.withLock { $0.job = job }
        case .newThread:
            let worker = Worker()
            let thread = Thread { [self] in runThread(worker, first: job) }
            thread.name = threadName
            thread.start()
        case .queued:
            break
        case .refused:
            return false
        }
        return true
    }

    /// Stops taking jobs, ends the idle threads (busy ones end after their job) and returns the
    /// jobs that were still queued, which will never run.
    func shutDown() -> [Job] {
        let (idle, abandoned): ([Worker], [Job]) = state.withLock { state in
            state.isShutDown = true
            let idle = state.idleWorkers
            state.idleWorkers.removeAll()
            state.threadCount -= idle.count
            let abandoned = Array(state.queue[state.queueHead...])
            state.queue.removeAll()
            state.queueHead = 0
            return (idle, abandoned)
        }
        for worker in idle { worker.mailbox.withLock { $0.retire = true } }
        return abandoned
    }

    /// The jobs waiting for a thread.
    var queuedJobCount: Int {
        state.withLock { $0.queue.count - $0.queueHead }
    }

    /// Whether jobs are waiting for a thread.
    private func hasQueuedJobs() -> Bool {
        state.withLock { $0.queueHead < $0.queue.count }
    }

    private func runThread(_ worker: Worker, first: Job) {
        var next: Job? = first
        while let job = next {
            perform(job, hasQueuedJobs)
            next = nextJob(for: worker)
        }
    }

    /// The next job for `worker`: a queued one, else one handed over while it waits; `nil` when
    /// the thread should end.
    private func nextJob(for worker: Worker) -> Job? {
        let next: Next = state.withLock { state in
            if let job = state.dequeue() { return .run(job) }
            if state.isShutDown {
                state.threadCount -= 1
                return .end
            }
            state.idleWorkers.append(worker)
            return .wait
        }
        switch next {
        case .run(let job): return job
        case .end: return nil
        case .wait: break
        }
        while true {
            let deadline = Date(timeIntervalSinceNow: idleLifetime)
            let received: Next = worker.mailbox.withLock(waitingUntil: deadline, for: { $0.job != nil || $0.retire }) { mailbox, _ in
                if let job = mailbox.job {
                    mailbox.job = nil
                    return .run(job)
                }
                return mailbox.retire ? .end : .wait
            }
            switch received {
            case .run(let job): return job
            case .end: return nil
            case .wait: break
            }
            // No work for a whole idle lifetime: end, unless the pool is at its minimum or a job
            // is being handed to this thread right now (it is then no longer in the idle list).
            let retires: Bool = state.withLock { state in
                guard state.threadCount > minimumThreads,
                      let index = state.idleWorkers.firstIndex(where: { $0 === worker })
                else { return false }
                state.idleWorkers.remove(at: index)
                state.threadCount -= 1
                return true
            }
            if retires { return nil }
        }
    }
}
