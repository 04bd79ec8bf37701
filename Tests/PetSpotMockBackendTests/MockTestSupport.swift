import Foundation
import PetSpotHTTP
import PetSpotJSON
import Testing
@testable import PetSpotMockBackend
import PetSpotContractKit

/// 2025-06-15T12:00:00.000Z: the fixed "now" of every test backend.
let fixedNow = Date(timeIntervalSince1970: 1_749_988_800)

func makeBackend(_ profile: BackendProfile = .strict, faults: FaultPlan = .none) -> MockBackend {
    MockBackend(profile: profile, faults: faults, clock: { fixedNow })
}

/// A valid create body; `changes` set (or with `.null` inside `remove`) fields.
func createBody(_ changes: [(String, JSONValue)] = [], removing: [String] = []) -> JSONObject {
    var body = JSONObject([
        (key: "petName", value: "Rex"),
        (key: "species", value: "DOG"),
        (key: "breed", value: "Beagle"),
        (key: "sex", value: "MALE"),
        (key: "age", value: 3),
        (key: "description", value: "Brown collar"),
        (key: "microchipNumber", value: .string(uniqueMicrochip())),
        (key: "locationLatitude", value: 52.2297),
        (key: "locationLongitude", value: 21.0122),
        (key: "email", value: "owner@example.com"),
        (key: "phone", value: "+48 123 456 789"),
        (key: "lastSeenDate", value: "2025-06-01"),
        (key: "status", value: "MISSING"),
        (key: "reward", value: "100 PLN"),
    ])
    for name in removing { body[name] = nil }
    for (name, value) in changes { body[name] = value }
    return body
}

/// A microchip number no other test uses: 14 random digits after "99" (a clash is a 1 in 10^14 chance).
func uniqueMicrochip() -> String { "99" + String(UInt64.random(in: 10_000_000_000_000...99_999_999_999_999)) }

func createRequest(_ body: JSONObject) -> HTTPRequest {
    createRequest(raw: JSONValue.object(body).serializedBytes())
}

func createRequest(raw: [UInt8], contentType: String? = "application/json") -> HTTPRequest {
    var headers = HTTPHeaders()
    if let contentType { headers.add("Content-Type", contentType) }
    return HTTPRequest(method: "POST", target: "/api/v1/announcements", headers: headers, body: raw)
}

func json(_ response: HTTPResponse) -> JSONValue {
    (try? JSONValue.parse(response.body)) ?? .null
}

/// Checks an error envelope and returns it.
@discardableResult
func expectError(
    _ response: HTTPResponse, _ status: Int, _ code: String, field: String?,
    sourceLocation: SourceLocation = #_sourceLocation
) -> JSONObject? {
    #expect(response.status == status, "status", sourceLocation: sourceLocation)
    #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
    let error = json(response)["error"]?.objectValue
    #expect(error?["code"]?.stringValue == code, "code in \(response.bodyText)", sourceLocation: sourceLocation)
    #expect(error?["field"]?.stringValue == field, "field in \(response.bodyText)", sourceLocation: sourceLocation)
    #expect((error?["requestId"]?.stringValue?.isEmpty ?? true) == false, sourceLocation: sourceLocation)
    #expect(error?["message"]?.stringValue != nil, sourceLocation: sourceLocation)
    if field == nil { #expect(error?.contains(key: "field") == false, sourceLocation: sourceLocation) }
    return error
}

/// Creates an announcement and returns (id, managementPassword).
func createAnnouncement(_ backend: MockBackend, _ changes: [(String, JSONValue)] = []) -> (id: String, password: String) {
    let response = backend.answer(createRequest(createBody(changes)))
    #expect(response.status == 201, "create failed: \(response.bodyText)")
    let body = json(response)
    return (body["id"]?.stringValue ?? "", body["managementPassword"]?.stringValue ?? "")
}

let tinyPNG: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [UInt8](repeating: 1, count: 20)
let tinyJPEG: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 40)

func basicAuthorization(user: String, password: String) -> String {
    "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
}

func multipartBody(name: String = "photo", filename: String? = "pet.jpg", content: [UInt8], boundary: String = "XyZboundary42")
    -> (body: [UInt8], contentType: String)
{
    var body: [UInt8] = []
    body += Array("--\(boundary)\r\n".utf8)
    var disposition = "Content-Disposition: form-data; name=\"\(name)\""
    if let filename { disposition += "; filename=\"\(filename)\"" }
    body += Array("\(disposition)\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
    body += content
    body += Array("\r\n--\(boundary)--\r\n".utf8)
    return (body, "multipart/form-data; boundary=\(boundary)")
}

func photoRequest(id: String, authorization: String?, content: [UInt8], name: String = "photo") -> HTTPRequest {
    let (body, contentType) = multipartBody(name: name, content: content)
    var headers: HTTPHeaders = ["Content-Type": contentType]
    if let authorization { headers.add("Authorization", authorization) }
    return HTTPRequest(method: "POST", target: "/api/v1/announcements/\(id)/photos", headers: headers, body: body)
}

// MARK: Requests

/// A request with the given headers (and `Host`), as a client sends it.
func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) -> HTTPRequest {
    var fields = HTTPHeaders([(name: "Host", value: "127.0.0.1")])
    for (name, value) in headers { fields.add(name, value) }
    return HTTPRequest(method: method, target: target, headers: fields, body: body)
}

/// A create request whose body is framed by `Content-Length`, as HTTP clients send it.
func framedCreateRequest(_ body: [UInt8], contentType: String? = "application/json", extraHeaders: [(String, String)] = []) -> HTTPRequest {
    var headers: [(String, String)] = [("Content-Length", String(body.count))]
    if let contentType { headers.append(("Content-Type", contentType)) }
    return request("POST", "/api/v1/announcements", headers: headers + extraHeaders, body: body)
}

/// One part of a multipart body.
struct TestPart {
    var name: String
    var filename: String?
    var contentType: String? = "image/png"
    var content: [UInt8]
}

/// A `multipart/form-data` body of `parts`, and its Content-Type.
func multipart(_ parts: [TestPart], boundary: String = "TestBoundary7MA4YWxk") -> (body: [UInt8], contentType: String) {
    var body: [UInt8] = []
    for part in parts {
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"".utf8)
        if let filename = part.filename { body += Array("; filename=\"\(filename)\"".utf8) }
        body += Array("\r\n".utf8)
        if let contentType = part.contentType, part.filename != nil { body += Array("Content-Type: \(contentType)\r\n".utf8) }
        body += Array("\r\n".utf8) + part.content + Array("\r\n".utf8)
    }
    body += Array("--\(boundary)--\r\n".utf8)
    return (body, "multipart/form-data; boundary=\(boundary)")
}

/// A photo upload with the given parts and the announcement's credentials.
func upload(_ backend: MockBackend, id: String, password: String, parts: [TestPart], extraHeaders: [(String, String)] = [])
    -> HTTPResponse
{
    let (body, contentType) = multipart(parts)
    return backend.answer(request("POST", "/api/v1/announcements/\(id)/photos", headers: [
        ("Content-Type", contentType), ("Authorization", basicAuthorization(user: id, password: password)),
        ("Content-Length", String(body.count)),
    ] + extraHeaders, body: body))
}

/// A PNG made of chunks (CRCs are not checked by the backend, so zeros do).
func png(chunks: [String]) -> [UInt8] {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    for chunk in chunks {
        let data: [UInt8] = chunk == "IHDR" ? [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0] : chunk == "acTL" ? [0, 0, 0, 2, 0, 0, 0, 0] : [1, 2, 3]
        bytes += [0, 0, 0, UInt8(data.count)] + Array(chunk.utf8) + data + [0, 0, 0, 0]
    }
    return bytes
}

// MARK: Content codings (stored DEFLATE blocks: valid streams without a compressor)

/// `bytes` as DEFLATE stored blocks (at most 65,535 bytes each).
func storedDeflate(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    var offset = 0
    repeat {
        let length = min(65_535, bytes.count - offset)
        let isFinal: UInt8 = offset + length == bytes.count ? 1 : 0
        output += [isFinal, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
        output += bytes[offset..<(offset + length)]
        offset += length
    } while offset < bytes.count
    return output
}

/// `bytes` in a gzip member (RFC 1952) of stored blocks.
func storedGzip(_ bytes: [UInt8]) -> [UInt8] {
    let crc = Inflater.crc32(bytes[...]), size = UInt32(truncatingIfNeeded: bytes.count)
    return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] + storedDeflate(bytes)
        + (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) } + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) }
}

/// `bytes` in a zlib stream (RFC 1950) of stored blocks: HTTP's `deflate`.
func storedZlib(_ bytes: [UInt8]) -> [UInt8] {
    let adler = Inflater.adler32(bytes)
    return [0x78, 0x01] + storedDeflate(bytes) + (0..<4).reversed().map { UInt8(truncatingIfNeeded: adler >> (8 * $0)) }
}

/// The envelope's message.
func message(_ response: HTTPResponse) -> String? {
    json(response)["error"]?["message"]?.stringValue
}
