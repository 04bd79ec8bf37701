import PetSpotJSON

/// `minProperties`: an object must have at least this many members.
final class MinPropertiesKeyword: CountLimitKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "minProperties"
    static let vocabulary: Vocabularies? = .validation

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        switch instance {
        case .object(let object): object.count >= limit
        default: true
        }
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .object(let object) = copy instance, object.count < limit else { return true }
        return evaluator.report(location, "the object has \(object.count) properties, fewer than the \(limit) required")
    }
}
