import PetSpotJSON

/// `uniqueItems: true`: no two items of an array may be equal (`false` compiles to nothing).
final class UniqueItemsKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "uniqueItems"
    static let vocabulary: Vocabularies? = .validation
    let location: KeywordLocation

    init(location: KeywordLocation) {
        self.location = location
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> UniqueItemsKeyword? {
        guard case .bool(let unique) = value else { throw schema.fail(name, "uniqueItems must be a Boolean") }
        return unique ? UniqueItemsKeyword(location: schema.location(of: name)) : nil
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        switch instance {
        case .array(let items): Self.firstDuplicate(items) == nil
        default: true
        }
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .array(let items) = copy instance, let duplicate = Self.firstDuplicate(items) else { return true }
        return evaluator.report(location, "items \(duplicate.0) and \(duplicate.1) are equal")
    }

    /// Positions of the first two equal items, if any.
    static func firstDuplicate(_ items: [JSONValue]) -> (Int, Int)? {
        if items.count < 16 {
            for first in items.indices {
                for second in (first + 1)..<items.count where items[first] == items[second] { return (first, second) }
            }
            return nil
        }
        var seen: [JSONValue: Int] = [:]
        for (position, item) in items.enumerated() {
            if let earlier = seen[item] { return (earlier, position) }
            seen[item] = position
        }
        return nil
    }
}
