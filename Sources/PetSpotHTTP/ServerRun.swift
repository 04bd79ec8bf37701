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
/// Ownership of a connection moves with its request: the I/O thread owns the socket and the
/// parser while reading and writing, hands both to a worker with a ``Job`` (and stops polling
/// the socket), and gets them back, by value, with the worker's ``Completion``. So no socket or
/// parser is ever used by two threads at once, and the only shared state is the mailbox (a
/// `Locked` value) and the pool.
///
/// A worker that has answered a keep-alive request lingers on the socket for at most
/// ``lingerMilliseconds`` (never extended by what arrives) and handles the next request itself
/// when it is complete by then; this spares a busy client two thread hand-offs per request.
/// Anything slower goes back to the I/O thread, with the time its first byte arrived, so the
/// deadlines still count from there.
final class ServerRun: Sendable {
    /// A complete request for a worker, with the connection's parser (holding any bytes that
    /// followed the request).
    struct Job: Sendable {
        var connectionID: UInt64
        var descriptor: Int32
        var request: HTTPRequest
        var parser: HTTPRequestParser
        var peerFinished: Bool
    }

    /// The connection's reading state, handed back to the I/O thread.
    struct ReadingState: Sendable {
        var parser: HTTPRequestParser
        /// When the first byte of a request still being received arrived; `nil` when none has.
        var requestStartedAt: Int64?
        /// When the last response was written.
        var idleSince: Int64
        var peerFinished: Bool
    }

    /// What a worker did with a job.
    struct Completion: Sendable {
        enum Outcome: Sendable {
            /// Done with the connection: answered with `Connection: close`, or dropped (the
            /// handler threw or the client vanished).
            case close
            /// `bytes[offset...]` could not be written without waiting; then close or read on.
            case write(bytes: [UInt8], offset: Int, closesAfter: Bool, state: ReadingState)
            /// The response is written and the connection stays open.
            case read(ReadingState)
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
        /// Published by the I/O thread: clients accepted at the connection limit wait for a slot,
        /// so workers hand back connections with pipelined requests (which may then make room).
        var isSlotWanted = false

        /// Makes the I/O thread's `poll` return, unless a wake-up is already pending.
        mutating func wakeLoop(through descriptor: Int32) {
            guard !isWakePending, !isLoopFinished else { return }
            isWakePending = true
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
        }
    }

    /// The longest a worker waits on a keep-alive connection for its next request.
    static let lingerMilliseconds: Int64 = 5

    let mailbox: Locked<Mailbox>
    /// The wake pipe: workers write a byte (inside the mailbox lock, and only while the loop
    /// runs), the I/O thread polls the read end. The loop closes both once it has finished.
    let wakePipe: (read: Int32, write: Int32)
    let pool: RequestWorkerPool<Job>

    /// Starts the I/O thread on `listener` (which the run then owns and closes).
    init(configuration: HTTPServer.Configuration, budget: ConnectionBudget, handler: @escaping HTTPServer.Handler,
         listener: Int32) throws(HTTPSocketError) {
        let wakePipe = try Socket.makePipe()
        let mailbox = Locked(Mailbox())
        self.mailbox = mailbox
        self.wakePipe = wakePipe
        let worker = RequestWorker(handler: handler, errorResponse: configuration.errorResponse, mailbox: mailbox,
                                   wakeDescriptor: wakePipe.write)
        pool = RequestWorkerPool(
            minimumThreads: min(2, configuration.maxConcurrentRequests), maximumThreads: configuration.maxConcurrentRequests,
            idleLifetime: 10, threadName: "HTTPServer.worker"
        ) { job, hasQueuedJobs in
            worker.serve(job, hasQueuedJobs: hasQueuedJobs)
        }
        let thread = Thread { [self] in
            ConnectionLoop(configuration: configuration, budget: budget, run: self, listener: listener).run()
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
}

/// What a pool thread does with a ``ServerRun/Job``: runs the handler, writes what the socket
/// takes without waiting, serves follow-up requests that are already complete or arrive within
/// the linger time, and hands the connection back to the I/O thread.
///
/// A pipelined request is served here only while no other connection's request waits for a
/// thread and no new client waits for a connection slot; otherwise the connection goes back to
/// the I/O thread, which queues its next request behind the others (so a client pipelining
/// thousands of requests takes its turn like the rest) or closes it to make room. An answer the
/// socket does not take whole goes to the I/O thread too, and no further request of that
/// connection is served until it is written.
struct RequestWorker: Sendable {
    let handler: HTTPServer.Handler
    let errorResponse: @Sendable (HTTPParseError) -> HTTPResponse
    let mailbox: Locked<ServerRun.Mailbox>
    let wakeDescriptor: Int32

    func serve(_ job: ServerRun.Job, hasQueuedJobs: () -> Bool) {
        let descriptor = job.descriptor
        var request = job.request
        var parser = job.parser
        var peerFinished = job.peerFinished
        var requestStartedAt: Int64?
        var receiveBuffer: [UInt8] = []
        func finish(_ outcome: ServerRun.Completion.Outcome) {
            handBack(ServerRun.Completion(connectionID: job.connectionID, descriptor: descriptor, outcome: outcome))
        }
        while true {
            // A body over the request's limit was not read: the rest of the input is not a request.
            let closing = !request.keepsConnectionAlive || request.isBodyOverLimit || isStopping
            let response: HTTPResponse
            do {
                response = try handler(request)
            } catch {
                return finish(.close)
            }
            let bytes = response.serialized(closing: closing, includeBody: request.method != "HEAD")
            let sent = Socket.sendAvailable(descriptor, bytes)
            let answeredAt = Socket.monotonicMilliseconds()
            func state() -> ServerRun.ReadingState {
                ServerRun.ReadingState(parser: parser, requestStartedAt: requestStartedAt, idleSince: answeredAt,
                                       peerFinished: peerFinished)
            }
            switch sent {
            case .failed: return finish(.close)
            case .partial(let offset): return finish(.write(bytes: bytes, offset: offset, closesAfter: closing, state: state()))
            case .complete: if closing { return finish(.close) }
            }
            // The next request: already buffered (pipelined), or arriving within the linger time.
            requestStartedAt = parser.hasPartialRequest ? answeredAt : nil
            let lingerDeadline = answeredAt + ServerRun.lingerMilliseconds
            var next: HTTPRequest?
            while next == nil {
                if parser.hasPartialRequest && (hasQueuedJobs() || isSlotWanted) { return finish(.read(state())) }
                switch parser.nextRequest() {
                case .request(let complete):
                    next = complete
                    continue
                case .failure(let error):
                    let answer = errorResponse(error).serialized(closing: true)
                    switch Socket.sendAvailable(descriptor, answer) {
                    case .partial(let offset):
                        return finish(.write(bytes: answer, offset: offset, closesAfter: true, state: state()))
                    case .complete, .failed:
                        return finish(.close)
                    }
                case .incomplete:
                    break
                }
                // `100 Continue`, end of input and other connections' work are the I/O thread's.
                let remaining = lingerDeadline - Socket.monotonicMilliseconds()
                if parser.continueRequested || peerFinished || remaining <= 0 || hasQueuedJobs() {
                    return finish(.read(state()))
                }
                guard Socket.wait(descriptor, events: Int16(POLLIN), timeoutMilliseconds: Int(remaining)) else {
                    return finish(.read(state()))
                }
                switch receive(from: descriptor, through: &receiveBuffer, into: &parser) {
                case .bytes:
                    if requestStartedAt == nil { requestStartedAt = Socket.monotonicMilliseconds() }
                case .endOfInput:
                    peerFinished = true
                case .nothing:
                    break
                case .failed:
                    return finish(.close)
                }
            }
            if let next { request = next }
            requestStartedAt = nil
        }
    }

    private enum Received {
        case bytes
        case endOfInput
        case nothing
        case failed
    }

    /// Receives what `descriptor` has into `parser`, through `chunk` (allocated on first use, then reused).
    private func receive(from descriptor: Int32, through chunk: inout [UInt8], into parser: inout HTTPRequestParser) -> Received {
        if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: 16 * 1024) }
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                parser.append(chunk[0..<count])
                return .bytes
            }
            if count == 0 { return .endOfInput }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .nothing
            default: return .failed
            }
        }
    }

    private var isStopping: Bool { mailbox.withLock { $0.stopGraceMilliseconds != nil } }

    private var isSlotWanted: Bool { mailbox.withLock { $0.isSlotWanted } }

    /// Gives the connection back to the I/O thread, or closes it when the loop has ended.
    private func handBack(_ completion: ServerRun.Completion) {
        let isOrphaned = mailbox.withLock { mailbox in
            if mailbox.isLoopFinished { return true }
            mailbox.completions.append(completion)
            mailbox.wakeLoop(through: wakeDescriptor)
            return false
        }
        if isOrphaned { Socket.closeDescriptor(completion.descriptor) }
    }
}
