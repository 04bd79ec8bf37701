#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpotConcurrency

/// A small HTTP/1.1 server on POSIX sockets: one I/O thread reads, parses and writes every
/// connection with `poll`; a pool of worker threads runs the handler on complete requests.
///
/// Its contract, for loopback traffic that may be hostile: no client holds the server hostage,
/// and each client's cost is bounded.
/// - Time, not threads: a request's header is due within ``Configuration/headerTimeout`` and the
///   whole request within ``Configuration/requestTimeout`` of its first byte (408, trickling
///   does not extend them); an idle connection closes after ``Configuration/idleTimeout``, an
///   answer left unread after ``Configuration/writeTimeout``.
/// - Connections: at most ``Configuration/maxConnections``, fewer under a low descriptor limit
///   (``ConnectionBudget``); a newcomer at the limit takes the slot of the longest-idle client,
///   else of one not reading its answer, else of the slowest sender, else waits 250 ms for one
///   and is answered 503.
/// - Memory: at most ``Configuration/maxUnsentBytes`` of answers unsent per connection (the rest
///   waits uncopied, and the connection's next request is not read meanwhile); a body over the
///   route's ``Configuration/bodyLimit`` is not kept: the handler gets the request flagged, and
///   what the client still sends is read and discarded before the connection closes, so the
///   client gets its answer, not a reset.
/// - Errors: a protocol error is answered with ``Configuration/errorResponse`` and closes the
///   connection; a handler that throws closes it without an answer (a simulated drop).
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 0)) { request in
///     HTTPResponse(status: 200, body: Array("hello".utf8))
/// }
/// let port = try server.start()   // the port the OS picked
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
        /// Connections open at once (see the type's notes for who makes room at the limit).
        public var maxConnections: Int
        /// Seconds from a request's first byte until its header section must be complete
        /// (then 408). Capped at ``requestTimeout``.
        public var headerTimeout: Double
        /// Seconds from a request's first byte until the whole request must have arrived (then 408).
        public var requestTimeout: Double
        /// Seconds a connection with no request in progress is kept open.
        public var idleTimeout: Double
        /// Seconds a response may take to be written to a client that reads slowly or not at all.
        public var writeTimeout: Double
        /// Handler threads at most; further complete requests wait for one in arrival order.
        public var maxConcurrentRequests: Int
        /// Bytes of answers the kernel holds unsent for one connection at most (`TCP_NOTSENT_LOWAT`).
        public var maxUnsentBytes: Int
        /// The response for a protocol error (bad request line, oversized header, timeout, ...).
        public var errorResponse: @Sendable (HTTPParseError) -> HTTPResponse
        /// The most body bytes the handler reads for a request, judged from its head (the request
        /// without its body); `nil`, or no hook (the default), means ``limits``. A larger body is
        /// not kept: the handler gets the request flagged ``HTTPRequest/isBodyOverLimit`` and
        /// bodiless, and the connection closes after the answer. Called on the server's threads
        /// for chunked bodies and bodies announced over ``minimumBodyLimit``; keep it cheap.
        public var bodyLimit: (@Sendable (HTTPRequest) -> Int?)?
        /// The smallest limit ``bodyLimit`` ever sets: a body announced no larger is read without asking it.
        public var minimumBodyLimit: Int
        /// Whether a body over its ``bodyLimit`` is first read up to that limit (dropped as it
        /// arrives), as Express reads an upload up to multer's limit before it answers 413;
        /// `false` (the default) answers from the header section. A request that asks for
        /// `100 Continue` is answered at once either way.
        package var readsBodyOverLimitToLimit = false

        /// A configuration; the defaults are the parameters' (plain-text errors, no body limit hook).
        public init(
            host: String = "127.0.0.1", port: Int = 0, limits: HTTPParserLimits = HTTPParserLimits(),
            maxConnections: Int = 512, headerTimeout: Double = 10, requestTimeout: Double = 30, idleTimeout: Double = 30,
            writeTimeout: Double = 10, maxConcurrentRequests: Int = 64, maxUnsentBytes: Int = 64 * 1024,
            errorResponse: @escaping @Sendable (HTTPParseError) -> HTTPResponse = { error in
                HTTPResponse.plainText(status: error.status, error.reason + "\n")
            },
            bodyLimit: (@Sendable (HTTPRequest) -> Int?)? = nil, minimumBodyLimit: Int = 0
        ) {
            (self.host, self.port, self.limits, self.maxConnections) = (host, port, limits, maxConnections)
            (self.headerTimeout, self.requestTimeout, self.idleTimeout, self.writeTimeout) = (headerTimeout, requestTimeout, idleTimeout, writeTimeout)
            (self.maxConcurrentRequests, self.maxUnsentBytes, self.errorResponse) = (maxConcurrentRequests, maxUnsentBytes, errorResponse)
            (self.bodyLimit, self.minimumBodyLimit) = (bodyLimit, minimumBodyLimit)
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

    /// Every status the server answers on its own, through ``Configuration/errorResponse``: 400
    /// malformed, 408 deadline passed, 413 body too large, 417 unsupported `Expect`, 431 header
    /// section too large, 503 no slot, 505 not HTTP/1.x (besides interim `100 Continue`).
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

    deinit { stop() }

    /// The port being listened on, once started.
    public var port: Int? { lifecycle.withLock { $0.port } }

    /// The connections held at once and the descriptor limit they were fitted to; `nil` before ``start()``.
    public var connectionBudget: ConnectionBudget? { lifecycle.withLock { $0.budget } }

    /// The number of connections currently open.
    public var openConnectionCount: Int { lifecycle.withLock { $0.run }?.openConnectionCount ?? 0 }

    /// Connections with a handler thread (a request being handled, or the thread lingering for
    /// the next); 0 when not running. Tests wait for it to fall to 0 rather than sleep.
    var handledConnectionCount: Int { lifecycle.withLock { $0.run }?.handledConnectionCount ?? 0 }

    /// Complete requests waiting for a handler thread (all are busy); 0 when not running.
    var queuedRequestCount: Int { lifecycle.withLock { $0.run }?.pool.queuedJobCount ?? 0 }

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
                (lifecycle.run, lifecycle.port, lifecycle.budget) = (run, port, budget)
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
            (lifecycle.run, lifecycle.port, lifecycle.isStopping) = (nil, nil, false)
            return lifecycle.isTrappingSignals
        }
        if wakeSignalWaiter { TerminationSignalTrap.wake() }
    }

    /// Serves until SIGINT or SIGTERM arrives (caught by a handler that only wakes this thread) or
    /// ``stop(grace:)`` is called, then stops cleanly and puts back the signal dispositions and
    /// this thread's signal mask. One call at a time per process.
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
