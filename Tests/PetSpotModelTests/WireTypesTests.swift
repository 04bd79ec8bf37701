import Foundation
import PetSpotJSON
import Testing
@testable import PetSpotModel

@Suite("Wire types")
struct WireTypesTests {
    @Test("create response decodes with its password")
    func createResponse() throws {
        let response = try CreateAnnouncementResponse(json: ScriptedTransport.createdBody)
        #expect(response.managementPassword == "482913")
        #expect(response.announcement.status == .active)
        #expect(response.announcement.photoUrl == nil)
        #expect(response.announcement.age == 3)
    }

    @Test("decoding errors name the offending key", arguments: [
        ("managementPassword", JSONValue.string("12345"), "managementPassword"),
        ("status", JSONValue.string("LOST"), "status"),
        ("locationLatitude", JSONValue.string("52"), "locationLatitude"),
        ("age", JSONValue.number(JSONNumber(literal: "1.5")!), "age"),
        ("surprise", JSONValue.bool(true), "surprise"),
    ])
    func namedErrors(key: String, value: JSONValue, expectedPath: String) {
        var body = ScriptedTransport.createdBody.objectValue!
        body[key] = value
        do {
            _ = try CreateAnnouncementResponse(json: .object(body))
            Issue.record("should not decode")
        } catch {
            #expect(error.keyPath == expectedPath)
        }
    }

    @Test("an announcement must not carry the management password")
    func announcementRefusesPassword() {
        #expect(throws: WireDecodingError(keyPath: "managementPassword", reason: "unexpected key")) {
            try Announcement(json: ScriptedTransport.createdBody)
        }
    }

    @Test("missing keys are named")
    func missingKey() {
        var body = ScriptedTransport.createdBody.objectValue!
        body["id"] = nil
        #expect(throws: WireDecodingError(keyPath: "id", reason: "missing")) {
            try CreateAnnouncementResponse(json: .object(body))
        }
    }

    @Test("error envelope decodes and re-encodes; nested keys are named")
    func errorEnvelope() throws {
        let json: JSONValue = ["error": ["requestId": "r", "code": "INVALID_FIELD", "message": "m", "field": "photoUrl"]]
        let envelope = try ErrorEnvelope(json: json)
        #expect(envelope.field == "photoUrl" && envelope.code == "INVALID_FIELD")
        #expect(envelope.json == json)
        #expect(throws: WireDecodingError(keyPath: "error.code", reason: "missing")) {
            try ErrorEnvelope(json: ["error": ["requestId": "r", "message": "m"]])
        }
        #expect(throws: WireDecodingError(keyPath: "error", reason: "expected an object, found string")) {
            try ErrorEnvelope(json: ["error": "nope"])
        }
    }
}
