import Foundation
import PetSpotJSON
import PetSpotModel
import PetSpotFlowGenerators
import PetSpotReport

/// One question asked and what came back.
public struct FlowExchange: Sendable, Hashable {
    /// The question line as sent (or as it would be sent, for the reference model).
    public var question: String
    /// The id the question carried.
    public var id: Int
    /// The decoded answer, or why there is none.
    public var result: Result<AdapterAnswer, AdapterProtocolError>
    /// The raw answer line (`nil` when nothing came).
    public var answerLine: String?

    /// Creates an exchange.
    public init(question: String, id: Int, result: Result<AdapterAnswer, AdapterProtocolError>, answerLine: String?) {
        self.question = question
        self.id = id
        self.result = result
        self.answerLine = answerLine
    }
}
