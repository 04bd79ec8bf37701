import PetSpotJSON

/// `multipleOf`: a number must be an integer multiple of the divisor (exactly, in decimal).
final class MultipleOfKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "multipleOf"
    static let vocabulary: Vocabularies? = .validation
    let divisor: JSONNumber
    let location: KeywordLocation

    init(divisor: JSONNumber, location: KeywordLocation) {
        self.divisor = divisor
        self.location = location
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> MultipleOfKeyword? {
        let divisor = try schema.number(name, value)
        guard !divisor.isNegative, !divisor.isZero else { throw schema.fail(name, "multipleOf must be greater than 0") }
        return MultipleOfKeyword(divisor: divisor, location: schema.location(of: name))
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        guard case .number(let number) = copy instance else { return true }
        return number.isMultiple(of: divisor)
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .number(let number) = copy instance, !number.isMultiple(of: divisor) else { return true }
        return evaluator.report(location, "\(number) is not a multiple of \(divisor)")
    }
}
