#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpotConcurrency

/// A small HTTP/1.1 server on POSIX sockets: one I/O thread reads and parses every connection
/// with `poll`, and a pool of worker threads runs the handler on complete requests.
///
/// It is built for loopback test traffic that may be hostile, so no client can hold the server
/// hostage:
///
/// - **Slow senders cost no thread.** Bytes are gathered by the I/O thread; a worker is busy
///   while the handler runs, and afterwards waits at most 5 ms on a keep-alive connection for
///   its next request (a busy client's next request then skips two thread hand-offs). Requests
///   pipelined on one connection are answered in order.
/// - **Deadlines a client cannot extend.** From the first byte of a request (whatever the byte:
///   leading blank lines count) the header section must be complete within
///   ``Configuration/headerTimeout`` and the whole request within
///   ``Configuration/requestTimeout``; otherwise the answer is 408 and the connection closes.
///   Trickling bytes does not move either deadline. A connection with no request in progress is
///   closed after ``Configuration/idleTimeout``, and a response must be written within
///   ``Configuration/writeTimeout`` (a client that stops reading is disconnected).
/// - **Slots are recycled, not refused.** At most ``Configuration/maxConnections`` connections
///   are open, fewer when the process's descriptor limit is lower (see ``ConnectionBudget``, read
///   at ``start()``; ``connectionBudget`` tells), so the slots run out before the descriptors.
///   When a new client arrives at the limit, the longest-idle connection is closed to make room
///   (idle: a keep-alive connection between requests, or one silent for a second since it was
///   accepted); else the one whose client has left its answer unread the longest (200 ms at
///   least); else the connection whose request has been arriving the longest (the slowest
///   sender) is answered 503 and closed. When every connection has a request being handled or
///   answered, or was accepted within the last second, the newcomer waits up to 250 ms for one
///   to come back idle (or with requests pipelined, which is then answered 503 and closed to
///   make room), then is answered 503 and closed. While the waiting places are all taken (64,
///   fewer under a low descriptor limit), the server accepts no one: newcomers wait in the
///   listen backlog, in arrival order, rather than be refused at once.
/// - **Descriptor exhaustion backs off.** When `accept` fails with EMFILE or ENFILE all the same
///   (descriptors used elsewhere in the process), the server makes room as at the slot limit;
///   when it cannot, it stops polling the listener for 10 ms, doubling up to 250 ms while the
///   shortage lasts, and keeps serving the open connections meanwhile.
/// - **Answers nobody reads are not produced.** The kernel holds at most
///   ``Configuration/maxUnsentBytes`` unsent for a connection; an answer that does not fit waits
///   in the server, and no further request of that connection is read or served until it is
///   written (or until ``Configuration/writeTimeout``, then the connection is closed). A
///   pipelined request waits behind other connections' requests when the handler threads are
///   all busy, so a client pipelining thousands of requests takes turns with the rest.
/// - **Bodies over the route's limit are not read.** With a ``Configuration/bodyLimit`` hook, a
///   request whose body is announced over its limit (or whose chunked body grows past it) goes
///   to the handler at once, flagged and without its body, and the connection closes after the
///   answer.
/// - Header and body sizes are capped (431, 413); handlers run on at most
///   ``Configuration/maxConcurrentRequests`` threads at once (more complete requests wait in
///   order).
///
/// Protocol errors are answered with ``Configuration/errorResponse`` and the connection closed
/// (the statuses are ``protocolErrorStatuses``); a handler that throws makes the server close
/// the connection without answering (which is how a mock simulates a dropped connection).
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 0)) { request in
///     HTTPResponse(status: 200, body: Array("hello".utf8))
/// }
/// let port = try server.start()   // the port the OS picked
/// // ...
/// server.stop()
/// ```
///
/// SIGPIPE is ignored process-wide and writes use `MSG_NOSIGNAL` (`SO_NOSIGPIPE` on Darwin).
public final class HTTPServer: Sendable {
    /// Listening address, limits and timeouts.
    public struct Configuration: Sendable {
        /// The IPv4 address to bind (loopback by default).
        public var host: String
        /// The port to bind; 0 lets the OS pick a free one.
        public var port: Int
        /// Header and body size limits.
        public var limits: HTTPParserLimits
        /// Connections open at once. At the limit a newcomer takes the slot of the longest-idle
        /// connection, else of the slowest sender; when every connection is busy it is answered
        /// 503 and closed.
        public var maxConnections: Int
        /// Seconds from a request's first byte until its header section must be complete
        /// (then 408). Capped at ``requestTimeout``.
        public var headerTimeout: Double
        /// Seconds from a request's first byte until the whole request, body included, must
        /// have arrived (then 408).
        public var requestTimeout: Double
        /// Seconds a connection with no request in progress is kept open.
        public var idleTimeout: Double
        /// Seconds a response may take to be written to a client that reads slowly or not at all.
        public var writeTimeout: Double
        /// Handler threads at most; further complete requests wait for one in arrival order.
        public var maxConcurrentRequests: Int
        /// Bytes of answers the kernel holds unsent for one connection at most
        /// (`TCP_NOTSENT_LOWAT`): past it, the rest of the answer waits in the server and no
        /// further request of that connection is read or served, so a client that pipelines
        /// requests without reading the answers is paused, then closed at ``writeTimeout``.
        public var maxUnsentBytes: Int
        /// The response for a protocol error (bad request line, oversized header, timeout, ...).
        public var errorResponse: @Sendable (HTTPParseError) -> HTTPResponse
        /// The most body bytes the handler reads for a request, decided from the request's head
        /// (the request with an empty body) as soon as its header section is parsed; `nil` from
        /// the hook, or no hook (the default), means up to ``limits``. A body announced larger
        /// (`Content-Length`), or a chunked body that grows larger, is not read: the handler
        /// gets the request with ``HTTPRequest/isBodyOverLimit`` set and an empty body, answers
        /// as it would a body over its limit, and the connection closes after the answer. Called
        /// on the server's threads for chunked bodies and bodies announced over
        /// ``minimumBodyLimit``; keep it cheap.
        public var bodyLimit: (@Sendable (HTTPRequest) -> Int?)?
        /// The smallest limit ``bodyLimit`` ever sets: a body announced no larger is read without
        /// asking it (which spares the hook on the common small request). 0 by default.
        public var minimumBodyLimit: Int

        /// A configuration; defaults: 127.0.0.1, port 0, 16 KiB headers, 25 MiB bodies,
        /// 512 connections, headers within 10 s and requests within 30 s of their first byte,
        /// 30 s idle, 10 s to write a response, 64 concurrent handlers, 64 KiB unsent per
        /// connection, plain-text errors, no per-request body limit.
        public init(
            host: String = "127.0.0.1", port: Int = 0, limits: HTTPParserLimits = HTTPParserLimits(),
            maxConnections: Int = 512, headerTimeout: Double = 10, requestTimeout: Double = 30, idleTimeout: Double = 30,
            writeTimeout: Double = 10, maxConcurrentRequests: Int = 64, maxUnsentBytes: Int = 64 * 1024,
            errorResponse: @escaping @Sendable (HTTPParseError) -> HTTPResponse = { error in
                HTTPResponse.plainText(status: error.status, error.reason + "\n")
            },
            bodyLimit: (@Sendable (HTTPRequest) -> Int?)? = nil, minimumBodyLimit: Int = 0
        ) {
            self.host = host
            self.port = port
            self.limits = limits
            self.maxConnections = maxConnections
            self.headerTimeout = headerTimeout
            self.requestTimeout = requestTimeout
            self.idleTimeout = idleTimeout
            self.writeTimeout = writeTimeout
            self.maxConcurrentRequests = maxConcurrentRequests
            self.maxUnsentBytes = maxUnsentBytes
            self.errorResponse = errorResponse
            self.bodyLimit = bodyLimit
            self.minimumBodyLimit = minimumBodyLimit
        }

        /// Why the configuration cannot be served, or `nil` when it can.
        var problem: String? {
            if maxConnections < 1 { return "maxConnections is \(maxConnections); it must be at least 1" }
            if maxConcurrentRequests < 1 { return "maxConcurrentRequests is \(maxConcurrentRequests); it must be at least 1" }
            if maxUnsentBytes < 1 { return "maxUnsentBytes is \(maxUnsentBytes); it must be at least 1" }
            if limits.maxHeaderBytes < 1 || limits.maxBodyBytes < 0 { return "the header and body limits must be positive" }
            for (name, value) in [("headerTimeout", headerTimeout), ("requestTimeout", requestTimeout),
                                  ("idleTimeout", idleTimeout), ("writeTimeout", writeTimeout)]
            where !(value.isFinite && value > 0 && value <= 1e6) {
                return "\(name) is \(value); it must be a number of seconds above 0 (at most 1000000)"
            }
            return nil
        }
    }

    /// Answers one request; throwing closes the connection without an answer.
    public typealias Handler = @Sendable (HTTPRequest) throws -> HTTPResponse

    /// Every status the server answers on its own, through ``Configuration/errorResponse``:
    /// 400 malformed request, 408 header or request deadline passed, 413 body too large,
    /// 417 unsupported `Expect`, 431 header section too large, 503 no connection slot,
    /// 505 HTTP version other than 1.x. (It also sends interim `100 Continue` answers.)
    public static let protocolErrorStatuses = [400, 408, 413, 417, 431, 503, 505]

    /// The configuration the server was created with.
    public let configuration: Configuration
    private let handler: Handler

    private struct Lifecycle {
        /// The running instance: listener, I/O thread, workers.
        var run: ServerRun?
        var port: Int?
        var budget: ConnectionBudget?
        var isStopping = false
        /// Whether ``runUntilTerminated(ready:)`` is waiting, so ``stop(grace:)`` must wake it.
        var isTrappingSignals = false
    }

    private let lifecycle = Locked(Lifecycle())

    /// A server that is not yet listening; call ``start()``.
    public init(configuration: Configuration = Configuration(), handler: @escaping Handler) {
        self.configuration = configuration
        self.handler = handler
    }

    deinit {
        stop()
    }

    /// The port being listened on, once started.
    public var port: Int? {
        lifecycle.withLock { $0.port }
    }

    /// The connections held at once and the descriptor limit they were fitted to; set by
    /// ``start()`` (`nil` before).
    public var connectionBudget: ConnectionBudget? {
        lifecycle.withLock { $0.budget }
    }

    /// The number of connections currently open.
    public var openConnectionCount: Int {
        lifecycle.withLock { $0.run }?.openConnectionCount ?? 0
    }

    /// Complete requests waiting for a handler thread (all are busy); 0 when not running.
    var queuedRequestCount: Int {
        lifecycle.withLock { $0.run }?.pool.queuedJobCount ?? 0
    }

    /// Binds, listens and starts serving on background threads.
    /// - Returns: the port listened on (the OS's choice when the configuration says 0).
    /// - Throws: ``HTTPSocketError`` when the configuration is invalid, the address is invalid
    ///   or cannot be bound, or the server is still stopping.
    @discardableResult
    public func start() throws(HTTPSocketError) -> Int {
        Socket.ignoreSIGPIPE()
        if let problem = configuration.problem {
            throw HTTPSocketError(operation: "configure the HTTP server (\(problem))", code: 0)
        }
        let configuration = self.configuration
        let handler = self.handler
        let started: Result<Int, HTTPSocketError> = lifecycle.withLock { lifecycle in
            if lifecycle.isStopping {
                return .failure(HTTPSocketError(operation: "start (the server is still stopping)", code: 0))
            }
            if let port = lifecycle.port { return .success(port) }
            do throws(HTTPSocketError) {
                let budget = ConnectionBudget(configuredConnections: configuration.maxConnections,
                                              descriptorLimit: Socket.openFileLimit())
                let (listener, port) = try Socket.listen(host: configuration.host, port: configuration.port, backlog: 512)
                let run: ServerRun
                do throws(HTTPSocketError) {
                    run = try ServerRun(configuration: configuration, budget: budget, handler: handler, listener: listener)
                } catch {
                    Socket.closeDescriptor(listener)
                    throw error
                }
                lifecycle.run = run
                lifecycle.port = port
                lifecycle.budget = budget
                return .success(port)
            } catch {
                return .failure(error)
            }
        }
        return try started.get()
    }

    /// Stops accepting, lets requests being handled finish and their answers be written (up to
    /// `grace` seconds), closes every connection and the listener, and returns once the I/O
    /// thread has ended. Safe to call more than once and from any thread.
    public func stop(grace: Double = 5) {
        let run: ServerRun? = lifecycle.withLock { lifecycle in
            guard let run = lifecycle.run, !lifecycle.isStopping else { return nil }
            lifecycle.isStopping = true
            return run
        }
        guard let run else { return }
        run.stop(grace: grace)
        let wakeSignalWaiter = lifecycle.withLock { lifecycle in
            lifecycle.run = nil
            lifecycle.port = nil
            lifecycle.isStopping = false
            return lifecycle.isTrappingSignals
        }
        if wakeSignalWaiter { TerminationSignalTrap.wake() }
    }

    /// Serves until SIGINT or SIGTERM arrives (or ``stop(grace:)`` is called), then stops
    /// cleanly and puts back the SIGINT and SIGTERM dispositions and the calling thread's signal
    /// mask as they were before the call.
    ///
    /// While it runs, SIGINT and SIGTERM are caught by a handler that only wakes this thread,
    /// and are unblocked in this thread. One call at a time per process.
    /// - Parameter ready: called with the port once listening (print the ready line here).
    /// - Throws: ``HTTPSocketError`` when the server cannot start, or another call is running.
    public func runUntilTerminated(ready: (Int) -> Void) throws(HTTPSocketError) {
        let trap = try TerminationSignalTrap.install()
        defer { trap.restore() }
        let port = try start()
        let isRunning = lifecycle.withLock { lifecycle in
            lifecycle.isTrappingSignals = true
            return lifecycle.port != nil
        }
        defer { lifecycle.withLock { $0.isTrappingSignals = false } }
        ready(port)
        if isRunning { _ = trap.waitForSignal() }
        stop()
    }

}
