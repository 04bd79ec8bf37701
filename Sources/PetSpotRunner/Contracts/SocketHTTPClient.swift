#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpotConcurrency
import PetSpotHTTP
import PetSpotModel
import PetSpotReport

/// The `http://` wire client of ``RunnerHTTPTransport``: HTTP/1.1 on a POSIX socket, one
/// connection per request (`Connection: close`).
///
/// Every wait (name resolution, connect, write, read) is bounded by the request's deadline, so
/// the deadline covers connect to last byte. The answer is read incrementally and counted: the
/// header block against ``WireLimits/maxHeaderBytes``, the body (`Content-Length`, chunked, or
/// up to the close) against ``WireLimits/maxBodyBytes``; nothing is decompressed and no redirect
/// is followed. Each request runs on a thread of its own (blocking `poll`), off Swift's
/// cooperative pool.
package struct SocketHTTPClient: HTTPWireClient {
    /// The limits enforced.
    package let limits: WireLimits

    /// A client with `limits`.
    package init(limits: WireLimits) {
        self.limits = limits
    }

    /// Sends `request` and reads the answer.
    package func exchange(_ request: WireRequest) async -> Result<TransportResponse, TransportError> {
        let limits = self.limits
        return await runOnDedicatedThread {
            do throws(TransportError) {
                return .success(try SocketExchange(request: request, limits: limits).run())
            } catch {
                return .failure(error)
            }
        }
    }

    /// The request's head: request line, the caller's headers (minus the framing ones the
    /// client owns), `Host`, `Accept-Encoding: identity`, `Connection: close`, `Content-Length`,
    /// and the blank line; the body follows it as is.
    /// - Throws: a ``TransportError`` naming the header or byte offset of a character that
    ///   cannot be sent (a control character, a line break).
    package static func serializeHead(_ request: WireRequest) throws(TransportError) -> [UInt8] {
        let method = request.method
        guard !method.isEmpty, method.utf8.allSatisfy({ isTokenByte($0) }) else {
            throw .noConnection("cannot send: the method '\(DisplayText.sanitized(method, maxBytes: 40))' is not an HTTP token")
        }
        if let offset = request.endpoint.target.utf8.firstIndex(where: { $0 <= 0x20 || $0 == 0x7F }) {
            let position = request.endpoint.target.utf8.distance(from: request.endpoint.target.utf8.startIndex, to: offset)
            throw .noConnection("cannot send: the request target has a space or control character at byte \(position)")
        }
        var head = "\(method) \(request.endpoint.target) HTTP/1.1\r\nHost: \(request.endpoint.hostHeader)\r\n"
        var hasAcceptEncoding = false
        for header in request.headers {
            let name = header.name.lowercased()
            if ["host", "content-length", "transfer-encoding", "connection"].contains(name) { continue }
            guard !header.name.isEmpty, header.name.utf8.allSatisfy({ isTokenByte($0) }) else {
                throw .noConnection("cannot send: the header name '\(DisplayText.sanitized(header.name, maxBytes: 40))' is not an HTTP token")
            }
            if let offset = header.value.utf8.firstIndex(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
                let position = header.value.utf8.distance(from: header.value.utf8.startIndex, to: offset)
                throw .noConnection("cannot send: header \(header.name) has a line break or NUL at byte \(position) of its value")
            }
            if name == "accept-encoding" { hasAcceptEncoding = true }
            head += "\(header.name): \(header.value)\r\n"
        }
        if !hasAcceptEncoding { head += "Accept-Encoding: identity\r\n" }
        head += "Connection: close\r\n"
        if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) {
            head += "Content-Length: \(request.body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8)
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}

/// One exchange on one socket: connect, write, read the answer within the deadline.
///
/// Not thread-safe: used by the one thread that runs it, and closed at the end of ``run()``.
private final class SocketExchange {
    /// The request.
    let request: WireRequest
    /// The limits enforced.
    let limits: WireLimits
    /// The socket (-1 before connecting).
    var descriptor: Int32 = -1
    /// Bytes received and not yet consumed start at ``cursor``.
    var buffer: [UInt8] = []
    /// Where unread bytes of ``buffer`` start.
    var cursor = 0

    /// An exchange of `request` within `limits`, not yet connected.
    init(request: WireRequest, limits: WireLimits) {
        self.request = request
        self.limits = limits
    }

    deinit {
        if descriptor >= 0 { Socket.closeDescriptor(descriptor) }
    }

    /// `host:port`, for messages.
    var place: String { request.endpoint.hostHeader }

    /// Connects, sends the request and reads the final (non-1xx) answer.
    func run() throws(TransportError) -> TransportResponse {
        Socket.ignoreSIGPIPE()
        let head = try SocketHTTPClient.serializeHead(request)
        try connect()
        try write(head)
        if !request.body.isEmpty {
            try request.body.withUnsafeBytes { raw in Result { () throws(TransportError) in try write(raw) } }.get()
        }
        while true {
            let head = try readHead()
            if (100...199).contains(head.status) {
                if head.status == 101 { throw .noConnection("the server at \(place) switched protocols (101); expected an HTTP answer") }
                continue
            }
            let body = try readBody(head)
            return TransportResponse(status: head.status, headers: head.headers, body: Data(body))
        }
    }

    // MARK: Time

    /// Milliseconds left before the deadline; throws ``TransportError/timedOut`` when none.
    func remainingMilliseconds() throws(TransportError) -> Int32 {
        let left = request.deadline - ContinuousClock.now
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        guard milliseconds > 0 else { throw .timedOut }
        return Int32(clamping: milliseconds)
    }

    /// Waits until the socket is ready for `events`, at most until the deadline.
    func wait(for events: Int32) throws(TransportError) {
        while true {
            var entry = pollfd(fd: descriptor, events: Int16(events), revents: 0)
            let result = poll(&entry, 1, try remainingMilliseconds())
            if result > 0 { return }
            if result == 0 { throw .timedOut }
            if errno != EINTR { throw .noConnection("poll on the connection to \(place) failed: \(String(cString: strerror(errno)))") }
        }
    }

    // MARK: Connecting

    /// Connects to the first address of the host that accepts, within the deadline.
    func connect() throws(TransportError) {
        let addresses = try resolve()
        var lastError = "no address"
        for address in addresses {
            let fd = socket(address.family, Socket.streamType, 0)
            guard fd >= 0 else {
                lastError = String(cString: strerror(errno))
                continue
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            Socket.setNonBlocking(fd)
            Socket.configureConnection(fd)
            descriptor = fd
            let started = address.storage.withUnsafeBytes { raw in
                systemConnect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), address.length)
            }
            if started == 0 { return }
            if errno == EINPROGRESS || errno == EINTR {
                try wait(for: Int32(POLLOUT))
                var code: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
                if code == 0 { return }
                lastError = String(cString: strerror(code))
            } else {
                lastError = String(cString: strerror(errno))
            }
            Socket.closeDescriptor(fd)
            descriptor = -1
        }
        throw .noConnection("connect to \(place): \(lastError)")
    }

    /// A resolved socket address: its family and `sockaddr` bytes.
    struct Address: Sendable {
        /// `AF_INET` or `AF_INET6`.
        var family: Int32
        /// The `sockaddr` bytes.
        var storage: [UInt8]
        /// Their length.
        var length: socklen_t
    }

    /// The addresses of the host: numeric ones at once, names through `getaddrinfo` on a helper
    /// thread waited for until the deadline (a resolver that hangs cannot outlast it).
    func resolve() throws(TransportError) -> [Address] {
        let host = request.endpoint.host
        let port = request.endpoint.port
        var probe = in6_addr()
        if inet_pton(AF_INET, host, &probe) == 1 || inet_pton(AF_INET6, host, &probe) == 1 {
            return try Self.lookUp(host: host, port: port).get()
        }
        let result = Locked<Result<[Address], TransportError>?>(nil)
        let thread = Thread {
            let found = Self.lookUp(host: host, port: port)
            result.withLock { $0 = found }
        }
        thread.start()
        let left = Double(try remainingMilliseconds()) / 1000
        let found = result.withLock(waitingUntil: Date(timeIntervalSinceNow: left), for: { $0 != nil }) { value, _ in value }
        guard let found else { throw .timedOut }
        return try found.get()
    }

    /// `getaddrinfo` for `host:port` (blocking).
    static func lookUp(host: String, port: Int) -> Result<[Address], TransportError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Socket.streamType
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(.noConnection("cannot resolve host '\(host)': \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(first) }
        var addresses: [Address] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = current.pointee.ai_addr,
                current.pointee.ai_family == AF_INET || current.pointee.ai_family == AF_INET6
            {
                let length = Int(current.pointee.ai_addrlen)
                let bytes = Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(address), count: length))
                addresses.append(Address(family: current.pointee.ai_family, storage: bytes, length: current.pointee.ai_addrlen))
            }
            entry = current.pointee.ai_next
        }
        return addresses.isEmpty ? .failure(.noConnection("host '\(host)' has no IPv4 or IPv6 address")) : .success(addresses)
    }

    // MARK: Writing

    /// Writes all of `bytes` within the deadline.
    func write(_ bytes: [UInt8]) throws(TransportError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(TransportError) in try write(raw) } }.get()
    }

    /// Writes all of `bytes` within the deadline (a peer that closed early is left to the read).
    func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = send(descriptor, base + offset, bytes.count - offset, Socket.sendFlags)
            if written > 0 {
                offset += written
                continue
            }
            let code = errno
            if written < 0 && (code == EAGAIN || code == EWOULDBLOCK || code == EINTR) {
                try wait(for: Int32(POLLOUT))
                continue
            }
            // The server may answer (e.g. 413) and close before reading the whole body: read it.
            if code == EPIPE || code == ECONNRESET { return }
            throw .noConnection("sending to \(place) failed after \(offset) of \(bytes.count) bytes: \(String(cString: strerror(code)))")
        }
    }

    // MARK: Reading

    /// Reads more bytes into the buffer; `false` at the end of the stream.
    func fill() throws(TransportError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if received > 0 {
                buffer.append(contentsOf: chunk[0..<received])
                return true
            }
            if received == 0 { return false }
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK || code == EINTR {
                try wait(for: Int32(POLLIN))
                continue
            }
            if code == ECONNRESET { throw .noConnection("the server at \(place) reset the connection") }
            throw .noConnection("reading from \(place) failed: \(String(cString: strerror(code)))")
        }
    }

    /// A status line and header block.
    struct Head {
        /// The status code.
        var status: Int
        /// The header fields in order.
        var headers: [(name: String, value: String)]

        /// Every value of header `name` (case-insensitive).
        func values(_ name: String) -> [String] {
            headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
        }
    }

    /// Text from the server, made printable for an error message.
    func shown(_ bytes: ArraySlice<UInt8>) -> String {
        DisplayText.sanitized(String(decoding: bytes.prefix(200), as: UTF8.self), maxBytes: 200)
    }

    /// Reads a status line and header block (at most ``WireLimits/maxHeaderBytes``).
    func readHead() throws(TransportError) -> Head {
        var searchFrom = cursor
        var end: Int?
        while end == nil {
            var index = max(cursor, searchFrom)
            while index < buffer.count {
                if buffer[index] == UInt8(ascii: "\n") {
                    // A blank line: "\n\n" or "\n\r\n".
                    if index + 1 < buffer.count, buffer[index + 1] == UInt8(ascii: "\n") {
                        end = index + 2
                        break
                    }
                    if index + 2 < buffer.count, buffer[index + 1] == UInt8(ascii: "\r"), buffer[index + 2] == UInt8(ascii: "\n") {
                        end = index + 3
                        break
                    }
                }
                index += 1
            }
            if end != nil { break }
            searchFrom = max(cursor, buffer.count - 2)
            if buffer.count - cursor > limits.maxHeaderBytes {
                throw .noConnection("answer too large: the header block from \(place) is longer than \(limits.maxHeaderBytes) bytes")
            }
            guard try fill() else {
                if buffer.count == cursor { throw .noConnection("the server at \(place) closed the connection without an answer") }
                throw .noConnection("the server at \(place) closed the connection after \(buffer.count - cursor) bytes of an unfinished header")
            }
        }
        guard let end else { throw .noConnection("no header") }
        if end - cursor > limits.maxHeaderBytes {
            throw .noConnection("answer too large: the header block from \(place) is longer than \(limits.maxHeaderBytes) bytes")
        }
        let block = buffer[cursor..<end]
        let start = cursor
        cursor = end
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = block.startIndex
        for index in block.indices where block[index] == UInt8(ascii: "\n") {
            var line = block[lineStart..<index]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            lines.append(line)
            lineStart = index + 1
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let statusLine = lines.first else { throw .noConnection("empty answer from \(place)") }
        let parts = statusLine.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].starts(with: Array("HTTP/1.".utf8)), parts[1].count == 3,
            parts[1].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let status = Int(String(decoding: parts[1], as: UTF8.self)), status >= 100
        else {
            throw .noConnection("the server at \(place) did not answer HTTP/1.x: status line '\(shown(statusLine))' (byte \(start) of the answer)")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            if line.first == UInt8(ascii: " ") || line.first == UInt8(ascii: "\t") {
                throw .noConnection("the answer from \(place) folds a header line (obsolete): '\(shown(line))'")
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[line.startIndex..<colon].allSatisfy({ SocketHTTPClient.isTokenByte($0) })
            else {
                throw .noConnection("the answer from \(place) has a malformed header line: '\(shown(line))'")
            }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            headers.append((name: name, value: value))
        }
        return Head(status: status, headers: headers)
    }

    /// Reads the body the head announces, within the size cap.
    func readBody(_ head: Head) throws(TransportError) -> [UInt8] {
        if request.method == "HEAD" || head.status == 204 || head.status == 304 { return [] }
        let codings = head.values("Content-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty && $0 != "identity" }
        let transferCodings = head.values("Transfer-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let lengths = head.values("Content-Length")
        if !transferCodings.isEmpty {
            if !codings.isEmpty { throw limits.encoded(status: head.status, coding: codings.joined(separator: ", ")) }
            if transferCodings.last == "chunked" { return try readChunked(head) }
            return try readToClose(head)
        }
        if !lengths.isEmpty {
            let distinct = Set(lengths.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) })
            guard distinct.count == 1, let text = distinct.first, !text.isEmpty, text.count <= 18,
                text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let length = Int(text)
            else {
                throw .noConnection("the \(head.status) answer from \(place) has an invalid Content-Length '\(DisplayText.sanitized(lengths.joined(separator: ", "), maxBytes: 80))'")
            }
            if length > limits.maxBodyBytes { throw limits.tooLarge(status: head.status, declared: length) }
            if length > 0 && !codings.isEmpty { throw limits.encoded(status: head.status, coding: codings.joined(separator: ", ")) }
            while buffer.count - cursor < length {
                guard try fill() else {
                    throw .noConnection("the server at \(place) closed the connection after \(buffer.count - cursor) of \(length) body bytes")
                }
            }
            let body = Array(buffer[cursor..<(cursor + length)])
            cursor += length
            return body
        }
        if !codings.isEmpty { throw limits.encoded(status: head.status, coding: codings.joined(separator: ", ")) }
        return try readToClose(head)
    }

    /// A body delimited by the end of the connection.
    func readToClose(_ head: Head) throws(TransportError) -> [UInt8] {
        while true {
            if buffer.count - cursor > limits.maxBodyBytes { throw limits.tooLarge(status: head.status) }
            guard try fill() else { break }
        }
        if buffer.count - cursor > limits.maxBodyBytes { throw limits.tooLarge(status: head.status) }
        let body = Array(buffer[cursor...])
        cursor = buffer.count
        return body
    }

    /// Reads one line (for chunk sizes and trailers), at most 4 KiB.
    func readLine(_ what: String) throws(TransportError) -> ArraySlice<UInt8> {
        var searched = cursor
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[cursor..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                cursor = newline + 1
                return line
            }
            searched = buffer.count
            if buffer.count - cursor > 4096 { throw .noConnection("the \(what) from \(place) is longer than 4096 bytes") }
            guard try fill() else { throw .noConnection("the server at \(place) closed the connection in the middle of a chunked body") }
        }
    }

    /// A chunked body, decoded, within the size cap (trailers read and dropped).
    func readChunked(_ head: Head) throws(TransportError) -> [UInt8] {
        var body: [UInt8] = []
        var trailerBytes = 0
        while true {
            if cursor > 64 * 1024 {
                buffer.removeSubrange(0..<cursor)
                cursor = 0
            }
            let line = try readLine("chunk size line")
            let digits = line.prefix { $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            guard !digits.isEmpty, digits.count <= 15, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16), size >= 0 else {
                throw .noConnection("the \(head.status) answer from \(place) has an invalid chunk size line '\(shown(line))' after \(body.count) body bytes")
            }
            if size == 0 { break }
            if body.count + size > limits.maxBodyBytes { throw limits.tooLarge(status: head.status, read: body.count + size) }
            while buffer.count - cursor < size + 2 {
                guard try fill() else {
                    throw .noConnection("the server at \(place) closed the connection in the middle of a chunk after \(body.count) body bytes")
                }
            }
            body.append(contentsOf: buffer[cursor..<(cursor + size)])
            cursor += size
            if buffer[cursor] == UInt8(ascii: "\r") { cursor += 1 }
            guard buffer[cursor] == UInt8(ascii: "\n") else {
                throw .noConnection("the \(head.status) answer from \(place) has a chunk not followed by a line break after \(body.count) body bytes")
            }
            cursor += 1
        }
        while true {
            let trailer = try readLine("trailer")
            if trailer.isEmpty { break }
            trailerBytes += trailer.count
            if trailerBytes > limits.maxHeaderBytes {
                throw .noConnection("answer too large: the trailers from \(place) are longer than \(limits.maxHeaderBytes) bytes")
            }
        }
        return body
    }
}

/// `connect(2)`, under a name that does not clash with ``SocketExchange/connect()``.
private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}
