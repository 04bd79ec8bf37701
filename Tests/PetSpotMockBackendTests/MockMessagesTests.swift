import Foundation
import PetSpotContractKit
import PetSpotHTTP
import PetSpotJSON
import Testing
@testable import PetSpotMockBackend

/// backend-contract.md, "Production's messages": every row answered word for word by the
/// production profile; the strict profile's own messages name the field to blame.
@Suite("Error messages")
struct MockMessagesTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let label: String
        let status: Int
        let code: String
        let message: String
        /// Sends the row's request to a production backend.
        let send: @Sendable (MockBackend) -> HTTPResponse
        var testDescription: String { label }
    }

    static func create(_ changes: [(String, JSONValue)] = [], removing: [String] = []) -> @Sendable (MockBackend) -> HTTPResponse {
        let body = createBody(changes, removing: removing)
        return { $0.answer(createRequest(body)) }
    }

    static func photo(_ authorization: String?, unknownID: Bool = false, parts: [TestPart]? = nil) -> @Sendable (MockBackend) -> HTTPResponse {
        { backend in
            let (id, password) = createAnnouncement(backend)
            let target = unknownID ? "0f8fad5b-d9cb-469f-a165-70867728950e" : id
            let header = authorization.map { $0 == "GOOD" ? basicAuthorization(user: id, password: password) : $0 }
            let (body, contentType) = multipart(parts ?? [TestPart(name: "photo", filename: "a.png", content: tinyPNG)])
            var headers = [("Content-Type", contentType)]
            if let header { headers.append(("Authorization", header)) }
            return backend.answer(request("POST", "/api/v1/announcements/\(target)/photos", headers: headers, body: body))
        }
    }

    static func get(_ target: String) -> @Sendable (MockBackend) -> HTTPResponse {
        { $0.answer(request("GET", target)) }
    }

    static let rows: [Row] = [
        Row(label: "unknown route", status: 404, code: "NOT_FOUND", message: "Resource not found", send: get("/api/v2/nothing")),
        Row(label: "unknown announcement (details)", status: 404, code: "NOT_FOUND", message: "Resource not found",
            send: get("/api/v1/announcements/0f8fad5b-d9cb-469f-a165-70867728950e")),
        Row(label: "unknown announcement (delete)", status: 404, code: "NOT_FOUND", message: "Resource not found", send: {
            $0.answer(request("DELETE", "/api/admin/v1/announcements/nope", headers: [("Authorization", MockBackend.defaultAdminToken)]))
        }),
        Row(label: "photo upload to an unknown id", status: 404, code: "NOT_FOUND",
            message: "Announcement with ID 0f8fad5b-d9cb-469f-a165-70867728950e not found",
            send: photo(basicAuthorization(user: "u", password: "123456"), unknownID: true)),
        Row(label: "absent key", status: 400, code: "MISSING_VALUE", message: "Required", send: create(removing: ["status"])),
        Row(label: "no body", status: 400, code: "MISSING_VALUE", message: "Required", send: {
            $0.answer(request("POST", "/api/v1/announcements", headers: [("Content-Type", "application/json")]))
        }),
        Row(label: "null", status: 400, code: "INVALID_FORMAT", message: "Expected string, received null", send: create([("petName", nil)])),
        Row(label: "string for a number", status: 400, code: "INVALID_FORMAT", message: "Expected number, received string",
            send: create([("locationLongitude", "21")])),
        Row(label: "fraction for an integer", status: 400, code: "INVALID_FORMAT", message: "Expected integer, received float",
            send: create([("age", 1.5)])),
        Row(label: "boolean for a string", status: 400, code: "INVALID_FORMAT", message: "Expected string, received boolean",
            send: create([("status", true)])),
        Row(label: "array body", status: 400, code: "INVALID_FORMAT", message: "Expected object, received array", send: {
            $0.answer(framedCreateRequest(Array("[]".utf8)))
        }),
        Row(label: "blank species", status: 400, code: "MISSING_VALUE", message: "cannot be empty", send: create([("species", " ")])),
        Row(label: "blank sex", status: 400, code: "MISSING_VALUE", message: "cannot be empty", send: create([("sex", "")])),
        Row(label: "age", status: 400, code: "INVALID_FORMAT", message: "age must be a positive integer", send: create([("age", 0)])),
        Row(label: "microchip", status: 400, code: "INVALID_FORMAT", message: "must contain only digits", send: create([("microchipNumber", "12-3")])),
        Row(label: "latitude", status: 400, code: "INVALID_FORMAT", message: "latitude must be between -90 and 90",
            send: create([("locationLatitude", -91)])),
        Row(label: "longitude", status: 400, code: "INVALID_FORMAT", message: "longitude must be between -180 and 180",
            send: create([("locationLongitude", 181)])),
        Row(label: "email", status: 400, code: "INVALID_FORMAT", message: "email format is invalid", send: create([("email", "a@b")])),
        Row(label: "phone", status: 400, code: "INVALID_FORMAT", message: "invalid phone format", send: create([("phone", "call")])),
        Row(label: "date format", status: 400, code: "INVALID_FORMAT", message: "invalid date format (expected YYYY-MM-DD)",
            send: create([("lastSeenDate", "2025/01/01")])),
        Row(label: "future date", status: 400, code: "INVALID_FORMAT", message: "lastSeenDate cannot be in the future",
            send: create([("lastSeenDate", "2025-06-16")])),
        Row(label: "month 13", status: 400, code: "INVALID_FORMAT", message: "lastSeenDate cannot be in the future",
            send: create([("lastSeenDate", "2025-13-01")])),
        Row(label: "status", status: 400, code: "INVALID_FORMAT", message: "status must be either MISSING or FOUND",
            send: create([("status", "CLOSED")])),
        Row(label: "unknown key", status: 400, code: "INVALID_FIELD", message: "caregiverPhone is not a valid field",
            send: create([("caregiverPhone", "1")])),
        Row(label: "contact", status: 400, code: "MISSING_CONTACT", message: "at least one contact method (email or phone) is required",
            send: create(removing: ["email", "phone"])),
        Row(label: "duplicate microchip", status: 409, code: "CONFLICT", message: "An entity with this value already exists", send: { backend in
            let body = createBody()
            _ = backend.answer(createRequest(body))
            return backend.answer(createRequest(body))
        }),
        Row(label: "body too large", status: 413, code: "PAYLOAD_TOO_LARGE", message: "Request payload exceeds maximum size limit (100KB)",
            send: create([("description", .string(String(repeating: "x", count: 110_000)))])),
        Row(label: "file too large", status: 413, code: "PAYLOAD_TOO_LARGE", message: "Request payload exceeds maximum size limit (100KB)",
            send: photo("GOOD", parts: [TestPart(name: "photo", filename: "a.png", content: [UInt8](repeating: 0, count: 20 * 1024 * 1024))])),
        Row(label: "lat not a number", status: 400, code: "INVALID_PARAMETER", message: "Parameter 'lat' must be a valid number",
            send: get("/api/v1/announcements?lat=x&lng=1")),
        Row(label: "lng not a number", status: 400, code: "INVALID_PARAMETER", message: "Parameter 'lng' must be a valid number",
            send: get("/api/v1/announcements?lat=1&lng=x")),
        Row(label: "range not a number", status: 400, code: "INVALID_PARAMETER", message: "Parameter 'range' must be a valid number",
            send: get("/api/v1/announcements?lat=1&lng=1&range=x")),
        Row(label: "lat out of range", status: 400, code: "INVALID_PARAMETER", message: "Parameter 'lat' must be between -90 and 90",
            send: get("/api/v1/announcements?lat=-90.1&lng=1")),
        Row(label: "lng out of range", status: 400, code: "INVALID_PARAMETER", message: "Parameter 'lng' must be between -180 and 180",
            send: get("/api/v1/announcements?lat=1&lng=180.1")),
        Row(label: "range fraction", status: 400, code: "INVALID_PARAMETER", message: "Parameter 'range' must be an integer",
            send: get("/api/v1/announcements?lat=1&lng=1&range=2.5")),
        Row(label: "range zero", status: 400, code: "INVALID_PARAMETER", message: "Parameter 'range' must be greater than zero",
            send: get("/api/v1/announcements?lat=1&lng=1&range=0")),
        Row(label: "range negative", status: 400, code: "INVALID_PARAMETER", message: "Parameter 'range' must be a positive number",
            send: get("/api/v1/announcements?lat=1&lng=1&range=-3")),
        Row(label: "lat without lng", status: 400, code: "INVALID_PARAMETER", message: "Parameter 'lng' is required when 'lat' is provided",
            send: get("/api/v1/announcements?lat=1")),
        Row(label: "lng without lat", status: 400, code: "INVALID_PARAMETER", message: "Parameter 'lat' is required when 'lng' is provided",
            send: get("/api/v1/announcements?lng=1")),
        Row(label: "photo: no header", status: 401, code: "UNAUTHENTICATED", message: "Authorization header is required", send: photo(nil)),
        Row(label: "photo: not Basic", status: 401, code: "UNAUTHENTICATED", message: "Invalid Authorization header format",
            send: photo("Bearer x")),
        // Node decodes base64 leniently: "%%%" is no character of it, so the credentials are empty.
        Row(label: "photo: not base64", status: 401, code: "UNAUTHENTICATED", message: "Credentials must be in username:password format",
            send: photo("Basic %%%")),
        Row(label: "photo: base64url with junk", status: 403, code: "UNAUTHORIZED", message: "Invalid credentials for this announcement",
            send: photo("Basic " + Data("u:1".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") + "%%")),
        Row(label: "photo: no colon", status: 401, code: "UNAUTHENTICATED", message: "Credentials must be in username:password format",
            send: photo("Basic " + Data("userpassword".utf8).base64EncodedString())),
        Row(label: "photo: empty user", status: 401, code: "UNAUTHENTICATED", message: "Username and password cannot be empty",
            send: photo(basicAuthorization(user: "", password: "123456"))),
        Row(label: "photo: wrong password", status: 403, code: "UNAUTHORIZED", message: "Invalid credentials for this announcement",
            send: photo(basicAuthorization(user: "u", password: "1"))),
        Row(label: "photo: no file", status: 400, code: "MISSING_FILE", message: "Photo field is required",
            send: photo("GOOD", parts: [TestPart(name: "note", filename: nil, content: [0x41])])),
        Row(label: "photo: not an image", status: 400, code: "INVALID_FILE_FORMAT",
            message: "File is not a valid image format (JPEG, PNG, GIF, WebP, BMP, TIFF, HEIC, HEIF)",
            send: photo("GOOD", parts: [TestPart(name: "photo", filename: "a.png", content: Array("text".utf8))])),
        Row(label: "delete: no header", status: 401, code: "UNAUTHENTICATED", message: "Missing Authorization header",
            send: { $0.answer(request("DELETE", "/api/admin/v1/announcements/x")) }),
        Row(label: "delete: wrong token", status: 401, code: "UNAUTHENTICATED", message: "Invalid admin token",
            send: { $0.answer(request("DELETE", "/api/v1/announcements/x", headers: [("Authorization", "Bearer \(MockBackend.defaultAdminToken)")])) }),
        Row(label: "500", status: 500, code: "INTERNAL_SERVER_ERROR", message: "Internal server error", send: {
            $0.answer(framedCreateRequest(Array("{oops".utf8)))
        }),
    ]

    @Test("production answers every row of the table word for word", arguments: rows)
    func productionMessages(row: Row) {
        let response = row.send(makeBackend(.production))
        #expect(response.status == row.status)
        #expect(json(response)["error"]?["code"]?.stringValue == row.code)
        #expect(message(response) == row.message)
    }

    @Test("the strict profile's messages for field problems name the field", arguments: rows)
    func strictMessages(row: Row) throws {
        let response = row.send(makeBackend(.strict))
        let error = try #require(json(response)["error"]?.objectValue, "\(row.label): \(response.bodyText)")
        let text = try #require(error["message"]?.stringValue)
        #expect(!text.isEmpty)
        // The contact rule has no field of its name; the 409's message is the doc's, in both profiles.
        if let field = error["field"]?.stringValue, field != "contact", error["code"] != "CONFLICT" {
            #expect(text.contains(field) || text.contains("Parameter '\(field)'") || field == "file" || field == "photo" && text.contains("photo"),
                    "\(row.label): \(text)")
        }
    }

    @Test("every catalog case's strict message names its field")
    func strictCatalogMessages() throws {
        let catalog = try ContractDocuments.load().negativeCases
        for (index, item) in catalog.cases.enumerated() {
            let backend = makeBackend(.strict)
            let body = try item.body(from: catalog.basePayload(microchipNumber: String(970_000_000_000_000 + index)))
            if item.setup == .createBaseFirst {
                _ = backend.answer(framedCreateRequest(JSONValue.object(catalog.basePayload(microchipNumber: String(970_000_000_000_000 + index))).serializedBytes()))
            }
            let response = backend.answer(framedCreateRequest(body.bytes, contentType: body.contentType))
            guard let error = json(response)["error"]?.objectValue, let field = error["field"]?.stringValue, field != "contact",
                  error["code"] != "CONFLICT"
            else { continue }
            #expect(error["message"]?.stringValue?.contains(field) == true, "\(item.id): \(error["message"]?.stringValue ?? "")")
        }
    }
}
