import PetSpotJSON

/// `format`: an annotation by default (compiles to nothing); an assertion that a string is a
/// valid date, email, URI, ... when ``SchemaOptions/assertFormat`` is set or the meta-schema
/// asks for format assertion. Unknown format names never assert.
final class FormatKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "format"
    /// Always read: its value must be a string even where it only annotates.
    static let vocabulary: Vocabularies? = nil
    let format: StringFormat
    let location: KeywordLocation

    init(format: StringFormat, location: KeywordLocation) {
        self.format = format
        self.location = location
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> FormatKeyword? {
        guard case .string(let formatName) = value else { throw schema.fail(name, "format must be a string") }
        guard schema.assertsFormat, let format = StringFormat(rawValue: formatName) else { return nil }
        return FormatKeyword(format: format, location: schema.location(of: name))
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        format.accepts(copy instance)
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        if format.accepts(copy instance) { return true }
        return evaluator.report(location, "\(Evaluator.describe(instance)) is not a valid \(format.rawValue)")
    }
}
