import PetSpotJSON

/// `not`: the instance must not be valid against the subschema.
final class NotKeyword: SubschemaKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "not"
    static let vocabulary: Vocabularies? = .applicator

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        try !evaluator.isValid(node, instance)
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        let mark = evaluator.errorCount
        let nodeValid = try evaluator.validate(node, instance, location)
        evaluator.discardErrors(since: mark)
        if !nodeValid { return true }
        return evaluator.report(location, "\(Evaluator.describe(instance)) must not be valid against the subschema in \"not\"")
    }
}
