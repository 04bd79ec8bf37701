import PetSpotJSON

/// `enum`: the instance must equal one of the values (numbers by value, strings by code points).
final class EnumKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "enum"
    static let vocabulary: Vocabularies? = .validation
    let values: [JSONValue]
    /// The values when they are all strings (compared by code points without building a
    /// `JSONValue`), else nil.
    let strings: [String]?
    let location: KeywordLocation

    init(values: [JSONValue], strings: [String]?, location: KeywordLocation) {
        self.values = values
        self.strings = strings
        self.location = location
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> EnumKeyword? {
        guard case .array(let values) = value else { throw schema.fail(name, "enum must be an array") }
        var strings: [String]? = []
        for value in values {
            guard case .string(let text) = value else {
                strings = nil
                break
            }
            strings?.append(text)
        }
        return EnumKeyword(values: values, strings: strings, location: schema.location(of: name))
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        guard let strings else { return values.contains(copy instance) }
        switch instance {
        case .string(let text):
            let length = text.utf8.count
            for candidate in strings where candidate.utf8.count == length && candidate.hasSameCodePoints(as: text) { return true }
            return false
        default:
            return false
        }
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        if values.contains(copy instance) { return true }
        return evaluator.report(location, "\(Evaluator.describe(instance)) is not one of \(JSONValue.array(values).serialized())")
    }
}
