import PetSpotJSON

/// `$ref`: the instance must be valid against the referenced schema (in this document or the
/// registry; a forwarding node when the reference closes a cycle).
final class RefKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "$ref"
    static let vocabulary: Vocabularies? = nil
    /// The referenced schema.
    let target: SchemaNode
    let location: KeywordLocation

    init(target: SchemaNode, location: KeywordLocation) {
        self.target = target
        self.location = location
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> RefKeyword? {
        guard case .string(let reference) = value else { throw schema.fail(name, "$ref must be a string") }
        let target = try schema.compiler.resolve(reference, base: schema.base, at: schema.location)
        return RefKeyword(target: try schema.compiler.node(at: target, vocabularies: nil), location: schema.location(of: name))
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        try evaluator.isValid(target, instance)
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        try evaluator.validate(target, instance, location, into: evaluated)
    }
}
