import Foundation
import PetSpotJSON
import Testing
@testable import PetSpotModel

@Suite("Reference model and adapter inputs")
struct ReferenceModelTests {
    let context = Fixtures.context

    @Test("valid inputs submit the expected payload in both flows")
    func submits() {
        for flow in ReportFlowKind.allCases {
            let outcome = ReferenceModel.evaluate(flow: flow, inputs: Fixtures.validInputs(flow), context: context)
            guard case .submitted(let payload) = outcome else {
                Issue.record("\(flow) should submit: \(outcome)")
                continue
            }
            #expect(payload["status"] == .string(flow.status.wireValue))
        }
    }

    @Test("the first blocking step and all its invalid fields are reported")
    func blocks() {
        var inputs = Fixtures.validInputs(.missing)
        inputs[text: .age] = "41"
        inputs[text: .longitude] = "0x1p3"
        inputs[text: .email] = "bad"
        #expect(ReferenceModel.evaluate(flow: .missing, inputs: inputs, context: context)
            == .blocked(step: .description, fields: [.age, .longitude]))
        var found = Fixtures.validInputs(.found)
        found.photo = nil
        #expect(ReferenceModel.evaluate(flow: .found, inputs: found, context: context)
            == .blocked(step: .photo, fields: [.photo]))
    }

    @Test("inputs round-trip through the protocol's JSON and refuse bad keys by name")
    func inputsJSON() throws {
        let inputs = Fixtures.validInputs(.found)
        var metadataOnly = inputs
        metadataOnly.photo = PhotoAttachment(fileName: "rex.png", mimeType: "image/png", byteCount: Fixtures.pngBytes.count)
        #expect(try ReportInputs(json: inputs.json) == metadataOnly)
        let question = try JSONValue.parse(#"{"species": "DOG", "age": null, "sex": "MALE"}"#)
        let decoded = try ReportInputs(json: question)
        #expect(decoded.species == .dog && decoded[text: .age] == nil)
        #expect(throws: WireDecodingError(keyPath: "inputs.species", reason: "\"dog\" is not one of DOG, CAT, BIRD, RABBIT, OTHER")) {
            try ReportInputs(json: ["species": "dog"])
        }
        #expect(throws: WireDecodingError(keyPath: "inputs.photoUrl", reason: "unexpected key")) {
            try ReportInputs(json: ["photoUrl": "x"])
        }
        #expect(throws: WireDecodingError(keyPath: "inputs.photo.byteCount", reason: "missing")) {
            try ReportInputs(json: ["photo": ["fileName": "a", "mimeType": "image/png"]])
        }
    }

    @Test("context decodes a zone and an instant")
    func contextJSON() throws {
        let decoded = try ReportContext(json: ["timeZone": "Europe/Warsaw", "now": "2026-11-21T12:00:00Z"])
        #expect(decoded == context)
        #expect(decoded.json == ["timeZone": "Europe/Warsaw", "now": "2026-11-21T12:00:00Z"])
        #expect(throws: WireDecodingError(keyPath: "context.timeZone", reason: "unknown time zone \"Mars/Olympus\"")) {
            try ReportContext(json: ["timeZone": "Mars/Olympus", "now": "2026-11-21T12:00:00Z"])
        }
    }
}
