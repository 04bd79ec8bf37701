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
/// worker pool that runs the handler, and the mailbox through which both talk.
///
/// Invariant: a connection's socket and parser belong to one thread at a time. The I/O thread
/// hands both to a worker with a ``Job`` (and stops polling the socket) and gets them back, by
/// value, with the worker's ``Completion``; the only shared state is the mailbox and the pool.
final class ServerRun: Sendable {
    /// A complete request for a worker, with the connection's parser (holding what followed it).
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

    /// What follows an answer once it is written.
    enum AfterAnswer: Sendable {
        case readNext
        case close
        /// The request's body was left unread: discard what the client still sends, then close.
        case discardThenClose
    }

    /// What a worker did with a job.
    struct Completion: Sendable {
        enum Outcome: Sendable {
            /// Done with the connection: dropped (the handler threw or the client vanished) or
            /// answered whole, then `after` (never `.readNext`).
            case close(after: AfterAnswer)
            /// The answer's rest could not be written without waiting.
            case write(PendingOutput, then: AfterAnswer, state: ReadingState)
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
        /// Published by the I/O thread for ``HTTPServer/handledConnectionCount``.
        var handledConnections = 0
        /// Published by the I/O thread: newcomers wait for a slot, so workers hand back pipelining connections.
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
    /// Workers write a byte (under the mailbox lock, while the loop runs); the loop polls and closes it.
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

    /// The number of connections with a worker, as the I/O thread last published it.
    var handledConnectionCount: Int { mailbox.withLock { $0.handledConnections } }

    /// Asks the I/O thread to stop and waits until it has ended (at most `grace` seconds later).
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
/// takes without waiting, serves follow-up requests complete within ``ServerRun/lingerMilliseconds``,
/// and hands the connection back to the I/O thread. A pipelined request is served here only while
/// no other request waits for a thread and no newcomer for a slot (so a pipelining client takes
/// turns with the rest); an answer the socket does not take whole goes back unwritten.
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
        var scratch: [UInt8] = []
        func finish(_ outcome: ServerRun.Completion.Outcome) {
            handBack(ServerRun.Completion(connectionID: job.connectionID, descriptor: descriptor, outcome: outcome))
        }
        while true {
            // A body over the request's limit was not read: the rest of the input is not a request.
            let after: ServerRun.AfterAnswer = request.isBodyOverLimit ? .discardThenClose
                : !request.keepsConnectionAlive || isStopping ? .close : .readNext
            let response: HTTPResponse
            do {
                response = try handler(request)
            } catch {
                return finish(.close(after: .close))
            }
            var output = PendingOutput(response.wireParts(closing: after != .readNext, includeBody: request.method != "HEAD"))
            let sent = output.send(to: descriptor, through: &scratch)
            let answeredAt = Socket.monotonicMilliseconds()
            func state() -> ServerRun.ReadingState {
                ServerRun.ReadingState(parser: parser, requestStartedAt: requestStartedAt, idleSince: answeredAt,
                                       peerFinished: peerFinished)
            }
            switch sent {
            case .failed: return finish(.close(after: .close))
            case .partial: return finish(.write(output, then: after, state: state()))
            case .complete: if after != .readNext { return finish(.close(after: after)) }
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
                    var answer = PendingOutput([errorResponse(error).serialized(closing: true)])
                    let after: ServerRun.AfterAnswer = error.status == 413 ? .discardThenClose : .close
                    switch answer.send(to: descriptor, through: &scratch) {
                    case .partial: return finish(.write(answer, then: after, state: state()))
                    case .complete: return finish(.close(after: after))
                    case .failed: return finish(.close(after: .close))
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
                    return finish(.close(after: .close))
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

/// An answer being written: its wire parts (the head, then the body's parts, never joined),
/// sent from a position as the socket takes them. Runs of parts under 64 KiB are gathered into
/// one `send` through a scratch buffer the caller owns.
struct PendingOutput: Sendable {
    static let gatherBytes = 64 * 1024
    private let parts: [[UInt8]]
    private var index = 0
    private var offset = 0

    init(_ parts: [[UInt8]]) { self.parts = parts }

    /// Writes what the socket takes without waiting; `.partial` tells the bytes this call sent.
    mutating func send(to descriptor: Int32, through scratch: inout [UInt8]) -> Socket.SendOutcome {
        var sent = 0
        while true {
            while index < parts.count && offset == parts[index].count { (index, offset) = (index + 1, 0) }
            guard index < parts.count else { return .complete }
            let (attempted, outcome): (Int, Socket.SendOutcome)
            if parts[index].count - offset >= Self.gatherBytes || index == parts.count - 1 {
                (attempted, outcome) = (parts[index].count - offset, Socket.sendAvailable(descriptor, parts[index], from: offset))
            } else {
                scratch.removeAll(keepingCapacity: true)
                var (part, from) = (index, offset)
                while part < parts.count && scratch.count < Self.gatherBytes {
                    let end = min(parts[part].count, from + Self.gatherBytes - scratch.count)
                    scratch.append(contentsOf: parts[part][from..<end])
                    (part, from) = end == parts[part].count ? (part + 1, 0) : (part, end)
                }
                (attempted, outcome) = (scratch.count, Socket.sendAvailable(descriptor, scratch))
            }
            switch outcome {
            case .complete:
                advance(by: attempted)
                sent += attempted
            case .partial(let count):
                advance(by: count)
                return .partial(sent + count)
            case .failed:
                return outcome
            }
        }
    }

    private mutating func advance(by count: Int) {
        var count = count
        while count > 0 {
            let left = parts[index].count - offset
            if count < left { return offset += count }
            (count, index, offset) = (count - left, index + 1, 0)
        }
    }
}
