import Foundation
import PetSpotJSON
import PetSpotModel
import PetSpotFlowGenerators
import PetSpotReport

/// The reference model as an oracle: answers exactly what ``ReferenceModel/evaluate(flow:inputs:context:)`` says.
public struct ReferenceOracle: FlowOracle {
    /// Creates the oracle.
    public init() {}

    /// `reference model`.
    public var name: String { "reference model" }

    /// The reference model's answer.
    public func answer(_ flowCase: FlowCase) -> FlowExchange {
        let answer = AdapterAnswer(ReferenceModel.evaluate(flow: flowCase.flow, inputs: flowCase.inputs, context: flowCase.context))
        return FlowExchange(
            question: flowCase.question(id: 0).serialized(), id: 0, result: .success(answer),
            answerLine: answer.json(id: 0).serialized())
    }
}
