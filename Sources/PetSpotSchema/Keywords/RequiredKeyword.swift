import PetSpotJSON

/// `required`: an object must have a member of each name. Runs right after `type`: it is cheap
/// and decisive. An empty list compiles to nothing.
final class RequiredKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "required"
    static let vocabulary: Vocabularies? = .validation
    static let order = KeywordOrder.second
    let names: PropertyNameList
    let location: KeywordLocation

    init(names: PropertyNameList, location: KeywordLocation) {
        self.names = names
        self.location = location
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> RequiredKeyword? {
        let names = try schema.strings(name, value, "required must be an array of strings")
        return names.isEmpty ? nil : RequiredKeyword(names: PropertyNameList(names), location: schema.location(of: name))
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        // A borrowing switch reads the members in place (a `guard case` would copy them).
        switch instance {
        case .object(let object): names.allPresent(in: object.keys)
        default: true
        }
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .object(let object) = copy instance else { return true }
        var valid = true
        var hint = 0
        for position in names.names.indices where !names.find(position, in: object.keys, hint: &hint) {
            valid = false
            evaluator.report(location, "required property \"\(names.names[position])\" is missing")
            if !evaluator.collectErrors { return false }
        }
        return valid
    }
}
