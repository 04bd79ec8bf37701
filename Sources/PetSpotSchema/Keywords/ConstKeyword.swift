import PetSpotJSON

/// `const`: the instance must equal the value (numbers by value, strings by code points).
final class ConstKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "const"
    static let vocabulary: Vocabularies? = .validation
    let value: JSONValue
    let location: KeywordLocation

    init(value: JSONValue, location: KeywordLocation) {
        self.value = value
        self.location = location
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> ConstKeyword? {
        ConstKeyword(value: value, location: schema.location(of: name))
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        value == copy instance
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        if value == copy instance { return true }
        return evaluator.report(location, "\(Evaluator.describe(instance)) is not the constant \(value.serialized())")
    }
}
