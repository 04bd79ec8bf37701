import Foundation
import PetSpotJSON
import Testing
@testable import PetSpotModel

@Suite("Payload")
struct PayloadTests {
    let context = Fixtures.context

    @Test("Missing payload: every key, status MISSING, trimmed, sanitized, deterministic order")
    func missingPayload() throws {
        let payload = try CreateAnnouncementRequest(
            flow: .missing, form: ReportForm(entering: Fixtures.validInputs(.missing), in: .missing),
            context: context)
        #expect(payload.json.serialized() == """
            {"lastSeenDate":"2026-11-20","species":"DOG","sex":"MALE","locationLatitude":52.2297,\
            "locationLongitude":21.0122,"phone":"+48600700800","email":"owner@example.com","status":"MISSING",\
            "microchipNumber":"123456789012345","petName":"Rex","breed":"Beagle","age":3,\
            "description":"Red collar","reward":"$50"}
            """)
    }

    @Test("Found payload: status FOUND, no Missing-only keys, caregiver phone and address never sent")
    func foundPayload() throws {
        var inputs = Fixtures.validInputs(.found)
        inputs[text: .petName] = "Rex"
        inputs[text: .age] = "3"
        inputs[text: .reward] = "$50"
        let payload = try CreateAnnouncementRequest(
            flow: .found, form: ReportForm(entering: inputs, in: .found), context: context)
        let keys = payload.jsonObject.keys
        #expect(payload.jsonObject["status"] == "FOUND")
        #expect(payload.status == .found)
        for absent in ["petName", "age", "reward", "caregiverPhone", "currentAddress", "photo", "id"] {
            #expect(!keys.contains(absent))
        }
    }

    @Test("optional values are omitted when absent or blank, never null or empty")
    func optionalOmission() throws {
        var inputs = Fixtures.validInputs(.missing)
        inputs[text: .chipNumber] = "abc"
        inputs[text: .petName] = "  "
        inputs[text: .breed] = "\u{FEFF}"
        inputs[text: .age] = " "
        inputs[text: .description] = "\n\t"
        inputs[text: .reward] = nil
        let payload = try CreateAnnouncementRequest(
            flow: .missing, form: ReportForm(entering: inputs, in: .missing), context: context)
        #expect(payload.jsonObject.keys == [
            "lastSeenDate", "species", "sex", "locationLatitude", "locationLongitude", "phone", "email", "status",
        ])
        for member in payload.jsonObject {
            #expect(!member.value.isNull)
            #expect(member.value.stringValue.map { !$0.isEmpty } ?? true)
        }
    }

    @Test("the date is sent as the picked calendar date, whatever the zone")
    func dateNotShifted() throws {
        for zone in ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kathmandu", "UTC"] {
            var inputs = Fixtures.validInputs(.found)
            inputs.lastSeenDate = CalendarDate(iso: "2026-11-20")
            let zoneContext = ReportContext(timeZone: TimeZone(identifier: zone)!, now: context.now)
            let payload = try CreateAnnouncementRequest(
                flow: .found, form: ReportForm(entering: inputs, in: .found), context: zoneContext)
            #expect(payload[.lastSeenDate] == "2026-11-20")
        }
    }

    @Test("building from an invalid form names the first blocking step")
    func invalidFormThrows() {
        var inputs = Fixtures.validInputs(.missing)
        inputs[text: .email] = "nope"
        inputs[text: .latitude] = "91"
        #expect(throws: ReportValidationError(step: .description, fields: [.latitude])) {
            try CreateAnnouncementRequest(
                flow: .missing, form: ReportForm(entering: inputs, in: .missing), context: context)
        }
    }

    @Test("payload decodes back strictly, naming the offending key")
    func payloadDecoding() throws {
        let payload = try CreateAnnouncementRequest(
            flow: .missing, form: ReportForm(entering: Fixtures.validInputs(.missing), in: .missing),
            context: context)
        #expect(try CreateAnnouncementRequest(json: payload.json) == payload)
        var object = payload.jsonObject
        object["caregiverPhone"] = "123"
        #expect(throws: WireDecodingError(keyPath: "caregiverPhone", reason: "unexpected key")) {
            try CreateAnnouncementRequest(json: .object(object))
        }
        object["caregiverPhone"] = nil
        object["age"] = nil
        object["petName"] = .null
        #expect(throws: WireDecodingError(keyPath: "petName", reason: "expected a string, found null")) {
            try CreateAnnouncementRequest(json: .object(object))
        }
    }

    @Test("status maps to the wire and back; CLOSED is never a flow's status")
    func statusMapping() {
        #expect(AnnouncementStatus.active.wireValue == "MISSING")
        #expect(AnnouncementStatus.found.wireValue == "FOUND")
        #expect(AnnouncementStatus.closed.wireValue == "CLOSED")
        for status in AnnouncementStatus.allCases { #expect(AnnouncementStatus(wireValue: status.wireValue) == status) }
        #expect(AnnouncementStatus(wireValue: "missing") == nil)
        #expect(ReportFlowKind.missing.status == .active)
        #expect(ReportFlowKind.found.status == .found)
        #expect(!ReportFlowKind.allCases.map(\.status).contains(.closed))
    }
}
