import PetSpotJSON

/// `minLength`: a string must have at least this many code points.
final class MinLengthKeyword: CountLimitKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "minLength"
    static let vocabulary: Vocabularies? = .validation

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        switch instance {
        case .string(let text):
            // Code points are between bytes/4 and bytes; count them only when that matters.
            let bytes = text.utf8.count
            if bytes < limit { return false }
            return bytes / 4 >= limit || text.unicodeScalars.count >= limit
        default:
            return true
        }
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .string(let text) = copy instance else { return true }
        let bytes = text.utf8.count
        if bytes / 4 >= limit { return true }
        let length = bytes < limit ? bytes : text.unicodeScalars.count
        if length >= limit { return true }
        return evaluator.report(location, "the string has \(length) character\(length == 1 ? "" : "s"), fewer than the \(limit) required")
    }
}
