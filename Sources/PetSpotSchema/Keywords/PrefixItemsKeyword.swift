import PetSpotJSON

/// `prefixItems`: each of the array's first items must be valid against the subschema at its
/// position.
final class PrefixItemsKeyword: SubschemaArrayKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "prefixItems"
    static let vocabulary: Vocabularies? = .applicator

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        guard case .array(let items) = copy instance else { return true }
        for position in 0..<min(items.count, nodes.count) where try !evaluator.isValid(nodes, position, items[position]) { return false }
        return true
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .array(let items) = copy instance else { return true }
        var valid = true
        let count = min(items.count, nodes.count)
        for position in 0..<count where try !evaluator.validate(nodes[position], items[position], location, .index(position), at: .index(position)) {
            valid = false
            if !evaluator.collectErrors { return false }
        }
        if let evaluated { evaluated.itemPrefix = max(evaluated.itemPrefix, count) }
        return valid
    }
}
