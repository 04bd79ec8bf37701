#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A small HTTP/1.1 server on POSIX sockets: one acceptor thread and one thread per connection.
///
/// It is built for loopback test traffic that may be hostile: every limit a slow or malicious
/// client could exploit is bounded. A request must arrive complete within
/// ``Configuration/requestTimeout`` of its first byte (else 408 and close: a half-sent request
/// cannot hold a worker), an idle keep-alive connection is closed after
/// ``Configuration/idleTimeout``, header and body sizes are capped (431, 413), and at most
/// ``Configuration/maxConnections`` connections are served at once (one more is answered 503 and
/// closed). Protocol errors are answered with ``Configuration/errorResponse`` and the connection
/// closed; a handler that throws makes the server close the connection without answering
/// (which is how a mock simulates a dropped connection).
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
/// Threads block in `poll`, so the model fits a 2-core machine serving a few hundred keep-alive
/// connections; SIGPIPE is ignored and writes use `MSG_NOSIGNAL`.
public final class HTTPServer: @unchecked Sendable {
    /// Listening address, limits and timeouts.
    public struct Configuration: Sendable {
        /// The IPv4 address to bind (loopback by default).
        public var host: String
        /// The port to bind; 0 lets the OS pick a free one.
        public var port: Int
        /// Header and body size limits.
        public var limits: HTTPParserLimits
        /// Connections served at once; more are answered 503 and closed.
        public var maxConnections: Int
        /// Seconds from a request's first byte to its last before the server answers 408.
        public var requestTimeout: Double
        /// Seconds an idle keep-alive connection is kept open.
        public var idleTimeout: Double
        /// Seconds a response write may stall on a client that does not read.
        public var writeTimeout: Double
        /// The response for a protocol error (bad request line, oversized header, timeout, ...).
        public var errorResponse: @Sendable (HTTPParseError) -> HTTPResponse

        /// A configuration; defaults: 127.0.0.1, port 0, 16 KiB headers, 25 MiB bodies,
        /// 256 connections, 10 s per request, 30 s idle, 10 s write stall, plain-text errors.
        public init(
            host: String = "127.0.0.1", port: Int = 0, limits: HTTPParserLimits = HTTPParserLimits(),
            maxConnections: Int = 256, requestTimeout: Double = 10, idleTimeout: Double = 30,
            writeTimeout: Double = 10,
            errorResponse: @escaping @Sendable (HTTPParseError) -> HTTPResponse = { error in
                HTTPResponse.plainText(status: error.status, error.reason + "\n")
            }
        ) {
            self.host = host
            self.port = port
            self.limits = limits
            self.maxConnections = maxConnections
            self.requestTimeout = requestTimeout
            self.idleTimeout = idleTimeout
            self.writeTimeout = writeTimeout
            self.errorResponse = errorResponse
        }
    }

    /// Answers one request; throwing closes the connection without an answer.
    public typealias Handler = @Sendable (HTTPRequest) throws -> HTTPResponse

    /// The configuration the server was created with.
    public let configuration: Configuration
    private let handler: Handler

    // Mutable state, guarded by `condition`.
    private let condition = NSCondition()
    private var listenDescriptor: Int32 = -1
    private var wakeDescriptors: (read: Int32, write: Int32) = (-1, -1)
    private var openConnections: Set<Int32> = []
    private var acceptorRunning = false
    private var stopping = false
    private var boundPort: Int?
    private var connectionsServed = 0

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
        condition.lock()
        defer { condition.unlock() }
        return boundPort
    }

    /// The number of connections currently open.
    public var openConnectionCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return openConnections.count
    }

    /// Binds, listens and starts accepting on a background thread.
    /// - Returns: the port listened on (the OS's choice when the configuration says 0).
    /// - Throws: ``HTTPSocketError`` when the address is invalid or cannot be bound.
    @discardableResult
    public func start() throws(HTTPSocketError) -> Int {
        _Socket.ignoreSIGPIPE()
        condition.lock()
        defer { condition.unlock() }
        if let boundPort { return boundPort }
        var address = try _Socket.address(host: configuration.host, port: configuration.port)
        let descriptor = socket(AF_INET, _Socket.streamType, 0)
        guard descriptor >= 0 else { throw HTTPSocketError(operation: "socket", code: errno) }
        _Socket.setOption(descriptor, SOL_SOCKET, SO_REUSEADDR, 1)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw HTTPSocketError(operation: "bind \(configuration.host):\(configuration.port)", code: code)
        }
        guard listen(descriptor, 512) == 0 else {
            let code = errno
            close(descriptor)
            throw HTTPSocketError(operation: "listen", code: code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            let code = errno
            close(descriptor)
            throw HTTPSocketError(operation: "pipe", code: code)
        }
        _Socket.setNonBlocking(descriptor)
        listenDescriptor = descriptor
        wakeDescriptors = (pipeEnds[0], pipeEnds[1])
        let port = Int(UInt16(bigEndian: actual.sin_port))
        boundPort = port
        stopping = false
        acceptorRunning = true
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "HTTPServer.accept"
        thread.start()
        return port
    }

    /// Stops accepting, lets requests in progress finish (up to `grace` seconds), closes every
    /// connection and the listener. Safe to call more than once.
    public func stop(grace: Double = 5) {
        condition.lock()
        guard boundPort != nil, !stopping else {
            condition.unlock()
            return
        }
        stopping = true
        var wake: UInt8 = 1
        _ = write(wakeDescriptors.write, &wake, 1)
        for descriptor in openConnections { _ = shutdown(descriptor, Int32(SHUT_RD)) }
        let deadline = Date(timeIntervalSinceNow: grace)
        while acceptorRunning || !openConnections.isEmpty {
            if !condition.wait(until: deadline) { break }
        }
        for descriptor in openConnections { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        if !acceptorRunning {
            close(listenDescriptor)
            close(wakeDescriptors.read)
            close(wakeDescriptors.write)
            listenDescriptor = -1
        }
        boundPort = nil
        condition.unlock()
    }

    /// Serves until SIGINT or SIGTERM arrives, then stops cleanly.
    /// - Parameter ready: called with the port once listening (print the ready line here).
    /// - Throws: ``HTTPSocketError`` when the server cannot start.
    public func runUntilTerminated(ready: (Int) -> Void) throws(HTTPSocketError) {
        let port = try start()
        let finished = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            _ = signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { finished.signal() }
            source.resume()
            sources.append(source)
        }
        ready(port)
        finished.wait()
        stop()
        for source in sources { source.cancel() }
    }

    // MARK: Accepting

    private func acceptLoop() {
        condition.lock()
        let listener = listenDescriptor
        let wakeRead = wakeDescriptors.read
        condition.unlock()
        var descriptors = [
            pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if descriptors[1].revents != 0 || ready < 0 { break }
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { break }
                admit(client)
            }
        }
        condition.lock()
        acceptorRunning = false
        condition.broadcast()
        condition.unlock()
    }

    private func admit(_ client: Int32) {
        _Socket.configureConnection(client)
        _Socket.setNonBlocking(client)
        condition.lock()
        let admitted = !stopping && openConnections.count < configuration.maxConnections
        if admitted {
            openConnections.insert(client)
            connectionsServed += 1
        }
        condition.unlock()
        guard admitted else {
            let refusal = configuration.errorResponse(HTTPParseError(status: 503, reason: "too many connections"))
            try? _Socket.writeAll(client, refusal.serialized(closing: true), timeoutMilliseconds: 100)
            close(client)
            return
        }
        let thread = Thread { [self] in
            serve(client)
            condition.lock()
            openConnections.remove(client)
            close(client)
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "HTTPServer.connection"
        thread.start()
    }

    // MARK: Serving one connection

    private var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    private func serve(_ descriptor: Int32) {
        var parser = HTTPRequestParser(limits: configuration.limits)
        let requestTimeout = Int64(configuration.requestTimeout * 1000)
        let idleTimeout = Int64(configuration.idleTimeout * 1000)
        let writeTimeout = Int(configuration.writeTimeout * 1000)
        var idleSince = _Socket.monotonicMilliseconds()
        var requestStarted: Int64? = nil
        var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

        func answer(_ response: HTTPResponse, closing: Bool, includeBody: Bool = true) -> Bool {
            do {
                try _Socket.writeAll(descriptor, response.serialized(closing: closing, includeBody: includeBody),
                                     timeoutMilliseconds: writeTimeout)
                return true
            } catch {
                return false
            }
        }

        while true {
            switch parser.nextRequest() {
            case .request(let request):
                let response: HTTPResponse
                do {
                    response = try handler(request)
                } catch {
                    return
                }
                let closing = !request.keepsConnectionAlive || isStopping
                guard answer(response, closing: closing, includeBody: request.method != "HEAD"), !closing else { return }
                requestStarted = nil
                idleSince = _Socket.monotonicMilliseconds()
                continue
            case .failure(let error):
                _ = answer(configuration.errorResponse(error), closing: true)
                return
            case .incomplete:
                if parser.continueRequested {
                    parser.acknowledgeContinue()
                    guard (try? _Socket.writeAll(descriptor, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8),
                                                 timeoutMilliseconds: writeTimeout)) != nil else { return }
                }
            }
            let now = _Socket.monotonicMilliseconds()
            if parser.hasPartialRequest && requestStarted == nil { requestStarted = now }
            let deadline = requestStarted.map { $0 + requestTimeout } ?? idleSince + idleTimeout
            let received = readBuffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if received > 0 {
                readBuffer.withUnsafeBytes { parser.append(UnsafeRawBufferPointer(rebasing: $0[0..<received])) }
                continue
            }
            if received == 0 { return }
            let code = errno
            guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR else { return }
            if code == EINTR { continue }
            let remaining = deadline - now
            if remaining <= 0 || !_Socket.wait(descriptor, events: Int16(POLLIN), timeoutMilliseconds: Int(remaining)) {
                if parser.hasPartialRequest {
                    _ = answer(configuration.errorResponse(
                        HTTPParseError(status: 408, reason: "request not complete within \(configuration.requestTimeout) s")),
                        closing: true)
                }
                return
            }
        }
    }
}
