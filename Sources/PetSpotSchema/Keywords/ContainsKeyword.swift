import PetSpotJSON

/// `contains` with its siblings `minContains` and `maxContains` (validation vocabulary): the
/// array must have between `minContains` (default 1) and `maxContains` items valid against the
/// subschema. `minContains` and `maxContains` alone do nothing.
final class ContainsKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "contains"
    static let vocabulary: Vocabularies? = .applicator
    let node: SchemaNode
    let minimum: Int
    let maximum: Int?
    let location: KeywordLocation
    let minimumLocation: KeywordLocation
    let maximumLocation: KeywordLocation

    init(node: SchemaNode, minimum: Int, maximum: Int?, location: KeywordLocation, minimumLocation: KeywordLocation, maximumLocation: KeywordLocation) {
        self.node = node
        self.minimum = minimum
        self.maximum = maximum
        self.location = location
        self.minimumLocation = minimumLocation
        self.maximumLocation = maximumLocation
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> ContainsKeyword? {
        var minimum = 1
        var maximum: Int?
        let validation = schema.vocabularies.contains(.validation)
        if validation, let value = schema.object["minContains"] { minimum = try schema.nonNegativeInteger("minContains", value) }
        if validation, let value = schema.object["maxContains"] { maximum = try schema.nonNegativeInteger("maxContains", value) }
        return ContainsKeyword(
            node: try schema.subschema(name), minimum: minimum, maximum: maximum, location: schema.location(of: name),
            minimumLocation: schema.location(of: "minContains"), maximumLocation: schema.location(of: "maxContains"))
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        guard case .array(let items) = copy instance else { return true }
        var matches = 0
        for position in items.indices where try evaluator.isValid(node, items[position]) {
            matches += 1
            if matches >= minimum && maximum == nil { break }
        }
        if matches < minimum { return false }
        if let maximum, matches > maximum { return false }
        return true
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .array(let items) = copy instance else { return true }
        let mark = evaluator.errorCount
        var matches = 0
        for position in items.indices where try evaluator.validate(node, items[position], location, at: .index(position)) {
            matches += 1
            evaluated?.itemIndexes.insert(position)
            if evaluated == nil && !evaluator.collectErrors && matches >= minimum && maximum == nil { break }
        }
        evaluator.discardErrors(since: mark)
        if matches < minimum {
            return evaluator.report(
                minimum == 1 ? location : minimumLocation,
                "the array contains \(matches) matching item\(matches == 1 ? "" : "s"), fewer than the \(minimum) required")
        }
        if let maximum, matches > maximum {
            return evaluator.report(maximumLocation, "the array contains \(matches) matching items, more than the \(maximum) allowed")
        }
        return true
    }
}
