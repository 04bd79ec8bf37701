import PetSpotConcurrency
import Testing
@testable import PetSpotHTTP

@Suite("HTTPRequestParser")
struct HTTPRequestParserTests {
    private func parse(_ chunks: [String], limits: HTTPParserLimits = HTTPParserLimits()) -> [Result<HTTPRequest, HTTPParseError>] {
        parse(bytes: chunks.map { Array($0.utf8) }, limits: limits)
    }

    private func parse(bytes chunks: [[UInt8]], limits: HTTPParserLimits = HTTPParserLimits()) -> [Result<HTTPRequest, HTTPParseError>] {
        var parser = HTTPRequestParser(limits: limits)
        var results: [Result<HTTPRequest, HTTPParseError>] = []
        for chunk in chunks {
            parser.append(chunk)
            loop: while true {
                switch parser.nextRequest() {
                case .incomplete: break loop
                case .request(let request): results.append(.success(request))
                case .failure(let error):
                    results.append(.failure(error))
                    return results
                }
            }
        }
        return results
    }

    private func failure(_ text: String, limits: HTTPParserLimits = HTTPParserLimits()) -> HTTPParseError? {
        if case .failure(let error)? = parse([text], limits: limits).last { return error }
        return nil
    }

    @Test("a request split byte by byte, then pipelined requests")
    func incremental() throws {
        let text = "POST /api/v1/announcements?lat=1&x=a+b%21 HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nX-A:  v \r\n\r\nhello"
        let results = parse(text.map { String($0) })
        #expect(results.count == 1)
        let request = try #require(try? results.first?.get())
        #expect(request.method == "POST")
        #expect(request.path == "/api/v1/announcements")
        #expect(request.queryValues("x") == ["a b!"])
        #expect(request.headers["x-a"] == "v")
        #expect(request.body == Array("hello".utf8))
        let pipelined = parse(["GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\nGET /c HTTP/1.0\r\n\r\n"])
        #expect(pipelined.compactMap { try? $0.get().path } == ["/a", "/b", "/c"])
        #expect((try? pipelined[2].get().keepsConnectionAlive) == false)
        #expect((try? pipelined[0].get().keepsConnectionAlive) == true)
    }

    @Test("chunked bodies, with extensions and trailers, across reads")
    func chunked() throws {
        let text = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n"
        let results = parse(stride(from: 0, to: text.count, by: 3).map { start in
            String(Array(text)[start..<min(start + 3, text.count)])
        })
        #expect(results.count == 1)
        #expect((try? results[0].get().body) == Array("hello world".utf8))
    }

    @Test("malformed input is refused with the right status", arguments: [
        ("GET / HTTP/1.1\nHost: h\n\n", 400),
        ("GET /  HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("GET / HTTP/2.0\r\nHost: h\r\n\r\n", 505),
        ("GET / HTTX/1.1\r\nHost: h\r\n\r\n", 400),
        ("G@T / HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("GET nopath HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost h\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nBad Name: x\r\nHost: h\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1, 2\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 999999999\r\n\r\n", 413),
        ("GET / HTTP/1.1\r\nHost: h\r\nX: \u{01}\r\n\r\n", 400),
    ])
    func refused(text: String, status: Int) {
        #expect(failure(text)?.status == status, "\(text.debugDescription)")
    }

    @Test("invalid UTF-8 in a header value is a 400; oversized headers 431; oversized chunked body 413")
    func limits() {
        var bytes = Array("GET / HTTP/1.1\r\nHost: h\r\nX: ".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\r\n\r\n".utf8)
        if case .failure(let error)? = parse(bytes: [bytes]).last { #expect(error.status == 400) } else { Issue.record("accepted") }
        let small = HTTPParserLimits(maxHeaderBytes: 64, maxBodyBytes: 8)
        #expect(failure("GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "a", count: 100), limits: small)?.status == 431)
        #expect(failure("GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "a", count: 100) + "\r\n\r\n", limits: small)?.status == 431)
        #expect(failure("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n9\r\n123456789\r\n0\r\n\r\n", limits: small)?.status == 413)
        #expect(failure("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 9\r\n\r\n123456789", limits: small)?.status == 413)
    }

    @Test("a body over the hook's limit: the request comes at once, flagged and bodiless, and nothing after it is parsed")
    func bodyLimitHook() throws {
        let limit: @Sendable (HTTPRequest) -> Int? = { head in head.path == "/ten" ? 10 : nil }
        func requests(_ chunks: [String]) -> [Result<HTTPRequest, HTTPParseError>] {
            var parser = HTTPRequestParser(limits: HTTPParserLimits(), bodyLimit: limit)
            var results: [Result<HTTPRequest, HTTPParseError>] = []
            for chunk in chunks {
                parser.append(Array(chunk.utf8))
                loop: while true {
                    switch parser.nextRequest() {
                    case .incomplete: break loop
                    case .request(let request): results.append(.success(request))
                    case .failure(let error): results.append(.failure(error))
                    }
                }
            }
            return results
        }
        let next = "GET /next HTTP/1.1\r\nHost: h\r\n\r\n"
        // Announced over the limit: handed over from the head; the body and the pipelined request are ignored.
        let announced = requests(["POST /ten HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n", "12345678901" + next, next])
        #expect(announced.count == 1)
        let flagged = try #require(try? announced.first?.get())
        #expect(flagged.isBodyOverLimit && flagged.body.isEmpty && flagged.path == "/ten")
        // At the limit: read as usual, and the next request follows.
        let within = requests(["POST /ten HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n1234567890" + next])
        #expect(within.compactMap { try? $0.get() }.map { "\($0.path) \($0.body.count) \($0.isBodyOverLimit)" }
                == ["/ten 10 false", "/next 0 false"])
        // Chunked: flagged once the running count passes the limit, before the last chunk.
        let chunked = requests(["POST /ten HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n123456\r\n", "5\r\n"])
        #expect(chunked.count == 1 && (try? chunked[0].get().isBodyOverLimit) == true)
        // Bodies up to the minimum are read without asking the hook.
        let asked = Locked(0)
        var sparing = HTTPRequestParser(limits: HTTPParserLimits(), bodyLimit: { _ in asked.withLock { $0 += 1 }; return 10 },
                                        minimumBodyLimit: 10)
        sparing.append(Array("POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n1234567890".utf8))
        if case .request(let request) = sparing.nextRequest() { #expect(request.body.count == 10) } else { Issue.record("not read") }
        #expect(asked.withLock { $0 } == 0)
        sparing.append(Array("POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n".utf8))
        if case .request(let request) = sparing.nextRequest() { #expect(request.isBodyOverLimit) } else { Issue.record("not flagged") }
        #expect(asked.withLock { $0 } == 1)
        // No limit from the hook: the parser's own limit answers 413, as before.
        let other = requests(["POST /other HTTP/1.1\r\nHost: h\r\nContent-Length: 999999999\r\n\r\n"])
        if case .failure(let error)? = other.last { #expect(error.status == 413) } else { Issue.record("not refused: \(other)") }
    }
}
