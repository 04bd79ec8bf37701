import PetSpotJSON

/// `if` with its siblings `then` and `else`: when the instance is valid against `if` it must be
/// valid against `then`, otherwise against `else` (each optional). `then` and `else` alone do
/// nothing. The errors of `if` itself are never reported.
final class IfKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "if"
    static let vocabulary: Vocabularies? = .applicator
    let condition: SchemaNode
    let then: SchemaNode?
    let otherwise: SchemaNode?
    let location: KeywordLocation
    let thenLocation: KeywordLocation
    let elseLocation: KeywordLocation

    init(condition: SchemaNode, then: SchemaNode?, otherwise: SchemaNode?, location: KeywordLocation, thenLocation: KeywordLocation, elseLocation: KeywordLocation) {
        self.condition = condition
        self.then = then
        self.otherwise = otherwise
        self.location = location
        self.thenLocation = thenLocation
        self.elseLocation = elseLocation
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> IfKeyword? {
        IfKeyword(
            condition: try schema.subschema(name), then: try schema.optionalSubschema("then"),
            otherwise: try schema.optionalSubschema("else"), location: schema.location(of: name),
            thenLocation: schema.location(of: "then"), elseLocation: schema.location(of: "else"))
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        if try evaluator.isValid(condition, instance) {
            guard let then else { return true }
            return try evaluator.isValid(then, instance)
        }
        guard let otherwise else { return true }
        return try evaluator.isValid(otherwise, instance)
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        let mark = evaluator.errorCount
        let conditionEvaluated: EvaluatedLocations? = evaluated != nil ? EvaluatedLocations() : nil
        let conditionValid = try evaluator.validate(condition, instance, location, into: conditionEvaluated)
        evaluator.discardErrors(since: mark)
        if conditionValid {
            if let evaluated, let conditionEvaluated { evaluated.merge(conditionEvaluated) }
            guard let then else { return true }
            return try evaluator.validate(then, instance, thenLocation, into: evaluated)
        }
        guard let otherwise else { return true }
        return try evaluator.validate(otherwise, instance, elseLocation, into: evaluated)
    }
}
