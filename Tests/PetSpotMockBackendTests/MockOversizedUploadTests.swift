#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpotHTTP
import PetSpotContractKit
import PetSpotJSON
import PetSpotTestSupport
import Testing
@testable import PetSpotMockBackend

/// A photo upload of 21 MiB sent by a client that writes its whole body before it reads, as the
/// backend's own test does with supertest: answered 413 as production answers it, never reset.
@Suite("The mock over HTTP: an oversized upload is answered, not reset", .serialized, .onOwnThreads)
struct MockOversizedUploadTests {
    /// 21 MiB of file: over the photo limit (20 MiB) and, with the multipart framing, over what
    /// the route reads.
    static let fileBytes = 21 * 1024 * 1024
    static let productionMessage = "Request payload exceeds maximum size limit (100KB)"

    /// Writes `body` in 256 KiB pieces without reading, then reads the answer.
    private func upload(port: Int, head: String, body: [UInt8], framing: (ArraySlice<UInt8>) -> [UInt8] = { Array($0) },
                        ending: [UInt8] = []) throws -> (response: HTTPResponse?, closed: Bool) {
        let connection = try RawHTTPConnection(port: port, timeout: 60)
        defer { connection.close() }
        try connection.write(Array(head.utf8))
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + 256 * 1024)
            try connection.write(framing(body[offset..<end]))
            offset = end
        }
        try connection.write(ending)
        let response = try connection.readResponse()
        return (response, try connection.isClosedByPeer(waitSeconds: 10))
    }

    @Test("a 21 MiB upload with Content-Length, and a chunked one, get the whole 413 answer", arguments: BackendProfile.allCases)
    func oversizedUploadIsAnswered(profile: BackendProfile) throws {
        let server = MockHTTPServer(options: MockServerOptions(profile: profile), clock: { fixedNow })
        let port = try server.start()
        defer { server.stop() }
        let (id, password) = createAnnouncement(server.backend)
        let (body, contentType) = multipartBody(content: tinyJPEG + [UInt8](repeating: 0x37, count: Self.fileBytes - tinyJPEG.count))
        let head = "POST /api/v1/announcements/\(id)/photos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(contentType)\r\n"
            + "Authorization: \(basicAuthorization(user: id, password: password))\r\n"
        let expected = profile == .production ? "413 PAYLOAD_TOO_LARGE \(Self.productionMessage)" : summary(server.backend.answer(
            HTTPRequest(method: "POST", target: "/api/v1/announcements/\(id)/photos",
                        headers: ["Content-Type": contentType, "Authorization": basicAuthorization(user: id, password: password)], body: body)))
        #expect(expected.hasPrefix("413 PAYLOAD_TOO_LARGE "))

        let announced = try upload(port: port, head: head + "Content-Length: \(body.count)\r\n\r\n", body: body)
        #expect(announced.response.map(summary) == expected, "Content-Length: \(announced.response.map(summary) ?? "no answer")")
        #expect(announced.closed)

        let chunked = try upload(port: port, head: head + "Transfer-Encoding: chunked\r\n\r\n", body: body,
                                 framing: { Array(String($0.count, radix: 16).utf8) + [0x0D, 0x0A] + $0 + [0x0D, 0x0A] },
                                 ending: Array("0\r\n\r\n".utf8))
        #expect(chunked.response.map(summary) == expected, "chunked: \(chunked.response.map(summary) ?? "no answer")")
        #expect(chunked.closed)
        #expect(server.backend.storedPhoto(id: id) == nil)
    }

    @Test("production answers a body over the route's limit only once the limit has arrived")
    func productionReadsToTheLimit() throws {
        let server = MockHTTPServer(options: MockServerOptions(profile: .production), clock: { fixedNow })
        let port = try server.start()
        defer { server.stop() }
        // 100 KB of JSON, as Express counts: 102,400 bytes.
        let limit = 102_400
        let connection = try RawHTTPConnection(port: port, timeout: 30)
        defer { connection.close() }
        try connection.write(Array("POST /api/v1/announcements HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500000\r\n\r\n".utf8))
        try connection.write([UInt8](repeating: 0x20, count: limit - 1))
        // One byte short of the limit: no answer yet (a server answering early would within moments).
        #expect(!Socket.wait(connection.descriptor, events: Int16(POLLIN), timeoutMilliseconds: 500))
        try connection.write([0x20])
        let response = try #require(try connection.readResponse())
        #expect(summary(response) == "413 PAYLOAD_TOO_LARGE \(Self.productionMessage)")
    }

    private func summary(_ response: HTTPResponse) -> String {
        let error = json(response)["error"]
        return "\(response.status) \(error?["code"]?.stringValue ?? "-") \(error?["message"]?.stringValue ?? "-")"
    }
}
