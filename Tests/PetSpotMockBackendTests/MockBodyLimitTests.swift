import Foundation
import PetSpotContractKit
import PetSpotHTTP
import PetSpotJSON
import PetSpotTestSupport
import Testing
@testable import PetSpotMockBackend

/// Bodies over the route's limit, over HTTP: never held, and answered exactly as the mock answers
/// the whole body in process (strict: from the header section alone; production: once the body
/// reached the limit).
@Suite("The mock over HTTP: bodies over the route's limit are answered unread", .serialized, .onOwnThreads)
struct MockBodyLimitTests {
    /// A request announcing `length` body bytes: its head as sent over HTTP, and the whole
    /// request for the in-process answer.
    private struct Oversized {
        var name: String
        var method = "POST"
        var target = "/api/v1/announcements"
        var headers: [(String, String)]
        var length: Int

        func head() -> [UInt8] {
            var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            for (name, value) in headers { text += "\(name): \(value)\r\n" }
            return Array((text + "Content-Length: \(length)\r\n\r\n").utf8)
        }

        func whole() -> HTTPRequest {
            var fields = HTTPHeaders()
            for (name, value) in headers { fields.add(name, value) }
            fields.add("Content-Length", String(length))
            return HTTPRequest(method: method, target: target, headers: fields, body: [UInt8](repeating: 0x20, count: length))
        }
    }

    /// Status, error code and message of an answer (the request id differs between answers).
    private func summary(_ response: HTTPResponse) -> String {
        let error = json(response)["error"]
        return "\(response.status) \(error?["code"]?.stringValue ?? "-") \(error?["message"]?.stringValue ?? "-")"
    }

    @Test("answered as the whole body would be (strict: from the head), and the connection closed", arguments: BackendProfile.allCases)
    func answeredUnread(profile: BackendProfile) throws {
        let server = MockHTTPServer(options: MockServerOptions(profile: profile), clock: { fixedNow })
        let port = try server.start()
        defer { server.stop() }
        let (id, password) = createAnnouncement(server.backend)
        let multipartType = "multipart/form-data; boundary=XyZboundary42"
        let overJSON = RequestBodyReader.maxJSONBodyBytes + 1
        let overMultipart = RequestBodyReader.maxMultipartBodyBytes + 1
        let cases = [
            Oversized(name: "JSON create", headers: [("Content-Type", "application/json")], length: overJSON),
            Oversized(name: "JSON create, 2 MB", headers: [("Content-Type", "application/json; charset=utf-8")], length: 2_000_000),
            Oversized(name: "text create (the route reads no body)", headers: [("Content-Type", "text/plain")], length: overJSON),
            Oversized(name: "JSON in latin1 (refused before reading)", headers: [("Content-Type", "application/json; charset=latin1")],
                      length: overJSON),
            Oversized(name: "JSON in br (refused before reading)", headers: [("Content-Type", "application/json"), ("Content-Encoding", "br")],
                      length: overJSON),
            Oversized(name: "JSON on the health route", method: "GET", target: "/api/health", headers: [("Content-Type", "application/json")],
                      length: overJSON),
            Oversized(name: "photo without credentials", target: "/api/v1/announcements/\(id)/photos",
                      headers: [("Content-Type", multipartType)], length: overMultipart),
            Oversized(name: "photo with credentials", target: "/api/v1/announcements/\(id)/photos",
                      headers: [("Content-Type", multipartType), ("Authorization", basicAuthorization(user: id, password: password))],
                      length: overMultipart),
        ]
        for oversized in cases {
            let expected = summary(server.backend.answer(oversized.whole()))
            let connection = try RawHTTPConnection(port: port, timeout: 10)
            try connection.write(oversized.head())
            // Production reads the body up to the limit (dropping it) before it answers.
            if profile == .production { try connection.write([UInt8](repeating: 0x20, count: oversized.length)) }
            // Without the limit the server would wait for the whole body (30 s request timeout).
            let response = try #require(try connection.readResponse(), "\(oversized.name): no answer")
            #expect(summary(response) == expected, "\(oversized.name)")
            #expect(try connection.isClosedByPeer(waitSeconds: 5), "\(oversized.name): still open")
        }
        // The create's answer is the 413 of the contract.
        let message = profile == .production ? "Request payload exceeds maximum size limit (100KB)" : "Request body larger than 100 KB (102,400 bytes)"
        #expect(summary(server.backend.answer(cases[0].whole())) == "413 PAYLOAD_TOO_LARGE \(message)")
        #expect(server.backend.storedAnnouncementCount == 1)
    }

    @Test("with the create-body-limit-500 defect the unread body answers 500, as the whole one does")
    func plantedDefect() throws {
        let server = MockHTTPServer(options: {
            var options = MockServerOptions(profile: .production)
            options.defects = [.createBodyLimit500]
            return options
        }(), clock: { fixedNow })
        let port = try server.start()
        defer { server.stop() }
        let oversized = Oversized(name: "JSON create", headers: [("Content-Type", "application/json")], length: 200_000)
        let connection = try RawHTTPConnection(port: port, timeout: 10)
        try connection.write(oversized.head() + [UInt8](repeating: 0x20, count: oversized.length))
        let response = try #require(try connection.readResponse())
        #expect(response.status == 500)
        #expect(summary(response) == summary(server.backend.answer(oversized.whole())))
    }

    @Test("the limit judged from the head: 100 KB, the multipart limit for multipart, none for a gzip or deflate body")
    func limitFromHead() {
        let backend = makeBackend()
        func limit(_ headers: [(String, String)]) -> Int? {
            var fields = HTTPHeaders()
            for (name, value) in headers { fields.add(name, value) }
            return backend.maxBodyBytes(forHead: HTTPRequest(method: "POST", target: "/api/v1/announcements", headers: fields))
        }
        #expect(limit([("Content-Type", "application/json")]) == 102_400)
        #expect(limit([]) == 102_400)
        #expect(limit([("Content-Type", "multipart/form-data; boundary=b")]) == RequestBodyReader.maxMultipartBodyBytes)
        #expect(limit([("Content-Type", "multipart/form-data")]) == 102_400)
        #expect(limit([("Content-Type", "application/json"), ("Content-Encoding", "gzip")]) == nil)
        #expect(limit([("Content-Type", "application/json"), ("Content-Encoding", " Deflate ")]) == nil)
        #expect(limit([("Content-Type", "application/json"), ("Content-Encoding", "identity")]) == 102_400)
        #expect(limit([("Content-Type", "application/json"), ("Content-Encoding", "br")]) == 102_400)
        let gzipIgnored = MockBackend(defects: [.routingGzipIgnored])
        var fields = HTTPHeaders()
        fields.add("Content-Encoding", "gzip")
        #expect(gzipIgnored.maxBodyBytes(forHead: HTTPRequest(method: "POST", target: "/", headers: fields)) == 102_400)
    }
}
