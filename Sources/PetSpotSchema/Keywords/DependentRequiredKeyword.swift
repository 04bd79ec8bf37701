import PetSpotJSON

/// `dependentRequired`: when an object has a member named by a key, it must also have the
/// members that key lists.
final class DependentRequiredKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "dependentRequired"
    static let vocabulary: Vocabularies? = .validation
    let dependencies: [(name: String, required: [String])]
    let location: KeywordLocation

    init(dependencies: [(name: String, required: [String])], location: KeywordLocation) {
        self.dependencies = dependencies
        self.location = location
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> DependentRequiredKeyword? {
        guard case .object(let members) = value else { throw schema.fail(name, "dependentRequired must be an object") }
        var dependencies: [(name: String, required: [String])] = []
        for dependency in members.members {
            guard case .array = dependency.value else { throw schema.fail(name, "dependentRequired values must be arrays") }
            dependencies.append((dependency.key, try schema.strings(name, dependency.value, "dependentRequired values must list strings")))
        }
        return DependentRequiredKeyword(dependencies: dependencies, location: schema.location(of: name))
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        guard case .object(let object) = copy instance else { return true }
        for dependency in dependencies where Evaluator.has(object, dependency.name) {
            for name in dependency.required where !Evaluator.has(object, name) { return false }
        }
        return true
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .object(let object) = copy instance else { return true }
        var valid = true
        for dependency in dependencies where Evaluator.has(object, dependency.name) {
            for name in dependency.required where !Evaluator.has(object, name) {
                valid = false
                evaluator.report(location, "property \"\(name)\" is required when \"\(dependency.name)\" is present")
                if !evaluator.collectErrors { return false }
            }
        }
        return valid
    }
}
