#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PetSpotTestSupport
import Testing
@testable import PetSpotHTTP

/// Answers made of parts are written whole and in order; a body over its limit read up to the
/// limit is dropped as it arrives, never held.
@Suite("HTTPServer: body parts, and bodies read to their limit", .serialized, .onOwnThreads)
struct BodyPartsAndDiscardTests {
    @Test("an answer of many small and some large parts arrives byte for byte, through a small unsent limit")
    func partsArriveInOrder() throws {
        var parts: [[UInt8]] = []
        for index in 0..<5000 { parts.append(Array("\(index),".utf8)) }
        parts.insert([UInt8](repeating: 0x61, count: 300_000), at: 1234)
        parts.append([UInt8](repeating: 0x62, count: 70_000))
        parts.append([])
        let expected = Array(parts.joined())
        let answer = HTTPResponse(status: 200, bodyParts: parts)
        #expect(answer.bodyLength == expected.count && answer.body == expected)
        let server = HTTPServer(configuration: HTTPServer.Configuration(maxUnsentBytes: 4096)) { _ in answer }
        let port = try server.start()
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: port, timeout: 30)
        for _ in 0..<3 {
            let body = try #require(try connection.send(HTTPRequest(method: "GET", target: "/"))).body
            let isWhole = body == expected
            #expect(isWhole, "\(body.count) bytes, not the \(expected.count) of the parts joined")
        }
    }

    @Test("with readsBodyOverLimitToLimit the flagged request comes once the limit's bytes arrived, in any pieces")
    func parserDropsToTheLimit() throws {
        var parser = HTTPRequestParser(limits: HTTPParserLimits(), bodyLimit: { _ in 1000 }, readsBodyOverLimitToLimit: true)
        parser.append(Array("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n".utf8) + [UInt8](repeating: 0x61, count: 400))
        var pieces = 0
        var outcome = parser.nextRequest()
        while case .incomplete = outcome {
            #expect(parser.isReceivingBody && parser.hasPartialRequest)
            parser.append([UInt8](repeating: 0x61, count: 99))
            pieces += 1
            outcome = parser.nextRequest()
        }
        // 400 + 7 * 99 = 1093 >= 1000: the seventh piece reached the limit.
        #expect(pieces == 7)
        guard case .request(let flagged) = outcome else { return #expect(Bool(false), "\(outcome)") }
        #expect(flagged.isBodyOverLimit && flagged.body.isEmpty)
        parser.append(Array("GET /next HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        guard case .incomplete = parser.nextRequest() else { return #expect(Bool(false), "the parser read on after a body it left unread") }

        // Asking for 100 Continue, the client sends nothing more: answered at once.
        var waiting = HTTPRequestParser(limits: HTTPParserLimits(), bodyLimit: { _ in 1000 }, readsBodyOverLimitToLimit: true)
        waiting.append(Array("POST /p HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n".utf8))
        guard case .request(let request) = waiting.nextRequest() else { return #expect(Bool(false), "not answered at once") }
        #expect(request.isBodyOverLimit && request.body.isEmpty)
    }
}
