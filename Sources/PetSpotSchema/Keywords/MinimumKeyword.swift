import PetSpotJSON

/// `minimum`: a number must be at least the limit.
final class MinimumKeyword: NumericBoundKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "minimum"
    static let vocabulary: Vocabularies? = .validation

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        switch instance {
        case .number(let number): bound.compare(number) >= 0
        default: true
        }
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .number(let number) = copy instance, bound.compare(number) < 0 else { return true }
        return evaluator.report(location, "\(number) is less than the minimum \(bound.limit)")
    }
}
