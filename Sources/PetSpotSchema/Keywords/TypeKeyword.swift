import PetSpotJSON

/// `type`: the instance must be of one of the named types (`integer` admits any number with a
/// zero fractional part). Runs first: it is the cheapest check that rules out most wrong instances.
final class TypeKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "type"
    static let vocabulary: Vocabularies? = .validation
    static let order = KeywordOrder.first
    let types: InstanceTypes
    let location: KeywordLocation

    init(types: InstanceTypes, location: KeywordLocation) {
        self.types = types
        self.location = location
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> TypeKeyword? {
        var types: InstanceTypes = []
        switch value {
        case .string(let typeName):
            guard let type = InstanceTypes(name: typeName) else { throw schema.fail(name, "unknown type \"\(typeName)\"") }
            types = type
        case .array(let typeNames):
            for typeName in typeNames {
                guard case .string(let text) = typeName, let type = InstanceTypes(name: text) else {
                    throw schema.fail(name, "type must list type names")
                }
                types.insert(type)
            }
        default:
            throw schema.fail(name, "type must be a string or an array of strings")
        }
        return TypeKeyword(types: types, location: schema.location(of: name))
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        types.admits(instance)
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        if types.admits(instance) { return true }
        return evaluator.report(location, "\(Evaluator.describe(instance)) is not of type \(types.names.joined(separator: " or "))")
    }
}
