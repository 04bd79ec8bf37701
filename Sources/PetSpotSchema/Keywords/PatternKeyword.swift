import PetSpotJSON
import PetSpotRegex

/// `pattern`: a string must contain a match of the ECMA-262 regular expression.
final class PatternKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "pattern"
    static let vocabulary: Vocabularies? = .validation
    let pattern: RegexPattern
    let location: KeywordLocation

    init(pattern: RegexPattern, location: KeywordLocation) {
        self.pattern = pattern
        self.location = location
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> PatternKeyword? {
        guard case .string(let source) = value else { throw schema.fail(name, "pattern must be a string") }
        return PatternKeyword(pattern: try schema.pattern(name, source), location: schema.location(of: name))
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        switch instance {
        case .string(let text): try evaluator.matches(pattern, text, location)
        default: true
        }
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .string(let text) = copy instance, try !evaluator.matches(pattern, text, location) else { return true }
        return evaluator.report(location, "\(Evaluator.describe(instance)) does not match the pattern \(pattern.source)")
    }
}
