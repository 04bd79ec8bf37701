import Foundation

/// A blocking HTTP/1.1 client connection on a raw TCP socket, for tests and benchmarks.
///
/// Unlike URLSession it sends exactly the bytes it is given (malformed requests included), keeps
/// one connection alive across requests, and reports a closed connection as `nil` rather than
/// retrying. It reads leniently (no size limits, any content coding, a reset taken as a close)
/// through ``HTTPClientConnection``. The connect, every write and every answer read is bounded
/// by ``timeout``.
///
/// ```swift
/// let connection = try RawHTTPConnection(host: "127.0.0.1", port: port)
/// let response = try connection.send(HTTPRequest(method: "GET", target: "/api/health"))
/// ```
///
/// Not thread-safe: one connection per thread.
public final class RawHTTPConnection {
    /// The socket descriptor (-1 once closed).
    public var descriptor: Int32 { connection.descriptor }
    /// Seconds the connect, a write, or the reading of one answer may take.
    public let timeout: Double
    /// The `Host` header sent by ``send(_:)`` when the request has none.
    public let hostHeader: String
    private let connection: HTTPClientConnection

    /// What this client accepts: any answer it can frame.
    private static let rules = HTTPClientRules(
        maxHeaderBytes: .max, maxBodyBytes: .max, refusesContentCodings: false, resetEndsStream: true)

    /// Connects to `host:port` (an IPv4 or IPv6 address, or a name).
    /// - Throws: ``HTTPSocketError`` when the connection cannot be made.
    public init(host: String = "127.0.0.1", port: Int, timeout: Double = 10) throws(HTTPSocketError) {
        let step = "connect \(host):\(port)"
        do throws(HTTPClientError) {
            connection = try HTTPClientConnection(host: host, port: port, rules: Self.rules, deadline: Self.deadline(after: timeout))
        } catch {
            throw Self.socketError(error, in: step)
        }
        self.timeout = timeout
        self.hostHeader = "\(host):\(port)"
    }

    /// Closes the socket.
    public func close() {
        connection.close()
    }

    /// Writes raw bytes.
    /// - Throws: ``HTTPSocketError`` when the peer is gone or the write takes longer than the timeout.
    public func write(_ bytes: [UInt8]) throws(HTTPSocketError) {
        guard descriptor >= 0 else { throw HTTPSocketError(operation: "write on a closed connection", code: 0) }
        do throws(HTTPClientError) {
            try connection.write(bytes, deadline: Self.deadline(after: timeout))
        } catch {
            throw Self.socketError(error, in: "write")
        }
    }

    /// Half-closes the connection: the server sees the end of the request stream, reading stays open.
    public func finishWriting() {
        connection.finishWriting()
    }

    /// Sends a well-formed request (adding `Host` and `Content-Length`) and reads the answer.
    /// - Returns: the response, or `nil` when the server closed the connection without one.
    public func send(_ request: HTTPRequest) throws(HTTPSocketError) -> HTTPResponse? {
        try write(RawHTTPConnection.serialize(request, host: hostHeader))
        return try readResponse()
    }

    /// The wire form of `request`, with `Host` (when absent) and `Content-Length` added.
    public static func serialize(_ request: HTTPRequest, host: String) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256 + request.body.count)
        output.append(contentsOf: "\(request.method) \(request.target) HTTP/1.\(request.minorVersion)\r\n".utf8)
        if request.headers["Host"] == nil { output.append(contentsOf: "Host: \(host)\r\n".utf8) }
        for field in request.headers where !HTTPHeaders.namesMatch(field.name, "Content-Length") {
            output.append(contentsOf: "\(field.name): \(field.value)\r\n".utf8)
        }
        if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) {
            output.append(contentsOf: "Content-Length: \(request.body.count)\r\n".utf8)
        }
        output.append(contentsOf: "\r\n".utf8)
        output.append(contentsOf: request.body)
        return output
    }

    /// Reads one final response within the timeout: interim 1xx answers are skipped, and `101`
    /// is returned (HTTP ends there on this connection).
    /// - Returns: the response, or `nil` when the connection closed before a complete one.
    /// - Throws: ``HTTPSocketError`` on a timeout, a socket error, or an unparseable response.
    public func readResponse() throws(HTTPSocketError) -> HTTPResponse? {
        do throws(HTTPClientError) {
            return try connection.readFinalResponse(deadline: Self.deadline(after: timeout))
        } catch {
            if error.isEarlyClose { return nil }
            throw Self.socketError(error, in: "read")
        }
    }

    /// Whether the server closes the connection within `waitSeconds` (bytes it sends before
    /// closing are buffered for the next read); `false` when it is still open by then.
    /// - Throws: ``HTTPSocketError`` on a socket error other than the peer closing.
    public func isClosedByPeer(waitSeconds: Double) throws(HTTPSocketError) -> Bool {
        do throws(HTTPClientError) {
            return try connection.isClosedByPeer(deadline: Self.deadline(after: waitSeconds))
        } catch {
            throw Self.socketError(error, in: "read")
        }
    }

    /// The instant `seconds` from now.
    private static func deadline(after seconds: Double) -> ContinuousClock.Instant {
        .now + .seconds(seconds)
    }

    /// `error` as the ``HTTPSocketError`` of `step` (`connect HOST:PORT`, `write`, `read`).
    private static func socketError(_ error: HTTPClientError, in step: String) -> HTTPSocketError {
        switch error {
        case .timedOut: HTTPSocketError(operation: "\(step) timeout", code: 0)
        case .connectFailed(let code): HTTPSocketError(operation: step, code: code)
        case .pollFailed(let code): HTTPSocketError(operation: "poll", code: code)
        case .sendFailed(_, _, let code): HTTPSocketError(operation: "send", code: code)
        case .receiveFailed(let code): HTTPSocketError(operation: "recv", code: code)
        default: HTTPSocketError(operation: "\(step) (\(error))", code: 0)
        }
    }
}
