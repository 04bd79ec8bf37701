import PetSpotJSON

/// `minItems`: an array must have at least this many items.
final class MinItemsKeyword: CountLimitKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "minItems"
    static let vocabulary: Vocabularies? = .validation

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        switch instance {
        case .array(let items): items.count >= limit
        default: true
        }
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .array(let items) = copy instance, items.count < limit else { return true }
        return evaluator.report(location, "the array has \(items.count) items, fewer than the \(limit) required")
    }
}
