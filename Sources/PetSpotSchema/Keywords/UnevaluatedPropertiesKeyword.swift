import PetSpotJSON

/// `unevaluatedProperties`: every member that no sibling keyword (nor a valid subschema of one)
/// evaluated must be valid against the subschema. It runs last and reads its siblings'
/// annotations, so its schema always runs ``validate(_:_:_:)`` with them.
final class UnevaluatedPropertiesKeyword: SubschemaKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "unevaluatedProperties"
    static let vocabulary: Vocabularies? = .unevaluated
    static let order = KeywordOrder.last
    static let needsAnnotations = true

    /// Without annotations there is nothing to judge: true. (Not reached: a schema with this
    /// keyword collects annotations, so it runs ``validate(_:_:_:)``.)
    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        try validate(instance, &evaluator, nil)
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .object(let object) = copy instance, let evaluated else { return true }
        if evaluated.allProperties { return true }
        var valid = true
        for (key, value) in zip(object.keys, object.values) where !evaluated.properties.contains(key) {
            if node.booleanValue == false {
                valid = false
                evaluator.report(location, "property \"\(key)\" is not allowed (unevaluatedProperties)")
                if !evaluator.collectErrors { return false }
            } else if try !evaluator.validate(node, value, location, at: .key(key)) {
                valid = false
                if !evaluator.collectErrors { return false }
            }
        }
        if valid { evaluated.allProperties = true }
        return valid
    }
}
