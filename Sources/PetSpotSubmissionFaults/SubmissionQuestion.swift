import Foundation
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// The questions of protocol version 2 (sut-protocol.md, "Submission"): the runner drives the
/// app's own submission code through one report at a time.
package enum SubmissionQuestion {
    /// `submit`: fill the flow with the case's inputs, then run the submission against `baseURL`
    /// with `requestTimeout` seconds per request, reading the photo's bytes from `photoPath`.
    package static func submit(id: Int, _ flowCase: FlowCase, baseURL: URL, requestTimeout: Double, photoPath: String) -> JSONValue {
        .object(JSONObject([
            ("v", 2), ("id", .number(JSONNumber(id))), ("op", "submit"), ("flow", .string(flowCase.flow.rawValue)),
            ("context", flowCase.context.json), ("inputs", flowCase.inputs.json),
            ("baseURL", .string(baseURL.absoluteString)),
            ("requestTimeout", .number(JSONNumber(literal: ContractReport.plainNumber(requestTimeout)) ?? JSONNumber(requestTimeout))),
            ("photoPath", .string(photoPath)),
        ]))
    }

    /// `tryAgain` on the alert of report `report` (or the submit button again after a Cancel).
    package static func tryAgain(id: Int, report: Int) -> JSONValue {
        .object(JSONObject([("v", 2), ("id", .number(JSONNumber(id))), ("op", "tryAgain"), ("report", .number(JSONNumber(report)))]))
    }

    /// `cancel` on the alert of report `report`.
    package static func cancel(id: Int, report: Int) -> JSONValue {
        .object(JSONObject([("v", 2), ("id", .number(JSONNumber(id))), ("op", "cancel"), ("report", .number(JSONNumber(report)))]))
    }
}
