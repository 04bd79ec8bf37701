import Foundation
import Testing
@testable import PetSpotHTTP

/// An echo server: answers 200 with "METHOD PATH BODYLENGTH".
private func makeEchoServer(_ configuration: HTTPServer.Configuration = HTTPServer.Configuration()) throws -> (HTTPServer, Int) {
    let server = HTTPServer(configuration: configuration) { request in
        if request.path == "/drop" { throw CancellationError() }
        return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"],
                            body: Array("\(request.method) \(request.path) \(request.body.count)".utf8))
    }
    return (server, try server.start())
}

/// SplitMix64, for reproducible hostile inputs.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("HTTPServer over loopback", .serialized)
struct HTTPServerTests {
    @Test("keep-alive: many requests on one connection, chunked upload, HEAD, close")
    func keepAlive() throws {
        let (server, port) = try makeEchoServer()
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: port)
        for index in 0..<50 {
            let response = try #require(try connection.send(HTTPRequest(method: "POST", target: "/n/\(index)", body: [1, 2, 3])))
            #expect(response.status == 200)
            #expect(response.bodyText == "POST /n/\(index) 3")
        }
        try connection.write(Array("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n".utf8))
        #expect(try connection.readResponse()?.bodyText == "POST /c 3")
        try connection.write(Array("GET /bye HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        let last = try connection.readResponse()
        #expect(last?.headers["Connection"] == "close")
        #expect(try connection.isClosedByPeer(waitSeconds: 2))
    }

    @Test("a handler that throws drops the connection without an answer")
    func drop() throws {
        let (server, port) = try makeEchoServer()
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: port)
        #expect(try connection.send(HTTPRequest(method: "GET", target: "/drop")) == nil)
    }

    @Test("slowloris: a half-sent request is answered 408 and closed after the request timeout")
    func slowloris() throws {
        let (server, port) = try makeEchoServer(HTTPServer.Configuration(requestTimeout: 0.5, idleTimeout: 5))
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: port, timeout: 5)
        let start = Date()
        try connection.write(Array("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc".utf8))
        // Keep trickling bytes of the header of nothing: the deadline counts from the first byte.
        let response = try connection.readResponse()
        #expect(response?.status == 408)
        #expect(Date().timeIntervalSince(start) < 3)
        #expect(try connection.isClosedByPeer(waitSeconds: 2))
        // An idle connection (no bytes at all) is closed after the idle timeout.
        let (idleServer, idlePort) = try makeEchoServer(HTTPServer.Configuration(requestTimeout: 5, idleTimeout: 0.3))
        defer { idleServer.stop() }
        let idle = try RawHTTPConnection(port: idlePort)
        #expect(try idle.isClosedByPeer(waitSeconds: 3))
    }

    @Test("beyond the connection limit a client is answered 503")
    func connectionLimit() throws {
        let (server, port) = try makeEchoServer(HTTPServer.Configuration(maxConnections: 2))
        defer { server.stop() }
        let first = try RawHTTPConnection(port: port), second = try RawHTTPConnection(port: port)
        #expect(try first.send(HTTPRequest(method: "GET", target: "/1"))?.status == 200)
        #expect(try second.send(HTTPRequest(method: "GET", target: "/2"))?.status == 200)
        let third = try RawHTTPConnection(port: port)
        #expect(try third.readResponse()?.status == 503)
        first.close()
        Thread.sleep(forTimeInterval: 0.2)
        let fourth = try RawHTTPConnection(port: port)
        #expect(try fourth.send(HTTPRequest(method: "GET", target: "/4"))?.status == 200)
    }

    @Test("stop closes the listener and every connection")
    func stop() throws {
        let (server, port) = try makeEchoServer()
        let connection = try RawHTTPConnection(port: port)
        #expect(try connection.send(HTTPRequest(method: "GET", target: "/"))?.status == 200)
        server.stop()
        #expect(try connection.isClosedByPeer(waitSeconds: 2))
        #expect(throws: HTTPSocketError.self) { try RawHTTPConnection(port: port) }
        #expect(server.openConnectionCount == 0)
    }

    /// Hostile inputs: random bytes, mutated valid requests, truncations, oversized parts.
    static func hostileInput(_ random: inout SplitMix64) -> [UInt8] {
        let valid = Array("POST /api/v1/announcements?a=1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}".utf8)
        let chunked = Array("POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n".utf8)
        switch random.next() % 7 {
        case 0:
            return (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        case 1, 2:
            var bytes = random.next() % 2 == 0 ? valid : chunked
            for _ in 0..<(1 + random.next() % 4) {
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.remove(at: position)
                case 2: bytes.insert([0x0D, 0x0A, 0x00, 0xFF, 0x20, 0x3A][Int(random.next() % 6)], at: position)
                default: bytes.insert(contentsOf: bytes[position...].prefix(10), at: position)
                }
            }
            return bytes
        case 3:
            return Array(valid.prefix(Int(random.next() % UInt64(valid.count))))
        case 4:
            return Array("GET /\(String(repeating: "a", count: 17_000)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        case 5:
            var bytes = Array("GET / HTTP/1.1\r\nHost: x\r\nX-Bad: ".utf8)
            bytes += (0..<8).map { _ in UInt8(0x80 + random.next() % 0x80) }
            return bytes + Array("\r\n\r\n".utf8)
        default:
            return Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \(random.next() % 100_000_000_000)\r\n\r\nshort".utf8)
        }
    }

    @Test("thousands of hostile inputs get a response or a closed connection, never a crash or a hang")
    func robustness() throws {
        let (server, port) = try makeEchoServer(HTTPServer.Configuration(
            limits: HTTPParserLimits(maxHeaderBytes: 16 * 1024, maxBodyBytes: 1024 * 1024), requestTimeout: 0.3, idleTimeout: 0.3))
        defer { server.stop() }
        var random = SplitMix64(state: 20_251_121)
        var statuses: [Int: Int] = [:]
        for round in 0..<3000 {
            let input = HTTPServerTests.hostileInput(&random)
            let connection = try RawHTTPConnection(port: port, timeout: 3)
            try? connection.write(input)
            // Most clients then end their stream; one in 40 stays silent so the timeout path runs too.
            if round % 40 != 0 { connection.finishWriting() }
            var answered: HTTPResponse? = nil
            do {
                answered = try connection.readResponse()
            } catch {
                Issue.record("no answer and no close within the timeout for \(String(decoding: input.prefix(80), as: UTF8.self).debugDescription): \(error)")
            }
            if let answered {
                statuses[answered.status, default: 0] += 1
                #expect(answered.status == 200 || (400..<600).contains(answered.status))
            } else {
                statuses[0, default: 0] += 1
            }
            connection.close()
        }
        #expect(statuses.keys.contains(400) && statuses.keys.contains(408))
        // Still healthy afterwards.
        let check = try RawHTTPConnection(port: port)
        #expect(try check.send(HTTPRequest(method: "GET", target: "/ok"))?.status == 200)
    }
}
