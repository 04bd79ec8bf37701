import PetSpotJSON

/// `allOf`: the instance must be valid against every subschema.
final class AllOfKeyword: SubschemaArrayKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "allOf"
    static let vocabulary: Vocabularies? = .applicator

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        for position in nodes.indices where try !evaluator.isValid(nodes, position, instance) { return false }
        return true
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        var valid = true
        for position in nodes.indices where try !evaluator.validate(nodes[position], instance, location, .index(position), into: evaluated) {
            valid = false
            if !evaluator.collectErrors { return false }
        }
        return valid
    }
}
