import Foundation
import PetSpotHTTP
import PetSpotJSON
import Testing
@testable import PetSpotMockBackend
import PetSpotContractKit

@Suite("Photo upload, list, details, delete, health, unknown routes")
struct MockBackendRoutesTests {
    @Test("photo upload checks run in the documented order", arguments: BackendProfile.allCases)
    func photoChecksInOrder(profile: BackendProfile) {
        let backend = makeBackend(profile)
        let (id, password) = createAnnouncement(backend)
        let good = basicAuthorization(user: id, password: password)
        let wrong = basicAuthorization(user: id, password: password == "111111" ? "222222" : "111111")
        let unknownID = UUID().uuidString.lowercased()
        // 1. 401 beats everything else (even an unknown id and no file).
        for header in [nil, "Bearer abc", "Basic !!!", "Basic " + Data("nocolon".utf8).base64EncodedString(),
                       basicAuthorization(user: "", password: password), basicAuthorization(user: id, password: "")] {
            expectError(backend.answer(photoRequest(id: unknownID, authorization: header, content: [])), 401,
                        "UNAUTHENTICATED", field: nil)
        }
        // 2. 404 before the password check and the file checks.
        expectError(backend.answer(photoRequest(id: unknownID, authorization: wrong, content: [])), 404, "NOT_FOUND", field: nil)
        expectError(backend.answer(photoRequest(id: "not-a-uuid", authorization: good, content: tinyPNG)), 404, "NOT_FOUND", field: nil)
        // 3. 403 before the file checks.
        expectError(backend.answer(photoRequest(id: id, authorization: wrong, content: [])), 403, "UNAUTHORIZED", field: nil)
        // 4. no photo part (a non-file field, not multipart at all); a file under another name is
        // production's unmapped upload-library error (500), a clear 400 in strict.
        if profile == .production {
            expectError(backend.answer(photoRequest(id: id, authorization: good, content: tinyPNG, name: "image")), 500,
                        "INTERNAL_SERVER_ERROR", field: nil)
        } else {
            expectError(backend.answer(photoRequest(id: id, authorization: good, content: tinyPNG, name: "image")), 400,
                        "MISSING_FILE", field: "photo")
        }
        var fieldOnly = photoRequest(id: id, authorization: good, content: tinyPNG)
        fieldOnly.body = multipartBody(filename: nil, content: tinyPNG).body
        expectError(backend.answer(fieldOnly), 400, "MISSING_FILE", field: "photo")
        var notMultipart = photoRequest(id: id, authorization: good, content: tinyPNG)
        notMultipart.headers.set("Content-Type", "image/png")
        notMultipart.body = tinyPNG
        expectError(backend.answer(notMultipart), 400, "MISSING_FILE", field: "photo")
        // 5. size: 20 MiB is refused, one byte less accepted; size is checked before the format.
        let limit = 20 * 1024 * 1024
        expectError(backend.answer(photoRequest(id: id, authorization: good, content: [UInt8](repeating: 0, count: limit))),
                    413, "PAYLOAD_TOO_LARGE", field: nil)
        let largest = tinyJPEG + [UInt8](repeating: 0, count: limit - 1 - tinyJPEG.count)
        #expect(backend.answer(photoRequest(id: id, authorization: good, content: largest)).status == 201)
        // 6. magic bytes, whatever the declared type.
        expectError(backend.answer(photoRequest(id: id, authorization: good, content: Array("GIF8 not an image".utf8))), 400,
                    "INVALID_FILE_FORMAT", field: "file")
        expectError(backend.answer(photoRequest(id: id, authorization: good, content: [])), 400,
                    "INVALID_FILE_FORMAT", field: "file")
    }

    @Test("a photo upload answers 201 {} and sets photoUrl; a second replaces the first")
    func photoSuccess() throws {
        let backend = makeBackend()
        let (id, password) = createAnnouncement(backend)
        let response = backend.answer(photoRequest(id: id, authorization: basicAuthorization(user: id, password: password),
                                                   content: tinyJPEG))
        #expect(response.status == 201)
        #expect(json(response) == .object(JSONObject()))
        #expect(backend.storedAnnouncement(id: id)?["photoUrl"] == .string("/images/\(id).jpeg"))
        // The user part is not compared.
        let second = backend.answer(photoRequest(id: id, authorization: basicAuthorization(user: "anyone", password: password),
                                                 content: tinyPNG))
        #expect(second.status == 201)
        #expect(backend.storedAnnouncement(id: id)?["photoUrl"] == .string("/images/\(id).png"))
        #expect(backend.storedPhoto(id: id)?.bytes == tinyPNG)
    }

    @Test("magic bytes of every accepted format")
    func magicBytes() {
        let samples: [(ImageFormat, [UInt8])] = [
            (.jpeg, [0xFF, 0xD8, 0xFF, 0xDB]),
            (.png, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            (.gif, Array("GIF89a".utf8)), (.gif, Array("GIF87a".utf8)),
            (.webp, Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBPVP8 ".utf8)),
            (.bmp, Array("BM".utf8) + [0, 0, 0, 0]),
            (.tiff, [0x49, 0x49, 0x2A, 0x00]), (.tiff, [0x4D, 0x4D, 0x00, 0x2A]),
            (.heic, [0, 0, 0, 0x18] + Array("ftypheic".utf8)), (.heif, [0, 0, 0, 0x18] + Array("ftypmif1".utf8)),
        ]
        for (format, bytes) in samples { #expect(ImageFormat.detect(bytes[...]) == format, "\(format)") }
        for bytes: [UInt8] in [[], [0xFF, 0xD8], Array("RIFF1234WAVE".utf8), [0, 0, 0, 0x18] + Array("ftypisom".utf8),
                               Array("%PDF-1.4".utf8)] {
            #expect(ImageFormat.detect(bytes[...]) == nil)
        }
    }

    /// Creates an announcement at a position, with a photo.
    private func place(_ backend: MockBackend, _ latitude: Double, _ longitude: Double, photo: Bool = true) -> String {
        let (id, password) = createAnnouncement(backend, [("locationLatitude", .number(JSONNumber(latitude))),
                                                          ("locationLongitude", .number(JSONNumber(longitude)))])
        if photo {
            _ = backend.answer(photoRequest(id: id, authorization: basicAuthorization(user: id, password: password), content: tinyPNG))
        }
        return id
    }

    private func listIDs(_ backend: MockBackend, _ query: String) -> [String]? {
        let response = backend.answer(HTTPRequest(method: "GET", target: "/api/v1/announcements\(query)"))
        guard response.status == 200 else { return nil }
        return json(response)["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
    }

    @Test("the list holds only announcements with a photo, filtered by great-circle distance", arguments: BackendProfile.allCases)
    func listFilter(profile: BackendProfile) {
        let backend = makeBackend(profile)
        // 11 m from the query point: at the point itself production's rounding defect can leave it out.
        let warsaw = place(backend, 52.2296, 21.0122)
        let near = place(backend, 52.2297, 21.0722) // ≈ 4.1 km east
        let far = place(backend, 52.4064, 16.9252) // Poznań, ≈ 280 km
        let noPhoto = place(backend, 52.2297, 21.0122, photo: false)
        #expect(listIDs(backend, "") == [warsaw, near, far])
        #expect(listIDs(backend, "?lat=52.2297&lng=21.0122") == [warsaw, near])
        #expect(listIDs(backend, "?lat=52.2297&lng=21.0122&range=4") == [warsaw])
        #expect(listIDs(backend, "?lat=52.2297&lng=21.0122&range=300") == [warsaw, near, far])
        #expect(listIDs(backend, "?range=1") == [warsaw, near, far])
        #expect(!(listIDs(backend, "") ?? []).contains(noPhoto))
        let distance = LocationFilter.distanceKilometres(52.2297, 21.0122, 52.4064, 16.9252)
        #expect(abs(distance - 279.3) < 1)
    }

    @Test("list parameter errors: 400 INVALID_PARAMETER with the documented messages", arguments: BackendProfile.allCases)
    func listParameterErrors(profile: BackendProfile) {
        let backend = makeBackend(profile)
        let cases: [(String, String, String)] = [
            ("?lat=1", "lng", "Parameter 'lng' is required when 'lat' is provided"),
            ("?lng=1", "lat", "Parameter 'lat' is required when 'lng' is provided"),
            ("?lat=&lng=0", "lat", "Parameter 'lat' is required when 'lng' is provided"),
            ("?lat=91&lng=0", "lat", "Parameter 'lat' must be between -90 and 90"),
            ("?lat=-90.5abc&lng=0", "lat", "Parameter 'lat' must be between -90 and 90"),
            ("?lat=Infinity&lng=0", "lat", "Parameter 'lat' must be between -90 and 90"),
            ("?lat=0&lng=-180.5", "lng", "Parameter 'lng' must be between -180 and 180"),
            ("?lat=abc&lng=0", "lat", "Parameter 'lat' must be a valid number"),
            ("?lat=%20&lng=0", "lat", "Parameter 'lat' must be a valid number"),
            ("?lat=1&lng=.&range=1", "lng", "Parameter 'lng' must be a valid number"),
            ("?lat=1&lng=1&range=1.5", "range", "Parameter 'range' must be an integer"),
            ("?lat=1&lng=1&range=-1.5", "range", "Parameter 'range' must be an integer"),
            ("?lat=1&lng=1&range=ten", "range", "Parameter 'range' must be a valid number"),
            ("?range=ten", "range", "Parameter 'range' must be a valid number"),
            ("?lat=1&lng=1&range=0", "range", "Parameter 'range' must be greater than zero"),
            ("?lat=1&lng=1&range=0.0km", "range", "Parameter 'range' must be greater than zero"),
            ("?lat=1&lng=1&range=-5", "range", "Parameter 'range' must be a positive number"),
        ]
        for (query, field, message) in cases {
            let response = backend.answer(HTTPRequest(method: "GET", target: "/api/v1/announcements\(query)"))
            let error = expectError(response, 400, "INVALID_PARAMETER", field: field)
            #expect(error?["message"]?.stringValue == message, "\(query)")
        }
    }

    @Test("details: 200 without the password; unknown or malformed id 404", arguments: BackendProfile.allCases)
    func details(profile: BackendProfile) {
        let backend = makeBackend(profile)
        let (id, _) = createAnnouncement(backend)
        let response = backend.answer(HTTPRequest(method: "GET", target: "/api/v1/announcements/\(id)"))
        #expect(response.status == 200)
        #expect(json(response)["id"] == .string(id))
        #expect(json(response)["managementPassword"] == nil)
        for unknown in [UUID().uuidString.lowercased(), "123", "%20", "..", id.uppercased()] {
            expectError(backend.answer(HTTPRequest(method: "GET", target: "/api/v1/announcements/\(unknown)")), 404,
                        "NOT_FOUND", field: nil)
        }
    }

    @Test("delete: raw admin token, 401 / 404 / 204, on both routes", arguments: ["/api/admin/v1/announcements/", "/api/v1/announcements/"])
    func delete(route: String) {
        let backend = MockBackend(profile: .strict, adminToken: "s3cret", clock: { fixedNow })
        let (id, password) = createAnnouncement(backend)
        _ = backend.answer(photoRequest(id: id, authorization: basicAuthorization(user: id, password: password), content: tinyPNG))
        func delete(_ id: String, _ token: String?) -> HTTPResponse {
            var headers = HTTPHeaders()
            if let token { headers.add("Authorization", token) }
            return backend.answer(HTTPRequest(method: "DELETE", target: route + id, headers: headers))
        }
        expectError(delete(id, nil), 401, "UNAUTHENTICATED", field: nil)
        expectError(delete(id, "wrong"), 401, "UNAUTHENTICATED", field: nil)
        expectError(delete(id, "Bearer s3cret"), 401, "UNAUTHENTICATED", field: nil)
        expectError(delete(UUID().uuidString.lowercased(), "s3cret"), 404, "NOT_FOUND", field: nil)
        let deleted = delete(id, "s3cret")
        #expect(deleted.status == 204)
        #expect(deleted.body.isEmpty)
        #expect(backend.storedAnnouncementCount == 0)
        #expect(backend.storedPhoto(id: id) == nil)
        expectError(backend.answer(HTTPRequest(method: "GET", target: "/api/v1/announcements/\(id)")), 404, "NOT_FOUND", field: nil)
        expectError(delete(id, "s3cret"), 404, "NOT_FOUND", field: nil)
        #expect(MockBackend.defaultAdminToken == "petspot-admin-token")
    }

    @Test("concurrent deletes of one announcement: one 204, the rest 404", arguments: BackendProfile.allCases)
    func concurrentDeletes(profile: BackendProfile) async {
        let backend = MockBackend(profile: profile, adminToken: "s3cret", clock: { fixedNow })
        for _ in 0..<200 {
            let (id, _) = createAnnouncement(backend)
            var headers = HTTPHeaders()
            headers.add("Authorization", "s3cret")
            let request = HTTPRequest(method: "DELETE", target: "/api/admin/v1/announcements/\(id)", headers: headers)
            let seen = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { backend.answer(request).status } }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(seen.sorted() == [204] + Array(repeating: 404, count: 7), "\(seen)")
        }
        #expect(backend.storedAnnouncementCount == 0)
    }

    @Test("health answers status ok and an ISO-8601 timestamp")
    func health() {
        let response = makeBackend().answer(HTTPRequest(method: "GET", target: "/api/health"))
        #expect(response.status == 200)
        #expect(json(response) == .object(JSONObject([(key: "status", value: "ok"),
                                                      (key: "timestamp", value: "2025-06-15T12:00:00.000Z")])))
    }

    @Test("unknown routes and methods: 404 NOT_FOUND envelope", arguments: BackendProfile.allCases)
    func unknownRoutes(profile: BackendProfile) {
        let backend = makeBackend(profile)
        for (method, target) in [("GET", "/"), ("GET", "/api"), ("PUT", "/api/v1/announcements"), ("PATCH", "/api/health"),
                                 ("GET", "/api/v2/announcements"), ("POST", "/api/health"), ("GET", "/api/v1/announcements//photos"),
                                 ("DELETE", "/api/v1/announcements"), ("GET", "*")] {
            expectError(backend.answer(HTTPRequest(method: method, target: target)), 404, "NOT_FOUND", field: nil)
        }
        let ids = Set((0..<20).map { _ in
            json(backend.answer(HTTPRequest(method: "GET", target: "/nope")))["error"]?["requestId"]?.stringValue ?? ""
        })
        #expect(ids.count == 20, "a fresh requestId per error")
        // Express routing (production) ignores case and a trailing slash; strict does not.
        let relaxed = backend.answer(HTTPRequest(method: "GET", target: "/API/Health/"))
        #expect(relaxed.status == (profile == .production ? 200 : 404))
    }
}

@Suite("Fault injection")
struct FaultPlanTests {
    @Test("the grammar parses and prints back")
    func parsing() throws {
        let plan = try FaultPlan(parsing: "500:0.1, 503:.05,delay=200ms:0.1,drop:0.02,seed=42")
        #expect(plan.outcomes.map(\.outcome) == [.status(500), .status(503), .drop])
        #expect(plan.delay?.milliseconds == 200)
        #expect(plan.seed == 42)
        #expect(try FaultPlan(parsing: plan.description) == plan)
        #expect(try FaultPlan(parsing: "delay=2s:1").delay?.milliseconds == 2000)
        #expect(try FaultPlan(parsing: "").isEmpty)
    }

    @Test("parse errors name the offending token")
    func parseErrors() {
        let cases: [(String, String)] = [
            ("500:0.1,boom:0.2", "boom:0.2"), ("500:1.5", "500:1.5"), ("600:0.1", "600:0.1"), ("drop", "drop"),
            ("delay=5m:0.1", "delay=5m:0.1"), ("seed=-1", "seed=-1"), ("500:0.6,503:0.5", "503:0.5"),
            ("500:0.1,,drop:0.1", ""), ("drop:0.1,drop:0.2", "drop:0.2"), ("500:abc", "500:abc"),
        ]
        for (spec, token) in cases {
            #expect(throws: FaultPlanParseError.self, "\(spec)") { try FaultPlan(parsing: spec) }
            do {
                _ = try FaultPlan(parsing: spec)
            } catch {
                #expect(error.token == token, "\(spec)")
                #expect(error.description.contains("'\(token)'"))
            }
        }
    }

    private func outcomes(_ backend: MockBackend, count: Int) -> [String] {
        (0..<count).map { _ in
            do {
                return String(try backend.handle(HTTPRequest(method: "GET", target: "/api/v1/announcements")).status)
            } catch {
                return "drop"
            }
        }
    }

    @Test("a seeded plan replays exactly and hits its shares")
    func replay() throws {
        let plan = try FaultPlan(parsing: "500:0.2,503:0.1,drop:0.1,seed=7")
        let first = outcomes(makeBackend(faults: plan), count: 2000)
        let second = outcomes(makeBackend(faults: plan), count: 2000)
        #expect(first == second)
        let share = { (label: String) in Double(first.filter { $0 == label }.count) / 2000 }
        #expect(abs(share("500") - 0.2) < 0.04)
        #expect(abs(share("503") - 0.1) < 0.03)
        #expect(abs(share("drop") - 0.1) < 0.03)
        #expect(abs(share("200") - 0.6) < 0.05)
        let other = outcomes(makeBackend(faults: try FaultPlan(parsing: "500:0.2,503:0.1,drop:0.1,seed=8")), count: 2000)
        #expect(other != first)
    }

    @Test("a faulted request is not processed; health is exempt; delays delay")
    func faultSemantics() throws {
        let backend = makeBackend(faults: try FaultPlan(parsing: "503:1"))
        let response = try backend.handle(createRequest(createBody()))
        expectError(response, 503, "SERVICE_UNAVAILABLE", field: nil)
        #expect(backend.storedAnnouncementCount == 0)
        #expect(try backend.handle(HTTPRequest(method: "GET", target: "/api/health")).status == 200)
        #expect(throws: MockTransportError.connectionDropped) {
            try makeBackend(faults: try FaultPlan(parsing: "drop:1")).handle(createRequest(createBody()))
        }
        let slow = makeBackend(faults: try FaultPlan(parsing: "delay=150ms:1"))
        let start = Date()
        #expect(try slow.handle(createRequest(createBody())).status == 201)
        #expect(Date().timeIntervalSince(start) >= 0.14)
    }
}

@Suite("Support code")
struct MockSupportTests {
    @Test("SHA-256 test vectors")
    func sha256() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA256.digest([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(SHA256.digest(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(SHA256.digest([UInt8](repeating: 0x61, count: 1000)))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        let hash = SaltedPasswordHash(password: "123456")
        #expect(hash.matches("123456") && !hash.matches("123457"))
        #expect(SaltedPasswordHash(password: "123456").salt != hash.salt)
    }

    @Test("HTML stripping as js-xss with an empty whitelist does")
    func sanitizer() {
        let cases: [(String, String)] = [
            ("plain text", "plain text"), ("<b>x</b>", "x"), ("a > b", "a &gt; b"), ("a < b", "a "),
            ("<script>alert(1)</script>ok", "ok"), ("x<style>p { color: red }</style>y", "xy"),
            ("<img src=\"a>b\" onerror=alert(1)>z", "z"), ("1 < 2 and 3 > 2", "1  2"), ("a <b <i>c</i>", "a &lt;b c"),
            ("<!-- hidden -->shown", "shown"), ("<script>unclosed", "[removed]unclosed"),
            ("<SCRIPT>x</SCRIPT>after", "after"), ("trailing <", "trailing &lt;"), ("Łódź <b>żółw</b> 🐶", "Łódź żółw 🐶"),
        ]
        for (input, expected) in cases { #expect(HTMLSanitizer.sanitize(input) == expected, "\(input)") }
    }

    @Test("JavaScript trim and ISO timestamps")
    func javaScript() {
        #expect(JavaScript.trim("\u{00A0}\u{FEFF} a b \u{2028}\n") == "a b")
        #expect(JavaScript.trim(" \t ") == "")
        #expect(JavaScript.isoString(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(JavaScript.isoString(milliseconds: 1_749_988_800_123) == "2025-06-15T12:00:00.123Z")
        #expect(JavaScript.isoString(milliseconds: 951_782_400_000) == "2000-02-29T00:00:00.000Z")
    }

    @Test("multipart parsing")
    func multipart() throws {
        #expect(MultipartFormData.boundary(contentType: "multipart/form-data; boundary=\"a b\"") == "a b")
        #expect(MultipartFormData.boundary(contentType: "multipart/mixed; boundary=x") == nil)
        #expect(MultipartFormData.boundary(contentType: "multipart/form-data") == nil)
        let (body, _) = multipartBody(content: [1, 2, 3, 0x0D, 0x0A, 4])
        let parts = try MultipartFormData.parts(of: body, boundary: "XyZboundary42")
        #expect(parts.count == 1)
        #expect(parts.first?.name == "photo" && parts.first?.filename == "pet.jpg")
        #expect(Array(parts.first?.body ?? []) == [1, 2, 3, 0x0D, 0x0A, 4])
        #expect(throws: MultipartError.self) { try MultipartFormData.parts(of: Array(body.dropLast(20)), boundary: "XyZboundary42") }
    }
}
