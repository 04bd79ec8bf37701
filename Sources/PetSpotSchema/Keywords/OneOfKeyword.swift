import PetSpotJSON

/// `oneOf`: the instance must be valid against exactly one subschema.
final class OneOfKeyword: SubschemaArrayKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "oneOf"
    static let vocabulary: Vocabularies? = .applicator

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        var validCount = 0
        for position in nodes.indices where try evaluator.isValid(nodes, position, instance) {
            validCount += 1
            if validCount > 1 { return false }
        }
        return validCount == 1
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        let mark = evaluator.errorCount
        var validPositions: [Int] = []
        var branchEvaluated: EvaluatedLocations?
        for position in nodes.indices {
            let candidate: EvaluatedLocations? = evaluated != nil ? EvaluatedLocations() : nil
            if try evaluator.validate(nodes[position], instance, location, .index(position), into: candidate) {
                validPositions.append(position)
                branchEvaluated = candidate
                if validPositions.count > 1 { break }
            }
        }
        if validPositions.count == 1 {
            evaluator.discardErrors(since: mark)
            if let evaluated, let branchEvaluated { evaluated.merge(branchEvaluated) }
            return true
        }
        if validPositions.isEmpty {
            evaluator.reportSummary(location, "\(Evaluator.describe(instance)) is not valid against any of the \(nodes.count) subschemas", before: mark)
        } else {
            evaluator.discardErrors(since: mark)
            evaluator.report(location, "\(Evaluator.describe(instance)) is valid against more than one subschema (at \(validPositions[0]) and \(validPositions[1]))")
        }
        return false
    }
}
