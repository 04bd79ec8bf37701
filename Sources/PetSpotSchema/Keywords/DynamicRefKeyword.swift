import PetSpotJSON

/// `$dynamicRef`: like `$ref`, but when it names a `$dynamicAnchor` its target is the outermost
/// schema resource in the dynamic scope with that anchor.
final class DynamicRefKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "$dynamicRef"
    static let vocabulary: Vocabularies? = nil
    /// The statically resolved target.
    let initial: SchemaNode
    /// The anchor name when the reference is dynamic, else nil.
    let anchor: String?
    let location: KeywordLocation

    init(initial: SchemaNode, anchor: String?, location: KeywordLocation) {
        self.initial = initial
        self.anchor = anchor
        self.location = location
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> DynamicRefKeyword? {
        guard case .string(let reference) = value else { throw schema.fail(name, "$dynamicRef must be a string") }
        let compiler = schema.compiler
        let target = try compiler.resolve(reference, base: schema.base, at: schema.location)
        var dynamicAnchor: String?
        let fragment = URIText.splitFragment(URIText.resolve(reference, against: schema.base)).fragment
        if !fragment.isEmpty, !fragment.hasPrefix("/"),
            case .object(let targetObject)? = compiler.value(at: target),
            targetObject["$dynamicAnchor"] == .string(fragment)
        {
            dynamicAnchor = fragment
            compiler.usesDynamicScope = true
        }
        return DynamicRefKeyword(
            initial: try compiler.node(at: target, vocabularies: nil), anchor: dynamicAnchor, location: schema.location(of: name))
    }

    private func target(_ evaluator: Evaluator) -> SchemaNode {
        guard let anchor else { return initial }
        return evaluator.dynamicTarget(anchor: anchor) ?? initial
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        try evaluator.isValid(target(evaluator), instance)
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        try evaluator.validate(target(evaluator), instance, location, into: evaluated)
    }
}
