import PetSpotJSON
import PetSpotRegex

/// `properties`, `patternProperties` and `additionalProperties`, one keyword with three names:
/// `additionalProperties` applies to the members the other two do not match, so the three
/// are evaluated together, in one pass over the members, wherever the first of them is written.
///
/// - `properties`: a member with a listed name must be valid against that name's subschema;
/// - `patternProperties`: a member whose name matches a pattern must be valid against its subschema;
/// - `additionalProperties`: any other member must be valid against its subschema.
final class ObjectMembersKeyword: CompiledKeyword, SchemaKeyword, @unchecked Sendable {
    static let name = "properties"
    static let names = ["properties", "patternProperties", "additionalProperties"]
    static let vocabulary: Vocabularies? = .applicator
    let properties: PropertyTable?
    let patternProperties: [(pattern: RegexPattern, node: SchemaNode)]
    let additionalProperties: SchemaNode?
    let propertiesLocation: KeywordLocation
    let patternPropertiesLocation: KeywordLocation
    let additionalPropertiesLocation: KeywordLocation

    init(properties: PropertyTable?, patternProperties: [(pattern: RegexPattern, node: SchemaNode)], additionalProperties: SchemaNode?, propertiesLocation: KeywordLocation, patternPropertiesLocation: KeywordLocation, additionalPropertiesLocation: KeywordLocation) {
        self.properties = properties
        self.patternProperties = patternProperties
        self.additionalProperties = additionalProperties
        self.propertiesLocation = propertiesLocation
        self.patternPropertiesLocation = patternPropertiesLocation
        self.additionalPropertiesLocation = additionalPropertiesLocation
    }

    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> ObjectMembersKeyword? {
        var properties: PropertyTable?
        var patternProperties: [(pattern: RegexPattern, node: SchemaNode)] = []
        if let value = schema.object["properties"] { properties = PropertyTable(try schema.schemaMap("properties", value)) }
        if let value = schema.object["patternProperties"] {
            for entry in try schema.schemaMap("patternProperties", value) {
                patternProperties.append((try schema.pattern("patternProperties", entry.name), entry.node))
            }
        }
        let additionalProperties = try schema.optionalSubschema("additionalProperties")
        guard properties != nil || !patternProperties.isEmpty || additionalProperties != nil else { return nil }
        return ObjectMembersKeyword(
            properties: properties, patternProperties: patternProperties, additionalProperties: additionalProperties,
            propertiesLocation: schema.location(of: "properties"),
            patternPropertiesLocation: schema.location(of: "patternProperties"),
            additionalPropertiesLocation: schema.location(of: "additionalProperties"))
    }

    /// The table of `properties` when it is the only one of the three and walking its names
    /// (looking each up in the instance) beats probing it for every member: when it is the smaller side.
    @inline(__always)
    private func walksNames(_ object: borrowing JSONObject) -> PropertyTable? {
        guard patternProperties.isEmpty, additionalProperties == nil, let table = properties,
            table.names.count <= 4 || table.names.count * 4 <= object.count
        else { return nil }
        return table
    }

    override func isValid(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator) throws(SchemaEvaluationError) -> Bool {
        switch instance {
        case .object(let object):
            if let table = walksNames(object) {
                for position in table.names.indices {
                    guard let found = Self.member(of: object, namedAt: position, in: table) else { continue }
                    if try !evaluator.isValid(table.nodes, position, object.values[found]) { return false }
                }
                return true
            }
            guard patternProperties.isEmpty, let table = properties else { return try validateMembers(object, &evaluator, nil) }
            // One probe per member (resuming after the previous hit), nothing recorded.
            var hint = 0
            // Spans read keys and values in place, without copying (retaining) them. (Through
            // slices: an array slice's span exists back to macOS 10.14.4, an array's only from 26.)
            let keySlice = object.keys[...], valueSlice = object.values[...]
            let keys = keySlice.span
            let values = valueSlice.span
            for index in keys.indices {
                if let position = table.position(of: keys[index], hint: &hint) {
                    if try !evaluator.isValid(table.nodes, position, values[index]) { return false }
                } else if let additionalProperties {
                    if additionalProperties.booleanValue == false { return false }
                    if try !evaluator.isValid(additionalProperties, values[index]) { return false }
                }
            }
            return true
        default:
            return true
        }
    }

    func validate(_ instance: borrowing JSONValue, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        guard case .object(let object) = copy instance else { return true }
        if evaluated == nil, let table = walksNames(object) {
            var valid = true
            for position in table.names.indices {
                guard let found = Self.member(of: object, namedAt: position, in: table) else { continue }
                let name = table.names[position]
                if try !evaluator.validate(table.nodes[position], object.values[found], propertiesLocation, .key(name), at: .key(name)) {
                    valid = false
                    if !evaluator.collectErrors { return false }
                }
            }
            return valid
        }
        return try validateMembers(object, &evaluator, evaluated)
    }

    /// The index in `object` of the member named as the table's entry at `position`, if any.
    @inline(__always)
    private static func member(of object: borrowing JSONObject, namedAt position: Int, in table: PropertyTable) -> Int? {
        let keys = object.keys
        for candidate in keys.indices where table.entry(position, isNamed: keys[candidate], length: keys[candidate].utf8.count) {
            return candidate
        }
        return nil
    }

    /// The general pass: every applicator on each member in turn, with paths, errors and
    /// annotations as the evaluator and `evaluated` ask.
    private func validateMembers(_ object: borrowing JSONObject, _ evaluator: inout Evaluator, _ evaluated: EvaluatedLocations?) throws(SchemaEvaluationError) -> Bool {
        var valid = true
        var hint = 0
        let keys = object.keys
        let values = object.values
        for index in keys.indices {
            let key = keys[index]
            var matched = false
            if let table = properties, let position = table.position(of: key, hint: &hint) {
                matched = true
                if try !evaluator.validate(table.nodes[position], values[index], propertiesLocation, .key(key), at: .key(key)) {
                    valid = false
                    if !evaluator.collectErrors { return false }
                }
            }
            for entry in patternProperties where try evaluator.matches(entry.pattern, key, patternPropertiesLocation, at: .key(key)) {
                matched = true
                if try !evaluator.validate(entry.node, values[index], patternPropertiesLocation, .key(entry.pattern.source), at: .key(key)) {
                    valid = false
                    if !evaluator.collectErrors { return false }
                }
            }
            if !matched, let additionalProperties {
                matched = true
                if additionalProperties.booleanValue == false {
                    valid = false
                    evaluator.report(additionalPropertiesLocation, "property \"\(key)\" is not allowed (additionalProperties is false)")
                    if !evaluator.collectErrors { return false }
                } else if try !evaluator.validate(additionalProperties, values[index], additionalPropertiesLocation, at: .key(key)) {
                    valid = false
                    if !evaluator.collectErrors { return false }
                }
            }
            if matched { evaluated?.properties.insert(key) }
        }
        return valid
    }
}
