import PetSpotJSON

/// `exclusiveMaximum`: a number must be below the limit.
final class ExclusiveMaximumKeyword: NumericBoundKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "exclusiveMaximum"
    static let vocabulary: Vocabularies? = .validation

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        switch instance {
        case .number(let number): bound.compare(number) < 0
        default: true
        }
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .number(let number) = copy instance, bound.compare(number) >= 0 else { return true }
        return evaluator.report(location, "\(number) is not less than \(bound.limit)")
    }
}
