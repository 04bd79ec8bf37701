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
