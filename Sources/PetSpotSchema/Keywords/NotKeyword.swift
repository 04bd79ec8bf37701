import PetSpotJSON

/// `not`: the instance must not be valid against the subschema.
final class NotKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "not"
    static let vocabulary: Vocabularies? = .applicator
    let node: SchemaNode
    let location: KeywordLocation

    init(node: SchemaNode, location: KeywordLocation) {
        self.node = node
        self.location = location
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> NotKeyword? {
        NotKeyword(node: try schema.subschema(name), location: schema.location(of: name))
    }

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
