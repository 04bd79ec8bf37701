#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A blocking HTTP/1.1 client connection on a raw TCP socket, for tests and benchmarks.
///
/// Unlike URLSession it sends exactly the bytes it is given (malformed requests included), keeps
/// one connection alive across requests, and reports a closed connection as `nil` rather than
/// retrying. Every read and write is bounded by ``timeout``.
///
/// ```swift
/// let connection = try RawHTTPConnection(host: "127.0.0.1", port: port)
/// let response = try connection.send(HTTPRequest(method: "GET", target: "/api/health"))
/// ```
///
/// Not thread-safe: one connection per thread.
public final class RawHTTPConnection {
    /// The socket descriptor (-1 once closed).
    public private(set) var descriptor: Int32
    /// Seconds any single read or write may wait.
    public let timeout: Double
    /// The `Host` header sent by ``send(_:)`` when the request has none.
    public let hostHeader: String
    private var pending: [UInt8] = []

    /// Connects to `host:port` (IPv4).
    /// - Throws: ``HTTPSocketError`` when the connection cannot be made.
    public init(host: String = "127.0.0.1", port: Int, timeout: Double = 10) throws(HTTPSocketError) {
        Socket.ignoreSIGPIPE()
        var address = try Socket.address(host: host, port: port)
        let descriptor = socket(AF_INET, Socket.streamType, 0)
        guard descriptor >= 0 else { throw HTTPSocketError(operation: "socket", code: errno) }
        Socket.setCloseOnExec(descriptor)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            Socket.closeDescriptor(descriptor)
            throw HTTPSocketError(operation: "connect \(host):\(port)", code: code)
        }
        Socket.configureConnection(descriptor)
        Socket.setNonBlocking(descriptor)
        self.descriptor = descriptor
        self.timeout = timeout
        self.hostHeader = "\(host):\(port)"
    }

    deinit { close() }

    /// Closes the socket.
    public func close() {
        if descriptor >= 0 {
            Socket.closeDescriptor(descriptor)
            descriptor = -1
        }
    }

    /// Writes raw bytes.
    /// - Throws: ``HTTPSocketError`` when the peer is gone or the write stalls past the timeout.
    public func write(_ bytes: [UInt8]) throws(HTTPSocketError) {
        guard descriptor >= 0 else { throw HTTPSocketError(operation: "write on a closed connection", code: 0) }
        try Socket.writeAll(descriptor, bytes, timeoutMilliseconds: Int(timeout * 1000))
    }

    /// Half-closes the connection: the server sees the end of the request stream, reading stays open.
    public func finishWriting() {
        if descriptor >= 0 { _ = shutdown(descriptor, Int32(SHUT_WR)) }
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

    /// Reads one response (skipping interim 1xx answers).
    /// - Returns: the response, or `nil` when the connection closed before a complete one.
    /// - Throws: ``HTTPSocketError`` on a timeout, a socket error, or an unparseable response.
    public func readResponse() throws(HTTPSocketError) -> HTTPResponse? {
        while true {
            guard let response = try readOneResponse() else { return nil }
            if response.status >= 200 || response.status < 100 { return response }
        }
    }

    /// Whether the server closes the connection within `waitSeconds` (bytes it sends before
    /// closing are buffered for the next read); `false` when it is still open by then.
    /// - Throws: ``HTTPSocketError`` on a socket error other than the peer closing.
    public func isClosedByPeer(waitSeconds: Double) throws(HTTPSocketError) -> Bool {
        let deadline = Socket.monotonicMilliseconds() + Int64(waitSeconds * 1000)
        while true {
            do throws(HTTPSocketError) {
                guard try fill(deadline: deadline) != nil else { return true }
            } catch where error == RawHTTPConnection.readTimeout {
                return false
            }
        }
    }

    private func readOneResponse() throws(HTTPSocketError) -> HTTPResponse? {
        let deadline = Socket.monotonicMilliseconds() + Int64(timeout * 1000)
        var headerEnd: Int? = nil
        while headerEnd == nil {
            headerEnd = RawHTTPConnection.find([0x0D, 0x0A, 0x0D, 0x0A], in: pending).map { $0 + 4 }
            if headerEnd == nil {
                guard let count = try fill(deadline: deadline), count > 0 else { return nil }
            }
        }
        guard let end = headerEnd else { return nil }
        let head = String(decoding: pending[0..<(end - 4)], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let statusParts = statusLine.split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw HTTPSocketError(operation: "parse status line '\(statusLine)'", code: 0)
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                throw HTTPSocketError(operation: "parse header line '\(line)'", code: 0)
            }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        pending.removeSubrange(0..<end)
        let bodyless = status < 200 || status == 204 || status == 304
        if bodyless { return HTTPResponse(status: status, headers: headers) }
        if let lengthText = headers["Content-Length"] {
            guard let length = Int(lengthText), length >= 0 else {
                throw HTTPSocketError(operation: "parse Content-Length '\(lengthText)'", code: 0)
            }
            while pending.count < length {
                guard let count = try fill(deadline: deadline), count > 0 else { return nil }
            }
            let body = Array(pending[0..<length])
            pending.removeSubrange(0..<length)
            return HTTPResponse(status: status, headers: headers, body: body)
        }
        // Close-delimited body.
        while let count = try fill(deadline: deadline), count > 0 {}
        let body = pending
        pending.removeAll()
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// Reads what is available into `pending`: the byte count, or `nil` on EOF; throws
    /// ``readTimeout`` when `deadline` passes with nothing.
    private func fill(deadline: Int64) throws(HTTPSocketError) -> Int? {
        guard descriptor >= 0 else { return nil }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if received > 0 {
                pending.append(contentsOf: chunk[0..<received])
                return received
            }
            if received == 0 { return nil }
            let code = errno
            if code == ECONNRESET || code == EPIPE { return nil }
            guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
                throw HTTPSocketError(operation: "recv", code: code)
            }
            if code == EINTR { continue }
            let remaining = deadline - Socket.monotonicMilliseconds()
            guard remaining > 0, Socket.wait(descriptor, events: Int16(POLLIN), timeoutMilliseconds: Int(remaining)) else {
                throw RawHTTPConnection.readTimeout
            }
        }
    }

    /// What ``fill(deadline:)`` throws when nothing arrives in time.
    private static let readTimeout = HTTPSocketError(operation: "read timeout", code: 0)

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }
}
