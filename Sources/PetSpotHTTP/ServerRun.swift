#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpotConcurrency

/// One start-to-stop life of an ``HTTPServer``: the I/O thread (a ``ConnectionLoop``), the
/// worker pool that runs the handler, and the mailbox through which workers and ``stop(grace:)``
/// talk to the I/O thread.
///
/// Ownership of a connection's socket moves with its request: the I/O thread owns it while
/// reading and writing, hands it to a worker with a ``Job`` (and stops polling it), and gets it
/// back with the worker's ``Completion``. So no descriptor is ever used by two threads at once,
/// and the only shared state is the mailbox (a `Locked` value) and the pool.
final class ServerRun: Sendable {
    /// A complete request for a worker.
    struct Job: Sendable {
        var connectionID: UInt64
        var descriptor: Int32
        var request: HTTPRequest
        /// Whether the response announces `Connection: close`.
        var closing: Bool
        /// `false` for `HEAD`.
        var includeBody: Bool
    }

    /// What a worker did with a job.
    struct Completion: Sendable {
        enum Outcome: Sendable {
            /// The response; `bytes[offset...]` could not be written without waiting.
            case answered(bytes: [UInt8], offset: Int, closing: Bool)
            /// The handler threw or the client vanished: close without (further) answer.
            case dropped
        }

        var connectionID: UInt64
        var descriptor: Int32
        var outcome: Outcome
    }

    /// What the workers and ``stop(grace:)`` leave for the I/O thread.
    struct Mailbox {
        var completions: [Completion] = []
        /// A byte is in the wake pipe and the I/O thread has not yet taken the mailbox.
        var isWakePending = false
        /// Set by ``stop(grace:)``: milliseconds to let busy connections finish.
        var stopGraceMilliseconds: Int64?
        /// The I/O thread has ended; a worker finishing later closes its own socket.
        var isLoopFinished = false
        /// Published by the I/O thread for ``HTTPServer/openConnectionCount``.
        var openConnections = 0

        /// Makes the I/O thread's `poll` return, unless a wake-up is already pending.
        mutating func wakeLoop(through descriptor: Int32) {
            guard !isWakePending, !isLoopFinished else { return }
            isWakePending = true
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
        }
    }

    let mailbox: Locked<Mailbox>
    /// The wake pipe: workers write a byte (inside the mailbox lock, and only while the loop
    /// runs), the I/O thread polls the read end. The loop closes both once it has finished.
    let wakePipe: (read: Int32, write: Int32)
    let pool: RequestWorkerPool<Job>

    /// Starts the I/O thread on `listener` (which the run then owns and closes).
    init(configuration: HTTPServer.Configuration, handler: @escaping HTTPServer.Handler, listener: Int32) throws(HTTPSocketError) {
        let wakePipe = try Socket.makePipe()
        let mailbox = Locked(Mailbox())
        self.mailbox = mailbox
        self.wakePipe = wakePipe
        pool = RequestWorkerPool(
            minimumThreads: min(2, configuration.maxConcurrentRequests), maximumThreads: configuration.maxConcurrentRequests,
            idleLifetime: 10, threadName: "HTTPServer.worker"
        ) { job in
            ServerRun.perform(job, handler: handler, mailbox: mailbox, wakeDescriptor: wakePipe.write)
        }
        let thread = Thread { [self] in
            ConnectionLoop(configuration: configuration, run: self, listener: listener).run()
        }
        thread.name = "HTTPServer.io"
        thread.start()
    }

    /// The number of open connections, as the I/O thread last published it.
    var openConnectionCount: Int { mailbox.withLock { $0.openConnections } }

    /// Asks the I/O thread to stop and waits until it has ended (it ends at the latest `grace`
    /// seconds after the request, closing whatever is still open).
    func stop(grace: Double) {
        let graceMilliseconds = Int64((grace.isFinite ? max(0, min(grace, 3600)) : 0) * 1000)
        let wakeDescriptor = wakePipe.write
        mailbox.withLock { mailbox in
            guard mailbox.stopGraceMilliseconds == nil else { return }
            mailbox.stopGraceMilliseconds = graceMilliseconds
            mailbox.wakeLoop(through: wakeDescriptor)
        }
        let deadline = Date(timeIntervalSinceNow: Double(graceMilliseconds) / 1000 + 5)
        mailbox.withLock(waitingUntil: deadline, for: { $0.isLoopFinished }) { _, _ in }
    }

    /// Runs the handler for `job` on a worker thread, writes what the socket takes without
    /// waiting, and hands the connection back to the I/O thread.
    private static func perform(_ job: Job, handler: HTTPServer.Handler, mailbox: Locked<Mailbox>, wakeDescriptor: Int32) {
        let outcome: Completion.Outcome
        do {
            let response = try handler(job.request)
            let bytes = response.serialized(closing: job.closing, includeBody: job.includeBody)
            switch Socket.sendAvailable(job.descriptor, bytes) {
            case .complete: outcome = .answered(bytes: [], offset: 0, closing: job.closing)
            case .partial(let sent): outcome = .answered(bytes: bytes, offset: sent, closing: job.closing)
            case .failed: outcome = .dropped
            }
        } catch {
            outcome = .dropped
        }
        let completion = Completion(connectionID: job.connectionID, descriptor: job.descriptor, outcome: outcome)
        let isOrphaned = mailbox.withLock { mailbox in
            if mailbox.isLoopFinished { return true }
            mailbox.completions.append(completion)
            mailbox.wakeLoop(through: wakeDescriptor)
            return false
        }
        if isOrphaned { Socket.closeDescriptor(job.descriptor) }
    }
}
