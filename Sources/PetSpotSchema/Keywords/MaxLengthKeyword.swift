import PetSpotJSON

/// `maxLength`: a string must have at most this many code points.
final class MaxLengthKeyword: CountLimitKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "maxLength"
    static let vocabulary: Vocabularies? = .validation

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        switch instance {
        // A string has at most as many code points as UTF-8 bytes: count them only past the limit.
        case .string(let text): text.utf8.count <= limit || text.unicodeScalars.count <= limit
        default: true
        }
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .string(let text) = copy instance, text.utf8.count > limit else { return true }
        let length = text.unicodeScalars.count
        if length <= limit { return true }
        return evaluator.report(location, "the string has \(length) characters, more than the \(limit) allowed")
    }
}
