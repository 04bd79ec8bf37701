import Foundation
import PetSpotConcurrency
import PetSpotContractKit
import PetSpotHTTP
import PetSpotMockBackend
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A hostile HTTP server on 127.0.0.1 for `run`'s adversarial tests: in front of an in-process
/// ``MockBackend`` (so a run finds a working backend), it answers each request as its
/// `behaviour` decides: pass it to the mock, redirect, stream a huge body, send a gzip bomb,
/// trickle one byte at a time, reset the connection, or echo the request's credentials back.
///
/// Every request received is recorded (``requests``), as is every management password the mock
/// handed out (``passwords``), so that tests can check where secrets went. Bodies are streamed
/// from a fixed buffer, never held in memory. One thread per connection; ``stop()`` closes the
/// listener and ends every trickle.
final class HostileServer: Sendable {
    /// A request as received.
    struct Received: Sendable {
        var method: String
        var target: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// The request line and headers, as text (for "did this secret reach the server" checks).
        var head: String {
            "\(method) \(target)\n" + headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
        }
    }

    /// How to answer one request.
    enum Behaviour: Sendable {
        /// The mock's answer.
        case proxy
        /// The mock's answer, then the request's credentials echoed in its body (see ``echo(_:into:)``).
        case echo
        /// The mock's answer with ``HostileText`` (workflow commands) added: a member of a JSON
        /// answer, and the whole body of a 500 to a details GET (so that a contract fails on it).
        case inject
        /// A redirect to `location`.
        case redirect(status: Int, location: String)
        /// `bytes` bytes of JSON-looking text: with `Content-Length`, chunked, or up to the close.
        case stream(bytes: Int, framing: Framing)
        /// A 200 with `Content-Encoding: gzip` whose body expands to hundreds of MB.
        case gzipBomb
        /// A 200 head, then one body byte every `interval` seconds (at most `count` bytes).
        case trickle(interval: Double, count: Int)
        /// The mock's answer after `seconds`.
        case delayed(seconds: Double)
        /// A TCP reset instead of an answer.
        case reset
        /// The mock's answer, changed by `change` (e.g. a create's id replaced by a hostile one).
        case rewritten(@Sendable (inout HTTPResponse) -> Void)
        /// No answer at all: the connection stays open, silent, until the server stops.
        case silent
    }

    /// How a streamed body is delimited.
    enum Framing: Sendable {
        case contentLength
        case chunked
        case close
    }

    let backend: MockBackend
    private let behaviour: @Sendable (Received, Int) -> Behaviour
    private let listener: Int32
    /// The port listened on.
    let port: Int
    private struct State: Sendable {
        var requests: [Received] = []
        var passwords: [String] = []
        var created: [String] = []
        var deleted: Set<String> = []
        var stopped = false
        /// ``stop()`` has begun: the listener is shut down or about to be.
        var stopping = false
        /// Trickles and streams under way.
        var sending = 0
        /// Every trickle and stream that ended: which, body bytes sent, and whether it ended
        /// because the client left.
        var endings: [(stream: Bool, bytes: Int, clientLeft: Bool)] = []
    }

    private let state = Locked(State())

    /// Starts a server whose answers `behaviour` chooses from the request and its index (0 for
    /// the first request received).
    init(
        adminToken: String = MockBackend.defaultAdminToken, profile: BackendProfile = .production,
        behaviour: @escaping @Sendable (Received, Int) -> Behaviour = { _, _ in .proxy }
    ) throws {
        backend = MockBackend(profile: profile, adminToken: adminToken, clock: serverClockAhead)
        self.behaviour = behaviour
        signal(SIGPIPE, SIG_IGN)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw HTTPSocketError(operation: "bind/listen", code: errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// `http://127.0.0.1:PORT`.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Every request received so far.
    var requests: [Received] { state.withLock { $0.requests } }

    /// Every trickle that ended, once none is under way (waiting up to `seconds` for the last
    /// ones to notice their client left): body bytes sent, and whether the client left first.
    func endedTrickles(waitingUpTo seconds: Double = 60) -> [(bytes: Int, clientLeft: Bool)] {
        endings(waitingUpTo: seconds).filter { !$0.stream }.map { ($0.bytes, $0.clientLeft) }
    }

    /// Every stream (``Behaviour/stream(bytes:framing:)``) that ended, as ``endedTrickles(waitingUpTo:)``.
    func endedStreams(waitingUpTo seconds: Double = 60) -> [(bytes: Int, clientLeft: Bool)] {
        endings(waitingUpTo: seconds).filter(\.stream).map { ($0.bytes, $0.clientLeft) }
    }

    private func endings(waitingUpTo seconds: Double) -> [(stream: Bool, bytes: Int, clientLeft: Bool)] {
        state.withLock(waitingUntil: Date(timeIntervalSinceNow: seconds), for: { $0.sending == 0 }) { state, _ in state.endings }
    }

    /// Every management password the mock handed out through this server.
    var passwords: [String] { state.withLock { $0.passwords } }

    /// The ids of the announcements created through this server and not deleted through it.
    var storedIds: Set<String> { state.withLock { Set($0.created).subtracting($0.deleted) } }

    /// Shuts the listener down (the accept loop closes it once it has left it, so the descriptor
    /// is never reused while the loop still accepts on it); trickles and streams end at their
    /// next write.
    func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        state.withLock { $0.stopped = true }
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    /// Accepts until ``stop()``, whatever else `accept` meets (a full descriptor table, an
    /// aborted connection), then closes the listener.
    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client >= 0 {
                let thread = Thread { [self] in serve(client) }
                thread.start()
                continue
            }
            if stopped { break }
            if errno != EINTR { usleep(10_000) }
        }
        close(listener)
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = Self.readRequest(client) else { return }
        let index = state.withLock { state -> Int in
            state.requests.append(request)
            return state.requests.count - 1
        }
        switch behaviour(request, index) {
        case .proxy:
            send(client, proxied(request).serialized(closing: true))
        case .echo:
            var response = proxied(request)
            Self.echo(request, into: &response)
            send(client, response.serialized(closing: true))
        case .inject:
            var response = proxied(request)
            Self.inject(request, into: &response)
            send(client, response.serialized(closing: true))
        case .redirect(let status, let location):
            send(client, Array("HTTP/1.1 \(status) Redirect\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
        case .stream(let bytes, let framing):
            stream(client, bytes: bytes, framing: framing)
        case .gzipBomb:
            let body = GzipBomb.body
            send(client, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body)
        case .trickle(let interval, let count):
            var sent = 0, clientLeft = false
            state.withLock { $0.sending += 1 }
            defer {
                state.withLock { state in
                    state.sending -= 1
                    state.endings.append((false, sent, clientLeft))
                }
            }
            guard send(client, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(count + 1)\r\n\r\n".utf8)) else {
                clientLeft = true
                return
            }
            for _ in 0..<count {
                if stopped { return }
                Thread.sleep(forTimeInterval: interval)
                guard send(client, [UInt8(ascii: " ")]) else {
                    clientLeft = true
                    return
                }
                sent += 1
            }
        case .delayed(let seconds):
            Thread.sleep(forTimeInterval: seconds)
            send(client, proxied(request).serialized(closing: true))
        case .rewritten(let change):
            var response = proxied(request)
            change(&response)
            send(client, response.serialized(closing: true))
        case .silent:
            while !stopped { usleep(20_000) }
        case .reset:
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
    }

    /// The mock's answer to `request`; management passwords it hands out are recorded.
    private func proxied(_ received: Received) -> HTTPResponse {
        let request = HTTPRequest(method: received.method, target: received.target, headers: HTTPHeaders(received.headers), body: received.body)
        let response = (try? backend.handle(request)) ?? HTTPResponse.plainText(status: 500, "dropped")
        if response.status == 201, let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let password = object["managementPassword"] as? String, let id = object["id"] as? String
        {
            state.withLock { state in
                state.passwords.append(password)
                state.created.append(id)
            }
        }
        if received.method == "DELETE", response.status == 204, let id = received.target.split(separator: "/").last {
            _ = state.withLock { $0.deleted.insert(String(id)) }
        }
        return response
    }

    /// Adds ``HostileText`` to `response`: a `note` member of a JSON object answer, and the body
    /// of a 500 (as text) to a details GET.
    static func inject(_ request: Received, into response: inout HTTPResponse) {
        if request.method == "GET", request.target.hasPrefix("/api/v1/announcements/") {
            response.status = 500
            response.headers.set("Content-Type", "text/plain")
            response.body = Array(("error\n" + HostileText.text + "\n").utf8)
            return
        }
        guard var object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] else { return }
        object["note"] = HostileText.text
        response.body = Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data())
    }

    /// Puts the request's credentials into `response`'s body, in every form a careless server
    /// might echo them: the raw headers as JSON members and as text lines, a decoded Basic
    /// credential, the values percent-encoded, a query string, the request body, and every form
    /// of ``SecretForms`` of the credential and of the decoded pair (`encoded`). A 204
    /// becomes a 200 so that it has a body; a 2xx to a photo upload becomes a 401, so that the
    /// contract fails and the echo is reported.
    static func echo(_ request: Received, into response: inout HTTPResponse) {
        var echo: [String: Any] = [:]
        var lines: [String] = []
        for header in request.headers {
            echo[header.name.lowercased()] = header.value
            lines.append("\(header.name): \(header.value)")
        }
        if let authorization = request.header("Authorization") {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, let data = Data(base64Encoded: String(parts[1])) {
                echo["decoded"] = String(decoding: data, as: UTF8.self)
            }
            let encoded = authorization.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            echo["urlencoded"] = encoded
            echo["query"] = "/echo?authorization=\(encoded)&raw=\(authorization)&x=1"
            echo["text"] = lines.joined(separator: "\r\n")
            var values = [authorization]
            if let decoded = echo["decoded"] as? String { values.append(decoded) }
            if parts.count == 2 { values.append(String(parts[1])) }
            let forms = values.flatMap { value in SecretForms.forms(of: value).map { "\($0.name): \($0.text)" } }
            echo["encoded"] = forms
            lines += forms
        }
        echo["body"] = String(decoding: request.body.prefix(4000), as: UTF8.self)
        var object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        object["echo"] = echo
        response.body = Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data())
        response.headers.set("Content-Type", "application/json")
        if response.status == 204 { response.status = 200 }
        if request.target.hasSuffix("/photos"), response.status < 300 { response.status = 401 }
        if request.method == "GET", request.target.hasPrefix("/api/v1/announcements/") {
            // A text answer too: the header lines as a careless error page shows them.
            response.headers.set("Content-Type", "text/plain")
            response.status = 500
            response.body = Array(("error\n" + lines.joined(separator: "\n") + "\n").utf8)
        }
    }

    /// Streams `bytes` bytes of `[` characters (the start of a never-ending JSON array) from a
    /// fixed 64 KiB buffer until done or the client goes.
    private func stream(_ client: Int32, bytes: Int, framing: Framing) {
        var head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        switch framing {
        case .contentLength: head += "Content-Length: \(bytes)\r\n"
        case .chunked: head += "Transfer-Encoding: chunked\r\n"
        case .close: head += "Connection: close\r\n"
        }
        var sent = 0, clientLeft = false
        state.withLock { $0.sending += 1 }
        defer {
            state.withLock { state in
                state.sending -= 1
                state.endings.append((true, sent, clientLeft))
            }
        }
        guard send(client, Array((head + "\r\n").utf8)) else {
            clientLeft = true
            return
        }
        let chunk = [UInt8](repeating: UInt8(ascii: "["), count: 65_536)
        let chunkHead = Array("10000\r\n".utf8), crlf = Array("\r\n".utf8)
        while sent < bytes && !stopped {
            if framing == .chunked {
                guard send(client, chunkHead + chunk + crlf) else {
                    clientLeft = true
                    return
                }
            } else {
                guard send(client, chunk) else {
                    clientLeft = true
                    return
                }
            }
            sent += chunk.count
        }
        if framing == .chunked { send(client, Array("0\r\n\r\n".utf8)) }
    }

    @discardableResult
    private func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// Reads a request head and its `Content-Length` body (answering `Expect: 100-continue`).
    private static func readRequest(_ client: Int32) -> Received? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var headEnd: Int?
        while headEnd == nil {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            if buffer.count > 1_000_000 { return nil }
            for index in 0..<max(0, buffer.count - 3)
            where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
                headEnd = index + 4
                break
            }
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: buffer[0..<(headEnd - 4)], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var request = Received(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: [])
        if request.header("Expect")?.lowercased() == "100-continue" {
            _ = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8).withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        let length = Int(request.header("Content-Length") ?? "0") ?? 0
        var body = Array(buffer[headEnd...])
        while body.count < length {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            body.append(contentsOf: chunk[0..<count])
        }
        request.body = Array(body.prefix(length))
        return request
    }
}

/// A gzip member whose deflate stream expands to 419,430,343 zero bytes (400 MiB): one literal
/// zero, then 1,625,699 copies of 258 bytes at distance 1, in one dynamic-Huffman block whose
/// codes for "length 258" and "distance 1" are one bit each, so each copy costs two bits and
/// the whole body is about 400 KB (ratio about 1000:1, deflate's maximum).
enum GzipBomb {
    /// The decoded size.
    static let decodedSize = 1 + 1_625_699 * 258
    /// CRC-32 of `decodedSize` zero bytes (python3's zlib.crc32 of 419,430,343 zero bytes).
    static let crc32: UInt32 = 0x6D39_8CD6

    /// The gzip bytes.
    static let body: [UInt8] = {
        var writer = BitWriter()
        // Block header: final, dynamic Huffman.
        writer.write(1, bits: 1)
        writer.write(2, bits: 2)
        writer.write(286 - 257, bits: 5)  // HLIT: 286 literal/length codes
        writer.write(1 - 1, bits: 5)  // HDIST: 1 distance code
        writer.write(18 - 4, bits: 4)  // HCLEN: 18 code length codes
        // Code length code lengths, in the RFC 1951 order 16 17 18 0 8 7 9 6 10 5 11 4 12 3 13 2 14 1:
        // symbol 18 has length 1, symbols 1 and 2 length 2.
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1]
        let codeLengthLengths: [Int: UInt32] = [18: 1, 1: 2, 2: 2]
        for symbol in order { writer.write(codeLengthLengths[symbol] ?? 0, bits: 3) }
        // Canonical codes of the code length alphabet: 18 -> 0, 1 -> 10, 2 -> 11.
        func length(_ value: Int) {
            switch value {
            case 1: writer.writeCode(0b10, length: 2)
            case 2: writer.writeCode(0b11, length: 2)
            default: fatalError("unused")
            }
        }
        func zeros(_ count: Int) {
            var left = count
            while left > 0 {
                let run = min(138, left)
                precondition(run >= 11)
                writer.writeCode(0, length: 1)
                writer.write(UInt32(run - 11), bits: 7)
                left -= run
            }
        }
        // Literal/length code lengths: 0 -> 2, 1...255 -> 0, 256 -> 2, 257...284 -> 0, 285 -> 1.
        length(2)
        zeros(138)
        zeros(117)
        length(2)
        zeros(28)
        length(1)
        // Distance code lengths: 0 -> 1.
        length(1)
        // Canonical literal/length codes: 285 -> 0, 0 -> 10, 256 -> 11; distance 0 -> 0.
        writer.writeCode(0b10, length: 2)  // literal 0
        // Each copy: length 258 (code 285 = "0", no extra bits), distance 1 (code 0 = "0").
        writer.writeZeros(2 * 1_625_699)
        writer.writeCode(0b11, length: 2)  // end of block
        var bytes: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 2, 0xFF]
        bytes += writer.finish()
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: crc32 >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: UInt32(truncatingIfNeeded: decodedSize) >> UInt32(shift))) }
        return bytes
    }()

    /// Deflate's bit order: values least significant bit first, Huffman codes most significant first.
    struct BitWriter {
        var bytes: [UInt8] = []
        var current: UInt32 = 0
        var count: UInt32 = 0

        mutating func write(_ value: UInt32, bits: UInt32) {
            for bit in 0..<bits { push((value >> bit) & 1) }
        }

        mutating func writeCode(_ code: UInt32, length: UInt32) {
            for bit in stride(from: Int(length) - 1, through: 0, by: -1) { push((code >> UInt32(bit)) & 1) }
        }

        mutating func writeZeros(_ bits: Int) {
            var left = bits
            while left > 0 && count != 0 {
                push(0)
                left -= 1
            }
            bytes += [UInt8](repeating: 0, count: left / 8)
            for _ in 0..<(left % 8) { push(0) }
        }

        private mutating func push(_ bit: UInt32) {
            current |= bit << count
            count += 1
            if count == 8 {
                bytes.append(UInt8(current))
                current = 0
                count = 0
            }
        }

        mutating func finish() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(current)) }
            return bytes
        }
    }
}
