import PetSpotJSON

/// `anyOf`: the instance must be valid against at least one subschema. The errors of failed
/// branches are kept only when every branch fails, after a summary.
final class AnyOfKeyword: SubschemaArrayKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "anyOf"
    static let vocabulary: Vocabularies? = .applicator

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        for position in nodes.indices where try evaluator.isValid(nodes, position, instance) { return true }
        return false
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        let mark = evaluator.errorCount
        var anyValid = false
        // With annotations asked for, every branch runs: each valid one contributes.
        for position in nodes.indices where try evaluator.validate(nodes[position], instance, location, .index(position), into: evaluated) {
            anyValid = true
            if evaluated == nil { break }
        }
        if anyValid {
            evaluator.discardErrors(since: mark)
            return true
        }
        evaluator.reportSummary(location, "\(Evaluator.describe(instance)) is not valid against any of the \(nodes.count) subschemas", before: mark)
        return false
    }
}
