#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@testable import PetSpotHTTP
import PetSpotTestSupport
import Testing

/// How the client side (``HTTPClientConnection``, which `run`'s wire client and the tests'
/// ``RawHTTPConnection`` share) reads answers a server may send: past interim answers to the
/// final one (RFC 9110, section 15.2), stopping at `101 Switching Protocols`, after which the
/// connection no longer speaks HTTP; chunk sizes as RFC 9112 spells them, and nothing else.
@Suite("the client reading answers", .onOwnThreads)
struct ClientReadingTests {
    /// A one-connection server on 127.0.0.1 that answers `bytes`, as they are, once the request's
    /// head has arrived, then closes; its port.
    static func cannedServer(answering bytes: String) throws -> Int {
        let (listener, port) = try Socket.listen(host: "127.0.0.1", port: 0, backlog: 4)
        let thread = Thread {
            defer { Socket.closeDescriptor(listener) }
            guard Socket.wait(listener, events: Int16(POLLIN), timeoutMilliseconds: 60_000) else { return }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            defer { Socket.closeDescriptor(client) }
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
                guard Socket.wait(client, events: Int16(POLLIN), timeoutMilliseconds: 60_000) else { return }
                let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return }
                received += chunk[0..<count]
            }
            try? Socket.writeAll(client, Array(bytes.utf8), timeoutMilliseconds: 60_000)
        }
        thread.start()
        return port
    }

    @Test("100 Continue and 103 Early Hints are read past: the answer is the final 200 with its body")
    func interimAnswersAreSkipped() throws {
        let port = try Self.cannedServer(
            answering: "HTTP/1.1 100 Continue\r\n\r\n"
                + "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        let connection = try RawHTTPConnection(port: port, timeout: 60)
        defer { connection.close() }
        let response = try #require(try connection.send(HTTPRequest(method: "GET", target: "/health")))
        #expect(response.status == 200)
        #expect(response.bodyText == "ok")
    }

    @Test("101 Switching Protocols is the final answer: nothing after it is read as HTTP")
    func switchingProtocolsIsFinal() throws {
        let port = try Self.cannedServer(
            answering: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\u{81}\u{02}hi")
        let connection = try RawHTTPConnection(port: port, timeout: 60)
        defer { connection.close() }
        let response = try #require(try connection.send(HTTPRequest(method: "GET", target: "/health")))
        #expect(response.status == 101)
    }

    @Test("a chunk size must be hex digits only: a sign (+2, -0) is a malformed answer", arguments: ["+2\r\nok\r\n0", "2\r\nok\r\n-0"])
    func signedChunkSizeIsRefused(_ chunks: String) throws {
        let port = try Self.cannedServer(answering: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(chunks)\r\n\r\n")
        let connection = try RawHTTPConnection(port: port, timeout: 60)
        defer { connection.close() }
        #expect(throws: HTTPSocketError.self) { try connection.send(HTTPRequest(method: "GET", target: "/health")) }
    }

    @Test("chunk sizes in either case, with an extension, are read")
    func chunkSizesAreRead() throws {
        let port = try Self.cannedServer(
            answering: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "a;name=value\r\n0123456789\r\nB\r\nabcdefghijk\r\n0\r\n\r\n")
        let connection = try RawHTTPConnection(port: port, timeout: 60)
        defer { connection.close() }
        let response = try #require(try connection.send(HTTPRequest(method: "GET", target: "/health")))
        #expect(response.bodyText == "0123456789abcdefghijk")
    }
}
