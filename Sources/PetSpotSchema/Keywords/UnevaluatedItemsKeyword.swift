import PetSpotJSON

/// `unevaluatedItems`: every item that no sibling keyword (nor a valid subschema of one)
/// evaluated must be valid against the subschema. It runs last and reads its siblings'
/// annotations, so its schema always runs ``validate(_:_:_:)`` with them.
final class UnevaluatedItemsKeyword: SubschemaKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "unevaluatedItems"
    static let vocabulary: Vocabularies? = .unevaluated
    static let order = KeywordOrder.last
    static let needsAnnotations = true

    /// Without annotations there is nothing to judge: true. (Not reached: a schema with this
    /// keyword collects annotations, so it runs ``validate(_:_:_:)``.)
    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        try validate(instance, &evaluator, nil)
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .array(let items) = copy instance, let evaluated else { return true }
        if evaluated.allItems { return true }
        var valid = true
        var position = evaluated.itemPrefix
        while position < items.count {
            defer { position += 1 }
            if evaluated.itemIndexes.contains(position) { continue }
            if try !evaluator.validate(node, items[position], location, at: .index(position)) {
                valid = false
                if !evaluator.collectErrors { return false }
            }
        }
        if valid { evaluated.allItems = true }
        return valid
    }
}
