import Foundation
import PetSpotJSON
import PetSpotModel
import PetSpotFlowGenerators
import PetSpotReport

extension FlowCase {
    /// The question object of the adapter protocol (version 1) with id `id`.
    public func question(id: Int) -> JSONValue {
        .object(JSONObject([
            ("v", 1), ("id", .number(JSONNumber(id))), ("flow", .string(flow.rawValue)),
            ("context", context.json), ("inputs", inputs.json),
        ]))
    }
}
