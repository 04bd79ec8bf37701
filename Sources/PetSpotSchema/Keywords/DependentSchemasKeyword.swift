import PetSpotJSON

/// `dependentSchemas`: when the object has a member named by a key, the whole object must be
/// valid against that key's subschema.
final class DependentSchemasKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "dependentSchemas"
    static let vocabulary: Vocabularies? = .applicator
    let dependencies: [(name: String, node: SchemaNode)]
    let location: KeywordLocation

    init(dependencies: [(name: String, node: SchemaNode)], location: KeywordLocation) {
        self.dependencies = dependencies
        self.location = location
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> DependentSchemasKeyword? {
        DependentSchemasKeyword(dependencies: try schema.schemaMap(name, value), location: schema.location(of: name))
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        guard case .object(let object) = copy instance else { return true }
        for dependency in dependencies where Evaluator.has(object, dependency.name) {
            if try !evaluator.isValid(dependency.node, instance) { return false }
        }
        return true
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .object(let object) = copy instance else { return true }
        var valid = true
        for dependency in dependencies where Evaluator.has(object, dependency.name) {
            if try !evaluator.validate(dependency.node, instance, location, .key(dependency.name), into: evaluated) {
                valid = false
                if !evaluator.collectErrors { return false }
            }
        }
        return valid
    }
}
