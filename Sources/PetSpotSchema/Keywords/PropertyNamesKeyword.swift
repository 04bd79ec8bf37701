import PetSpotJSON

/// `propertyNames`: every member name of the object, as a string, must be valid against the subschema.
final class PropertyNamesKeyword: SubschemaKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "propertyNames"
    static let vocabulary: Vocabularies? = .applicator

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        guard case .object(let object) = copy instance else { return true }
        for key in object.keys where try !evaluator.isValid(node, .string(key)) { return false }
        return true
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .object(let object) = copy instance else { return true }
        var valid = true
        for key in object.keys where try !evaluator.validate(node, .string(key), location, at: .key(key)) {
            valid = false
            if !evaluator.collectErrors { return false }
        }
        return valid
    }
}
