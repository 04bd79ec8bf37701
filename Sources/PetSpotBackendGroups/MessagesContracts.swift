import Foundation
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel

/// Production's messages (backend-contract.md, "Production's messages"): one request per line of
/// the table for create and photo upload (list, details and delete messages are checked by their
/// own groups). The production profile compares the message word for word; the strict profile,
/// whose mock words its own messages, checks status, code and field.
package struct MessagesContracts: BackendContractGroup {
    package let name = "production messages"
    package let surfaces: Set<MockDefect.Surface> = [.messages]

    /// The group.
    package init() {}

    /// One request and the answer it must get.
    package struct Case: Sendable {
        /// The contract the case is reported under.
        package let contract: String
        /// The answer it must get.
        let expected: ErrorExpectation
        /// The request, given a fresh valid create body and the photo announcement (`nil` for the
        /// create cases) and its password.
        let request: @Sendable (_ base: JSONObject, _ announcement: AnnouncementPath?, _ password: String) -> TransportRequest
        /// The request's credentials are made up to be refused: decoys, not secrets.
        var sendsDecoy = false
    }

    /// A create request: a fresh valid body changed by `change`.
    static func create(_ change: @escaping @Sendable (inout JSONObject) -> Void) -> @Sendable (JSONObject, AnnouncementPath?, String) -> TransportRequest {
        { base, _, _ in
            var body = base
            change(&body)
            return BackendTarget.createRequest(.object(body))
        }
    }

    /// 400 INVALID_FORMAT on `field` with production's `message`.
    static func invalid(_ field: String, _ message: String) -> ErrorExpectation {
        ErrorExpectation(400, "INVALID_FORMAT", field: .named(field), message: message)
    }

    /// The create cases.
    package static let createCases: [Case] = [
        Case(contract: "create, absent key: \"Required\"", expected: ErrorExpectation(400, "MISSING_VALUE", field: .named("species"), message: "Required"),
             request: create { $0["species"] = nil }),
        Case(contract: "create, blank species: \"cannot be empty\"", expected: ErrorExpectation(400, "MISSING_VALUE", field: .named("species"), message: "cannot be empty"),
             request: create { $0["species"] = "   " }),
        Case(contract: "create, null: \"Expected string, received null\"", expected: invalid("breed", "Expected string, received null"),
             request: create { $0["breed"] = .null }),
        Case(contract: "create, string for a number: \"Expected number, received string\"", expected: invalid("locationLatitude", "Expected number, received string"),
             request: create { $0["locationLatitude"] = "52.2297" }),
        Case(contract: "create, fraction for an integer: \"Expected integer, received float\"", expected: invalid("age", "Expected integer, received float"),
             request: create { $0["age"] = 1.5 }),
        Case(contract: "create, age 0: \"age must be a positive integer\"", expected: invalid("age", "age must be a positive integer"),
             request: create { $0["age"] = 0 }),
        Case(contract: "create, microchip with a letter: \"must contain only digits\"", expected: invalid("microchipNumber", "must contain only digits"),
             request: create { $0["microchipNumber"] = "12345a" }),
        Case(contract: "create, latitude 91: \"latitude must be between -90 and 90\"", expected: invalid("locationLatitude", "latitude must be between -90 and 90"),
             request: create { $0["locationLatitude"] = 91 }),
        Case(contract: "create, longitude 181: \"longitude must be between -180 and 180\"", expected: invalid("locationLongitude", "longitude must be between -180 and 180"),
             request: create { $0["locationLongitude"] = 181 }),
        Case(contract: "create, bad email: \"email format is invalid\"", expected: invalid("email", "email format is invalid"),
             request: create { $0["email"] = "owner-at-example.com" }),
        Case(contract: "create, phone without a digit: \"invalid phone format\"", expected: invalid("phone", "invalid phone format"),
             request: create { $0["phone"] = "call me" }),
        Case(contract: "create, date with slashes: \"invalid date format (expected YYYY-MM-DD)\"", expected: invalid("lastSeenDate", "invalid date format (expected YYYY-MM-DD)"),
             request: create { $0["lastSeenDate"] = "2025/06/01" }),
        Case(contract: "create, future date: \"lastSeenDate cannot be in the future\"", expected: invalid("lastSeenDate", "lastSeenDate cannot be in the future"),
             request: create { $0["lastSeenDate"] = "2999-01-01" }),
        Case(contract: "create, month 13: \"lastSeenDate cannot be in the future\"", expected: invalid("lastSeenDate", "lastSeenDate cannot be in the future"),
             request: create { $0["lastSeenDate"] = "2025-13-01" }),
        Case(contract: "create, status CLOSED: \"status must be either MISSING or FOUND\"", expected: invalid("status", "status must be either MISSING or FOUND"),
             request: create { $0["status"] = "CLOSED" }),
        Case(contract: "create, unknown key: \"{key} is not a valid field\"", expected: ErrorExpectation(400, "INVALID_FIELD", field: .named("colour"), message: "colour is not a valid field"),
             request: create { $0["colour"] = "brown" }),
        Case(contract: "create, no contact: \"at least one contact method (email or phone) is required\"",
             expected: ErrorExpectation(400, "MISSING_CONTACT", field: .named("contact"), message: "at least one contact method (email or phone) is required"),
             request: create { body in
                 body["email"] = nil
                 body["phone"] = nil
             }),
        Case(contract: "create, body over 100 KB: \"Request payload exceeds maximum size limit (100KB)\"",
             expected: ErrorExpectation(413, "PAYLOAD_TOO_LARGE", message: "Request payload exceeds maximum size limit (100KB)"),
             request: create { $0["description"] = .string(String(repeating: "x", count: 110_000)) }),
        Case(contract: "create, Content-Type text/plain: \"Required\"", expected: ErrorExpectation(400, "MISSING_VALUE", field: .absent, message: "Required"),
             request: { base, _, _ in
                 TransportRequest(method: "POST", path: "/api/v1/announcements", headers: [("Content-Type", "text/plain")], body: JSONValue.object(base).serializedData())
             }),
    ]

    /// A photo upload to the case's announcement (or `announcement`), with the Authorization
    /// `authorization` makes from the id and password, a PNG or `bytes`, or no file.
    static func photo(
        to override: AnnouncementPath? = nil, authorization: @escaping @Sendable (String, String) -> String?, file: Bool = true,
        bytes: Data = SampleImage.png(tag: "petspot-contracts messages")
    ) -> @Sendable (JSONObject, AnnouncementPath?, String) -> TransportRequest {
        { _, announcement, password in
            let target = override ?? announcement ?? AnnouncementPath(uuid: UUID())
            var request = photoUploadRequest(target, password: nil, fileName: "pet.png", contentType: "image/png", bytes: bytes)
            if !file {
                let boundary = "PetSpotContractsPhoto7c1e"
                request.body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nno photo here\r\n--\(boundary)--\r\n".utf8)
            }
            if let value = authorization(target.id, password) { request.headers.append(("Authorization", value)) }
            return request
        }
    }

    /// `Basic base64(text)`.
    static func basic(_ text: String) -> String { basicAuthorization(text) }

    /// The photo upload cases (against one announcement created for them).
    package static var photoCases: [Case] {
        let unknown = AnnouncementPath(uuid: UUID())
        let unauthenticated = { (message: String) in ErrorExpectation(401, "UNAUTHENTICATED", message: message) }
        return [
            Case(contract: "photo, no Authorization: \"Authorization header is required\"", expected: unauthenticated("Authorization header is required"),
                 request: photo(authorization: { _, _ in nil })),
            Case(contract: "photo, Bearer: \"Invalid Authorization header format\"", expected: unauthenticated("Invalid Authorization header format"),
                 request: photo(authorization: { _, _ in "Bearer not-a-photo-credential" }), sendsDecoy: true),
            // Node decodes base64 leniently, so production never says "Invalid Base64 encoding"
            // (backend-contract.md): these credentials decode to text without a colon.
            Case(contract: "photo, not base64 (decoded leniently, no colon): \"Credentials must be in username:password format\"",
                 expected: unauthenticated("Credentials must be in username:password format"),
                 request: photo(authorization: { _, _ in "Basic %%%not-base64%%%" }), sendsDecoy: true),
            Case(contract: "photo, no colon: \"Credentials must be in username:password format\"", expected: unauthenticated("Credentials must be in username:password format"),
                 request: photo(authorization: { id, _ in basic(id) }), sendsDecoy: true),
            Case(contract: "photo, empty password: \"Username and password cannot be empty\"", expected: unauthenticated("Username and password cannot be empty"),
                 request: photo(authorization: { id, _ in basic(id + ":") }), sendsDecoy: true),
            Case(contract: "photo, unknown id: \"Announcement with ID {id} not found\"",
                 expected: ErrorExpectation(404, "NOT_FOUND", message: "Announcement with ID \(unknown.id) not found"),
                 request: photo(to: unknown, authorization: { id, password in basic("\(id):\(password)") })),
            Case(contract: "photo, wrong password: \"Invalid credentials for this announcement\"",
                 expected: ErrorExpectation(403, "UNAUTHORIZED", message: "Invalid credentials for this announcement"),
                 request: photo(authorization: { id, password in basic("\(id):\(password == "100000" ? "100001" : "100000")") }), sendsDecoy: true),
            Case(contract: "photo, no file part: \"Photo field is required\"",
                 expected: ErrorExpectation(400, "MISSING_FILE", field: .named("photo"), message: "Photo field is required"),
                 request: photo(authorization: { id, password in basic("\(id):\(password)") }, file: false)),
            Case(contract: "photo, not an image: \"File is not a valid image format (...)\"",
                 expected: ErrorExpectation(400, "INVALID_FILE_FORMAT", field: .named("file"),
                                            message: "File is not a valid image format (JPEG, PNG, GIF, WebP, BMP, TIFF, HEIC, HEIF)"),
                 request: photo(authorization: { id, password in basic("\(id):\(password)") }, bytes: Data("just some text, no image".utf8))),
        ]
    }

    /// The 409 contract (two requests: a create, then the same microchip again).
    package static let duplicate = "create, duplicate microchip: \"An entity with this value already exists\""

    package func contracts(in session: ContractSession) -> [String] { (Self.createCases + Self.photoCases).map(\.contract) + [Self.duplicate] }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        let photoCases = Self.photoCases

        // 409: the same microchip twice.
        let first = backend.basePayload()
        switch try await backend.create(first) {
        case .failure(let setup):
            backend.recordSetupFailure([Self.duplicate], setup, what: "creating an announcement")
        case .success:
            var second = backend.basePayload()
            second["microchipNumber"] = first["microchipNumber"]
            let expected = ErrorExpectation(409, "CONFLICT", field: .named("microchipNumber"), message: "An entity with this value already exists")
            let answer = try await backend.exchange(BackendTarget.createRequest(.object(second)))
            backend.record(Self.duplicate, backend.problem(answer.response, expected), answer, expected: expected.description)
        }

        try await backend.forEach(Self.createCases) { item throws(GroupStop) in
            let answer = try await backend.exchange(item.request(backend.basePayload(), nil, ""))
            backend.record(item.contract, backend.problem(answer.response, item.expected), answer, expected: item.expected.description)
        }

        let created: GroupBackend.Created
        switch try await backend.createBase() {
        case .failure(let setup):
            backend.recordSetupFailure(photoCases.map(\.contract), setup, what: "creating an announcement for the photo cases")
            return
        case .success(let value): created = value
        }
        try await backend.forEach(photoCases) { item throws(GroupStop) in
            let request = item.request(JSONObject(), created.path, created.password)
            if item.sendsDecoy { backend.target.transport.secrets.markDecoys(in: request) }
            let answer = try await backend.exchange(request)
            backend.record(
                item.contract, backend.problem(answer.response, item.expected), answer, expected: item.expected.description,
                password: created.password)
        }
    }
}
