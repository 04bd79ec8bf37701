import Foundation
import PetSpotHTTP
import PetSpotJSON
import Testing
@testable import PetSpotMockBackend
import PetSpotContractKit

@Suite("POST /api/v1/announcements")
struct MockBackendCreateTests {
    @Test("a valid create answers 201 with the stored announcement and a management password", arguments: BackendProfile.allCases)
    func happyPath(profile: BackendProfile) throws {
        let backend = makeBackend(profile)
        let body = createBody()
        let response = backend.answer(createRequest(body))
        #expect(response.status == 201)
        #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
        let answer = try #require(json(response).objectValue)
        #expect(answer.keys == ["id", "petName", "species", "breed", "sex", "age", "description", "microchipNumber",
                                "locationLatitude", "locationLongitude", "lastSeenDate", "email", "phone", "photoUrl",
                                "status", "reward", "createdAt", "updatedAt", "managementPassword"])
        #expect(response.bodyText == String(decoding: JSONValue.object(answer).serializedBytes(), as: UTF8.self), "the answer is the object's JSON, as written")
        let id = try #require(answer["id"]?.stringValue)
        #expect(UUID(uuidString: id) != nil && id == id.lowercased())
        #expect(Array(id.utf8)[14] == UInt8(ascii: "4"), "UUID version 4")
        let password = try #require(answer["managementPassword"]?.stringValue)
        #expect(password.count == 6 && (100_000...999_999).contains(Int(password) ?? 0))
        for name in ["petName", "species", "breed", "sex", "description", "microchipNumber", "email", "phone",
                     "lastSeenDate", "status", "reward"] {
            #expect(answer[name] == body[name], "\(name)")
        }
        #expect(answer["age"] == 3)
        #expect(answer["locationLatitude"] == 52.2297)
        #expect(answer["photoUrl"] == .null)
        #expect(answer["createdAt"] == "2025-06-15T12:00:00.000Z")
        #expect(answer["updatedAt"] == "2025-06-15T12:00:00.000Z")
        #expect(backend.storedAnnouncementCount == 1)
        #expect(backend.verifiesManagementPassword(password, id: id))
        #expect(!backend.verifiesManagementPassword(password == "123456" ? "654321" : "123456", id: id))
        let details = backend.answer(HTTPRequest(method: "GET", target: "/api/v1/announcements/\(id)"))
        #expect(details.status == 200)
        #expect(!details.bodyText.contains(password))
        #expect(json(details)["managementPassword"] == nil)
    }

    @Test("optional fields that were not sent come back as null", arguments: BackendProfile.allCases)
    func absentOptionals(profile: BackendProfile) throws {
        let backend = makeBackend(profile)
        let response = backend.answer(createRequest(createBody(removing: ["petName", "breed", "age", "description",
                                                                          "microchipNumber", "phone", "reward"])))
        #expect(response.status == 201)
        let answer = json(response)
        for name in ["petName", "breed", "age", "description", "microchipNumber", "phone", "reward"] {
            #expect(answer[name] == .null, "\(name)")
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let changes: [(String, JSONValue)]
        let removing: [String]
        let status: Int
        let code: String
        let field: String?
        var testDescription: String { label }

        init(_ label: String, _ changes: [(String, JSONValue)] = [], removing: [String] = [], status: Int = 400,
             _ code: String, _ field: String?) {
            self.label = label
            self.changes = changes
            self.removing = removing
            self.status = status
            self.code = code
            self.field = field
        }
    }

    /// Rejections shared by both profiles, one per documented rule.
    static let sharedRejections: [Case] = [
        Case("species absent", removing: ["species"], "MISSING_VALUE", "species"),
        Case("species blank", [("species", "   ")], "MISSING_VALUE", "species"),
        Case("species null", [("species", .null)], "INVALID_FORMAT", "species"),
        Case("species a number", [("species", 1)], "INVALID_FORMAT", "species"),
        Case("sex absent", removing: ["sex"], "MISSING_VALUE", "sex"),
        Case("sex empty", [("sex", "")], "MISSING_VALUE", "sex"),
        Case("lastSeenDate absent", removing: ["lastSeenDate"], "MISSING_VALUE", "lastSeenDate"),
        Case("locationLatitude absent", removing: ["locationLatitude"], "MISSING_VALUE", "locationLatitude"),
        Case("locationLongitude absent", removing: ["locationLongitude"], "MISSING_VALUE", "locationLongitude"),
        Case("status absent", removing: ["status"], "MISSING_VALUE", "status"),
        Case("petName null", [("petName", .null)], "INVALID_FORMAT", "petName"),
        Case("breed a number", [("breed", 5)], "INVALID_FORMAT", "breed"),
        Case("reward null", [("reward", .null)], "INVALID_FORMAT", "reward"),
        Case("age 0", [("age", 0)], "INVALID_FORMAT", "age"),
        Case("age negative", [("age", -2)], "INVALID_FORMAT", "age"),
        Case("age 1.5", [("age", 1.5)], "INVALID_FORMAT", "age"),
        Case("age a string", [("age", "3")], "INVALID_FORMAT", "age"),
        Case("age null", [("age", .null)], "INVALID_FORMAT", "age"),
        Case("microchip letters", [("microchipNumber", "12A4")], "INVALID_FORMAT", "microchipNumber"),
        Case("microchip empty", [("microchipNumber", "")], "INVALID_FORMAT", "microchipNumber"),
        Case("microchip blank", [("microchipNumber", "  ")], "INVALID_FORMAT", "microchipNumber"),
        Case("microchip a number", [("microchipNumber", 123)], "INVALID_FORMAT", "microchipNumber"),
        Case("latitude 90.5", [("locationLatitude", 90.5)], "INVALID_FORMAT", "locationLatitude"),
        Case("latitude -91", [("locationLatitude", -91)], "INVALID_FORMAT", "locationLatitude"),
        Case("latitude a string", [("locationLatitude", "52")], "INVALID_FORMAT", "locationLatitude"),
        Case("longitude 180.1", [("locationLongitude", 180.1)], "INVALID_FORMAT", "locationLongitude"),
        Case("longitude null", [("locationLongitude", .null)], "INVALID_FORMAT", "locationLongitude"),
        Case("email without at", [("email", "owner.example.com")], "INVALID_FORMAT", "email"),
        Case("email without dot in domain", [("email", "owner@example")], "INVALID_FORMAT", "email"),
        Case("email with two ats", [("email", "a@b@c.de")], "INVALID_FORMAT", "email"),
        Case("email with space", [("email", "own er@example.com")], "INVALID_FORMAT", "email"),
        Case("email empty", [("email", "")], "INVALID_FORMAT", "email"),
        Case("email too long", [("email", .string(String(repeating: "a", count: 250) + "@b.cd"))], "INVALID_FORMAT", "email"),
        Case("phone without digits", [("phone", "call me")], "INVALID_FORMAT", "phone"),
        Case("phone empty", [("phone", "")], "INVALID_FORMAT", "phone"),
        Case("date with slashes", [("lastSeenDate", "2025/06/01")], "INVALID_FORMAT", "lastSeenDate"),
        Case("date month 13", [("lastSeenDate", "2025-13-01")], "INVALID_FORMAT", "lastSeenDate"),
        Case("date month 00", [("lastSeenDate", "2025-00-10")], "INVALID_FORMAT", "lastSeenDate"),
        Case("date day 00", [("lastSeenDate", "2025-02-00")], "INVALID_FORMAT", "lastSeenDate"),
        Case("date day 32", [("lastSeenDate", "2025-01-32")], "INVALID_FORMAT", "lastSeenDate"),
        Case("date tomorrow", [("lastSeenDate", "2025-06-16")], "INVALID_FORMAT", "lastSeenDate"),
        Case("date with time", [("lastSeenDate", "2025-06-01T00:00:00Z")], "INVALID_FORMAT", "lastSeenDate"),
        Case("status CLOSED", [("status", "CLOSED")], "INVALID_FORMAT", "status"),
        Case("status lower case", [("status", "missing")], "INVALID_FORMAT", "status"),
        Case("unknown key photoUrl", [("photoUrl", "/x.png")], "INVALID_FIELD", "photoUrl"),
        Case("unknown key id", [("id", "abc")], "INVALID_FIELD", "id"),
        Case("unknown key managementPassword", [("managementPassword", "123456")], "INVALID_FIELD", "managementPassword"),
        Case("unknown key caregiverPhone", [("caregiverPhone", "123")], "INVALID_FIELD", "caregiverPhone"),
        Case("no contact", removing: ["email", "phone"], "MISSING_CONTACT", "contact"),
    ]

    @Test("each documented rejection, strict profile", arguments: sharedRejections)
    func strictRejections(_ testCase: Case) {
        let response = makeBackend(.strict).answer(createRequest(createBody(testCase.changes, removing: testCase.removing)))
        expectError(response, testCase.status, testCase.code, field: testCase.field)
    }

    @Test("each documented rejection, production profile", arguments: sharedRejections)
    func productionRejections(_ testCase: Case) {
        let response = makeBackend(.production).answer(createRequest(createBody(testCase.changes, removing: testCase.removing)))
        expectError(response, testCase.status, testCase.code, field: testCase.field)
    }

    @Test("empty or blank optional text: production accepts and echoes null, strict rejects",
          arguments: ["petName", "breed", "description", "reward"])
    func emptyOptionalText(field: String) {
        let production = makeBackend(.production).answer(createRequest(createBody([(field, "")])))
        #expect(production.status == 201)
        #expect(json(production)[field] == .null)
        let blank = makeBackend(.production).answer(createRequest(createBody([(field, "  ")])))
        #expect(blank.status == 201)
        #expect(json(blank)[field] == "  ")
        expectError(makeBackend(.strict).answer(createRequest(createBody([(field, "")]))), 400, "INVALID_FORMAT", field: field)
        expectError(makeBackend(.strict).answer(createRequest(createBody([(field, " \t ")]))), 400, "INVALID_FORMAT", field: field)
    }

    /// One bad value per rule, in the documented order; breaking any two reports the earlier.
    static let orderedBreakers: [(String, JSONValue?)] = [
        ("petName", 1), ("species", nil), ("breed", 2), ("sex", nil), ("age", 0), ("description", 3),
        ("microchipNumber", "x"), ("locationLatitude", nil), ("locationLongitude", nil), ("email", "bad"),
        ("phone", "none"), ("lastSeenDate", nil), ("status", "CLOSED"), ("reward", 4),
    ]

    @Test("with several problems the first in the documented order is reported", arguments: BackendProfile.allCases)
    func reportingOrder(profile: BackendProfile) {
        let backend = makeBackend(profile)
        let breakers = MockBackendCreateTests.orderedBreakers
        for first in breakers.indices {
            for second in breakers.indices where second > first {
                var body = createBody()
                for index in [second, first] {
                    body[breakers[index].0] = nil
                    if let value = breakers[index].1 { body[breakers[index].0] = value }
                }
                body["unknownKey"] = "x"
                body["email"] = first == 9 || second == 9 ? body["email"] : nil
                body["phone"] = first == 10 || second == 10 ? body["phone"] : nil
                let response = backend.answer(createRequest(body))
                #expect(json(response)["error"]?["field"]?.stringValue == breakers[first].0,
                        "breaking \(breakers[first].0) and \(breakers[second].0)")
            }
        }
        // Fields before unknown keys, unknown keys (first in body order) before the contact rule.
        var body = createBody(removing: ["email", "phone"])
        body["zeta"] = 1
        body["alpha"] = 2
        expectError(backend.answer(createRequest(body)), 400, "INVALID_FIELD", field: "zeta")
        body["status"] = "CLOSED"
        expectError(backend.answer(createRequest(body)), 400, "INVALID_FORMAT", field: "status")
    }

    @Test("body problems before field rules", arguments: BackendProfile.allCases)
    func bodyShape(profile: BackendProfile) {
        let backend = makeBackend(profile)
        expectError(backend.answer(createRequest(raw: [])), 400, "MISSING_VALUE", field: nil)
        expectError(backend.answer(createRequest(raw: Array("{}".utf8), contentType: nil)), 400, "MISSING_VALUE", field: nil)
        expectError(backend.answer(createRequest(raw: Array("{}".utf8), contentType: "text/plain")), 400, "MISSING_VALUE", field: nil)
        expectError(backend.answer(createRequest(raw: Array("[1,2]".utf8))), 400, "INVALID_FORMAT", field: nil)
        let big = createBody([("description", .string(String(repeating: "a", count: 103_000)))])
        expectError(backend.answer(createRequest(big)), 413, "PAYLOAD_TOO_LARGE", field: nil)
        let charset = createRequest(raw: JSONValue.object(createBody()).serializedBytes(), contentType: "application/json; charset=utf-8")
        #expect(backend.answer(charset).status == 201)
    }

    @Test("malformed JSON: strict answers 400 INVALID_FORMAT, production 500")
    func malformedJSON() {
        for text in ["{\"species\": ", "{'a':1}", "not json", "{\"a\":1,}", "\"just a string\"", "42"] {
            expectError(makeBackend(.strict).answer(createRequest(raw: Array(text.utf8))), 400, "INVALID_FORMAT", field: nil)
            expectError(makeBackend(.production).answer(createRequest(raw: Array(text.utf8))), 500, "INTERNAL_SERVER_ERROR", field: nil)
        }
        // Duplicate keys: JSON.parse keeps the last; strict refuses.
        let duplicate = #"{"species":"CAT","species":"DOG","sex":"MALE","locationLatitude":1,"locationLongitude":1,"lastSeenDate":"2025-01-01","status":"FOUND","phone":"1"}"#
        expectError(makeBackend(.strict).answer(createRequest(raw: Array(duplicate.utf8))), 400, "INVALID_FORMAT", field: nil)
        let production = makeBackend(.production).answer(createRequest(raw: Array(duplicate.utf8)))
        #expect(production.status == 201)
        #expect(json(production)["species"] == "DOG")
    }

    @Test("values are validated trimmed but stored and echoed as sent", arguments: BackendProfile.allCases)
    func trimming(profile: BackendProfile) {
        let changes: [(String, JSONValue)] = [
            ("petName", " Rex "), ("microchipNumber", .string(" \(uniqueMicrochip()) ")), ("email", " a@b.co "),
            ("lastSeenDate", " 2025-06-01 "), ("status", " FOUND "),
        ]
        let response = makeBackend(profile).answer(createRequest(createBody(changes)))
        #expect(response.status == 201)
        let answer = json(response)
        for (name, value) in changes { #expect(answer[name] == value, "\(name)") }
    }

    @Test("JavaScript Date semantics for lastSeenDate")
    func lastSeenDate() {
        let backend = makeBackend(.strict)
        for accepted in ["2025-02-30", "2025-02-31", "2024-02-29", "2025-06-15", "0001-01-01", "2025-04-31"] {
            #expect(backend.answer(createRequest(createBody([("lastSeenDate", .string(accepted))]))).status == 201, "\(accepted)")
        }
        // 2025-06-31 rolls over to July 1, after "now" (2025-06-15).
        for rejected in ["2025-06-31", "2025-6-01", "25-06-01", "2025-06-1a", "", "2026-01-01"] {
            expectError(backend.answer(createRequest(createBody([("lastSeenDate", .string(rejected))]))), 400,
                        "INVALID_FORMAT", field: "lastSeenDate")
        }
        #expect(JavaScript.dateOnlyMilliseconds("2025-02-30") == JavaScript.dateOnlyMilliseconds("2025-03-02"))
        #expect(JavaScript.dateOnlyMilliseconds("1970-01-01") == 0)
    }

    @Test("numbers come back as JavaScript prints them; 1.0 is an integer age")
    func numbers() {
        let response = makeBackend(.strict).answer(createRequest(raw: Array("""
            {"species":"DOG","sex":"MALE","age":1.0,"locationLatitude":52.50,"locationLongitude":1e1,\
            "lastSeenDate":"2025-01-01","status":"FOUND","phone":"5"}
            """.utf8)))
        #expect(response.status == 201)
        #expect(response.bodyText.contains(#""age":1,"#))
        #expect(response.bodyText.contains(#""locationLatitude":52.5,"#))
        #expect(response.bodyText.contains(#""locationLongitude":10,"#))
        #expect(JavaScript.numberText(1e21) == "1e+21")
        #expect(JavaScript.numberText(1e20) == "100000000000000000000")
        #expect(JavaScript.numberText(0.000001) == "0.000001")
        #expect(JavaScript.numberText(1e-7) == "1e-7")
        #expect(JavaScript.numberText(-12.25) == "-12.25")
        #expect(JavaScript.numberText(123456789.125) == "123456789.125")
        #expect(JavaScript.numberText(1.5e-10) == "1.5e-10")
    }

    @Test("text fields come back with HTML stripped", arguments: BackendProfile.allCases)
    func htmlStripping(profile: BackendProfile) {
        let response = makeBackend(profile).answer(createRequest(createBody([
            ("petName", "<b>Rex</b>"), ("species", "DOG<script>alert(1)</script>"), ("breed", "a > b"),
            ("description", "left <unclosed tag"), ("reward", "<style>p{}</style>100"),
        ])))
        #expect(response.status == 201)
        let answer = json(response)
        #expect(answer["petName"] == "Rex")
        #expect(answer["species"] == "DOG")
        #expect(answer["breed"] == "a &gt; b")
        #expect(answer["description"] == "left ")
        #expect(answer["reward"] == "100")
    }

    @Test("409 CONFLICT for a microchip number already stored", arguments: BackendProfile.allCases)
    func duplicateMicrochip(profile: BackendProfile) {
        let backend = makeBackend(profile)
        let chip = uniqueMicrochip()
        #expect(backend.answer(createRequest(createBody([("microchipNumber", .string(chip))]))).status == 201)
        let error = expectError(backend.answer(createRequest(createBody([("microchipNumber", .string(chip))]))), 409,
                                "CONFLICT", field: "microchipNumber")
        #expect(error?["message"] == "An entity with this value already exists")
        // Validation comes first: an invalid body with a taken chip reports the field problem.
        expectError(backend.answer(createRequest(createBody([("microchipNumber", .string(chip)), ("status", "X")]))), 400,
                    "INVALID_FORMAT", field: "status")
        // Padded with spaces: the same chip in strict (compared trimmed), a new value in production.
        let padded = backend.answer(createRequest(createBody([("microchipNumber", .string(" \(chip)"))])))
        #expect(padded.status == (profile == .strict ? 409 : 201))
        #expect(backend.storedAnnouncementCount == (profile == .strict ? 1 : 2))
    }

    @Test("concurrent creates with one new microchip: one 201; strict answers the rest 409, production 409 or the unique index's 500",
          arguments: BackendProfile.allCases)
    func concurrentDuplicates(profile: BackendProfile) async {
        let backend = makeBackend(profile)
        for _ in 0..<20 {
            let request = createRequest(createBody())
            let seen = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { backend.answer(request).status } }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(seen.filter { $0 == 201 }.count == 1, "\(seen)")
            #expect(seen.allSatisfy { $0 == 201 || $0 == 409 || (profile == .production && $0 == 500) }, "\(seen)")
        }
        #expect(backend.storedAnnouncementCount == 20)
    }
}
