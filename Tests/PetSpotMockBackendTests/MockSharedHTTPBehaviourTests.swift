import Foundation
import PetSpotContractKit
import PetSpotHTTP
import PetSpotJSON
import PetSpotTestSupport
import Testing
@testable import PetSpotMockBackend

/// backend-contract.md, "HTTP behaviour every route shares": CORS, HEAD, gzip/deflate bodies,
/// charsets and malformed percent-encoding, in both profiles.
@Suite("HTTP behaviour every route shares", .onOwnThreads)
struct MockSharedHTTPBehaviourTests {
    @Test("every answer carries Access-Control-Allow-Origin: *", arguments: BackendProfile.allCases)
    func corsOnEveryAnswer(profile: BackendProfile) throws {
        let backend = MockBackend(profile: profile, faults: try FaultPlan(parsing: "503:0.5,seed=3"), clock: { fixedNow })
        let (id, password) = createAnnouncement(backend)
        _ = upload(backend, id: id, password: password, parts: [TestPart(name: "photo", filename: "a.png", content: tinyPNG)])
        let requests = [
            request("GET", "/api/health"), createRequest(createBody()), createRequest(createBody([("status", "CLOSED")])),
            request("GET", "/nope"), request("GET", "/api/v1/announcements/%E0%A4%A"), request("GET", "/images/\(id).png"),
            request("GET", "/api/v1/announcements?lat=1"), request("OPTIONS", "/api/v1/announcements"),
            request("DELETE", "/api/admin/v1/announcements/\(id)", headers: [("Authorization", MockBackend.defaultAdminToken)]),
        ]
        var statuses: Set<Int> = []
        for item in requests {
            for _ in 0..<4 {
                guard let response = try? backend.handle(item) else { continue }
                statuses.insert(response.status)
                #expect(response.headers["Access-Control-Allow-Origin"] == "*", "\(item.method) \(item.target): \(response.status)")
            }
        }
        #expect(statuses.isSuperset(of: [200, 201, 204, 400, 404, 500, 503]), "\(statuses.sorted())")
    }

    @Test("OPTIONS is a CORS preflight on any path: 204 with the allowed methods", arguments: BackendProfile.allCases)
    func preflight(profile: BackendProfile) {
        let backend = makeBackend(profile)
        for path in ["/api/v1/announcements", "/api/v1/announcements/x/photos", "/api/admin/v1/announcements/x", "/nope"] {
            let response = backend.answer(request("OPTIONS", path, headers: [
                ("Origin", "https://app.example"), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type,authorization"),
            ]))
            #expect(response.status == 204 && response.body.isEmpty, "\(path)")
            #expect(response.headers["Access-Control-Allow-Origin"] == "*")
            let methods = Set((response.headers["Access-Control-Allow-Methods"] ?? "").split(separator: ",").map(String.init))
            #expect(methods.isSuperset(of: ["GET", "HEAD", "POST", "DELETE"]), "\(methods)")
            #expect(response.headers["Access-Control-Allow-Headers"] == "content-type,authorization")
        }
        #expect(backend.storedAnnouncementCount == 0)
    }

    @Test("HEAD is answered by the GET route: same status and headers, no body, GET's length", arguments: BackendProfile.allCases)
    func head(profile: BackendProfile) {
        let backend = makeBackend(profile)
        let (id, password) = createAnnouncement(backend)
        _ = upload(backend, id: id, password: password, parts: [TestPart(name: "photo", filename: "a.png", content: tinyPNG)])
        for target in ["/api/v1/announcements", "/api/v1/announcements/\(id)", "/images/\(id).png", "/api/v1/announcements?lat=1",
                       "/nope", "/api/v1/announcements/\(UUID().uuidString.lowercased())"] {
            let get = backend.answer(request("GET", target))
            let head = backend.answer(request("HEAD", target))
            #expect(head.status == get.status, "\(target)")
            #expect(head.body.isEmpty, "\(target)")
            #expect(head.announcedBodyLength == get.body.count, "\(target)")
            #expect(head.headers == get.headers, "\(target): the same headers")
            #expect(head.headers["Content-Length"] == String(get.body.count), "\(target)")
            #expect(head.headers["Access-Control-Allow-Origin"] == "*")
            let wire = head.serialized()
            #expect(String(decoding: wire, as: UTF8.self).contains("Content-Length: \(get.body.count)\r\n"), "\(target)")
            #expect(wire.suffix(4) == Array("\r\n\r\n".utf8), "no body bytes after the head")
        }
        // HEAD never changes anything (a HEAD to the create route is a GET: the list).
        #expect(backend.answer(request("HEAD", "/api/v1/announcements", headers: [("Content-Type", "application/json")])).status == 200)
        #expect(backend.storedAnnouncementCount == 1)
    }

    @Test("HEAD over HTTP: Content-Length of the GET body, and no body bytes on the wire")
    func headOverHTTP() throws {
        let server = MockHTTPServer(options: MockServerOptions(profile: .production), clock: { fixedNow })
        let port = try server.start()
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: port)
        let get = try #require(try connection.send(request("GET", "/api/health")))
        // A pipelined HEAD then GET: if the HEAD answer carried body bytes, they would come
        // before the GET's status line.
        try connection.write(RawHTTPConnection.serialize(request("HEAD", "/api/health"), host: "127.0.0.1")
            + RawHTTPConnection.serialize(request("GET", "/api/health"), host: "127.0.0.1"))
        let head = try #require(try connection.readResponse())
        #expect(head.status == 200)
        #expect(head.headers["Content-Length"] == String(get.body.count))
        #expect(head.headers["Access-Control-Allow-Origin"] == "*")
        // The reader took Content-Length bytes as the HEAD's body: they are the GET's status line.
        #expect(head.bodyText.hasPrefix("HTTP/1.1 200 OK"))
    }

    @Test("gzip and deflate bodies are inflated before parsing", arguments: BackendProfile.allCases)
    func compressedBodies(profile: BackendProfile) throws {
        let backend = makeBackend(profile)
        func fresh() -> [UInt8] { JSONValue.object(createBody()).serializedBytes() }
        let plain = fresh()
        for (coding, body) in [("gzip", storedGzip(fresh())), ("deflate", storedZlib(fresh())), ("GZIP", storedGzip(fresh()))] {
            let response = backend.answer(framedCreateRequest(body, extraHeaders: [("Content-Encoding", coding)]))
            #expect(response.status == 201, "\(coding): \(response.bodyText)")
        }
        // Made by python3 (fixtures): a create body compressed for real.
        for name in ["gzip-json-level6", "zlib-json-level9"] {
            let fixture = try #require(InflaterTests.fixtures.first { $0.name == name })
            let coding = fixture.coding
            let response = backend.answer(framedCreateRequest(fixture.compressed, extraHeaders: [("Content-Encoding", coding)]))
            #expect(response.status == 201, "\(name): \(response.bodyText)")
            #expect(json(response)["species"] == "DOG")
        }
        // More than 100 KB once inflated (1 KiB of gzip, 1 MiB of zeros): 413.
        let bomb = try #require(InflaterTests.fixtures.first { $0.name == "gzip-zeros-1mib" })
        expectError(backend.answer(framedCreateRequest(bomb.compressed, extraHeaders: [("Content-Encoding", "gzip")])), 413,
                    "PAYLOAD_TOO_LARGE", field: nil)
        // Corrupt data, a coding that is not offered, a raw stream sent as deflate.
        var corrupt = storedGzip(plain)
        corrupt[corrupt.count - 5] ^= 0xFF
        for (coding, body) in [("gzip", corrupt), ("br", plain), ("deflate", storedDeflate(plain)), ("gzip", plain), ("gzip, identity", storedGzip(plain))] {
            let response = backend.answer(framedCreateRequest(body, extraHeaders: [("Content-Encoding", coding)]))
            if profile == .production {
                expectError(response, 500, "INTERNAL_SERVER_ERROR", field: nil)
                #expect(message(response) == "Internal server error")
            } else {
                expectError(response, 400, "INVALID_FORMAT", field: nil)
                #expect(message(response)?.contains(coding.hasPrefix("gzip,") || coding == "br" ? "Content-Encoding" : "decompressed") == true,
                        "\(message(response) ?? "")")
            }
        }
        #expect(backend.storedAnnouncementCount == 5)
    }

    @Test("a gzip multipart photo upload is inflated too", arguments: BackendProfile.allCases)
    func compressedUpload(profile: BackendProfile) {
        let backend = makeBackend(profile)
        let (id, password) = createAnnouncement(backend)
        let (body, contentType) = multipart([TestPart(name: "photo", filename: "a.jpg", contentType: "image/jpeg", content: tinyJPEG)])
        let response = backend.answer(request("POST", "/api/v1/announcements/\(id)/photos", headers: [
            ("Content-Type", contentType), ("Content-Encoding", "gzip"), ("Authorization", basicAuthorization(user: id, password: password)),
        ], body: storedGzip(body)))
        #expect(response.status == 201, "\(response.bodyText)")
        #expect(backend.storedPhoto(id: id)?.bytes == tinyJPEG)
    }

    @Test("a JSON charset that does not start with utf- answers 500; UTF-16 and UTF-32 bodies decode", arguments: BackendProfile.allCases)
    func charsets(profile: BackendProfile) {
        let backend = makeBackend(profile)
        let plain = JSONValue.object(createBody()).serializedBytes()
        for charset in ["latin1", "utf8", "iso-8859-1", "\"us-ascii\"", "utf-7", "utf-fake"] {
            let response = backend.answer(framedCreateRequest(plain, contentType: "application/json; charset=\(charset)"))
            expectError(response, 500, "INTERNAL_SERVER_ERROR", field: nil)
            if profile == .production { #expect(message(response) == "Internal server error") }
        }
        func text() -> String { String(decoding: JSONValue.object(createBody([("petName", "Łatka 🐶")])).serializedBytes(), as: UTF8.self) }
        func utf16(_ text: String, bigEndian: Bool, mark: Bool) -> [UInt8] {
            let units: [UInt16] = (mark ? [0xFEFF] : []) + Array(text.utf16)
            return units.flatMap { unit in bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        }
        var utf32LE: [UInt8] = []
        for scalar in text().unicodeScalars {
            for shift in [0, 8, 16, 24] as [UInt32] { utf32LE.append(UInt8(truncatingIfNeeded: scalar.value >> shift)) }
        }
        let bodies: [(String, [UInt8])] = [
            ("UTF-8", plain), ("utf-16le", utf16(text(), bigEndian: false, mark: false)), ("utf-16", utf16(text(), bigEndian: true, mark: true)),
            ("utf-16", utf16(text(), bigEndian: false, mark: false)), ("utf-16be", utf16(text(), bigEndian: true, mark: false)),
            ("utf-32le", utf32LE),
        ]
        for (charset, body) in bodies {
            let response = backend.answer(framedCreateRequest(body, contentType: "application/json; charset=\(charset)"))
            #expect(response.status == 201, "\(charset): \(response.bodyText)")
            if charset != "UTF-8" { #expect(json(response)["petName"] == "Łatka 🐶", "\(charset)") }
        }
        // Only a JSON body is read for its charset: no body, or another type, is not.
        #expect(backend.answer(request("GET", "/api/v1/announcements", headers: [("Content-Type", "application/json; charset=latin1")])).status == 200)
        expectError(backend.answer(framedCreateRequest(plain, contentType: "text/plain; charset=latin1")), 400, "MISSING_VALUE", field: nil)
    }

    @Test("an :id that is not valid percent-encoding answers 500, whatever the route or method", arguments: BackendProfile.allCases)
    func malformedPercentEncoding(profile: BackendProfile) {
        let backend = makeBackend(profile)
        for id in ["%E0%A4%A", "%FF", "%", "abc%2", "%ED%A0%80", "%C0%AF"] {
            for (method, target) in [("GET", "/api/v1/announcements/\(id)"), ("DELETE", "/api/admin/v1/announcements/\(id)"),
                                     ("DELETE", "/api/v1/announcements/\(id)"), ("POST", "/api/v1/announcements/\(id)/photos"),
                                     ("PUT", "/api/v1/announcements/\(id)"), ("HEAD", "/api/v1/announcements/\(id)")] {
                let response = backend.answer(request(method, target))
                #expect(response.status == 500, "\(method) \(target)")
                if method != "HEAD" { expectError(response, 500, "INTERNAL_SERVER_ERROR", field: nil) }
            }
        }
        // Valid escapes decode (and miss); a bad escape in an /images file name only misses the file.
        for target in ["/api/v1/announcements/%41%42", "/api/v1/announcements/%E2%82%AC", "/images/%E0%A4%A.png", "/images/%FF"] {
            expectError(backend.answer(request("GET", target)), 404, "NOT_FOUND", field: nil)
        }
    }

    @Test("unknown routes and methods: the JSON 404 envelope, 'Resource not found'", arguments: BackendProfile.allCases)
    func unknownRoutes(profile: BackendProfile) {
        let backend = makeBackend(profile)
        for (method, target) in [("GET", "/"), ("PATCH", "/api/v1/announcements"), ("GET", "/api/v1/announcements/x/photos"),
                                 ("POST", "/images/x.png"), ("GET", "/images"), ("GET", "/images/"), ("TRACE", "/api/health")] {
            let response = backend.answer(request(method, target))
            expectError(response, 404, "NOT_FOUND", field: nil)
            #expect(message(response) == "Resource not found", "\(method) \(target)")
        }
    }
}
