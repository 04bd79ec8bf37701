import PetSpotJSON

/// `items`: every item after those of the sibling `prefixItems` must be valid against the subschema.
final class ItemsKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "items"
    static let vocabulary: Vocabularies? = .applicator
    let node: SchemaNode
    /// How many items `prefixItems` covers (0 without it).
    let prefixCount: Int
    let location: KeywordLocation

    init(node: SchemaNode, prefixCount: Int, location: KeywordLocation) {
        self.node = node
        self.prefixCount = prefixCount
        self.location = location
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> ItemsKeyword? {
        var prefixCount = 0
        if case .array(let prefix)? = schema.object["prefixItems"] { prefixCount = prefix.count }
        return ItemsKeyword(node: try schema.subschema(name), prefixCount: prefixCount, location: schema.location(of: name))
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        guard case .array(let items) = copy instance, prefixCount < items.count else { return true }
        for position in prefixCount..<items.count where try !evaluator.isValid(node, items[position]) { return false }
        return true
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .array(let items) = copy instance else { return true }
        var valid = true
        if prefixCount < items.count {
            for position in prefixCount..<items.count where try !evaluator.validate(node, items[position], location, at: .index(position)) {
                valid = false
                if !evaluator.collectErrors { return false }
            }
        }
        evaluated?.allItems = true
        return valid
    }
}
