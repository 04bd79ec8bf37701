import PetSpotJSON

/// One compiled keyword with the data it needs, precomputed.
enum Keyword: Sendable {
    /// `$ref`: the target (a forwarding node when the reference closes a cycle).
    case ref(SchemaNode)
    /// `$dynamicRef`: the statically resolved target, and the anchor name when it is dynamic.
    case dynamicRef(SchemaNode, anchor: String?)
    case allOf([SchemaNode])
    case anyOf([SchemaNode])
    case oneOf([SchemaNode])
    case not(SchemaNode)
    case conditional(condition: SchemaNode, then: SchemaNode?, else: SchemaNode?)
    case dependentSchemas([(name: String, node: SchemaNode)])
    case prefixItems([SchemaNode])
    case items(SchemaNode, prefixCount: Int)
    case contains(SchemaNode, min: Int, max: Int?)
    /// `properties`, `patternProperties` and `additionalProperties` in one pass over the members.
    case members(ObjectMemberApplicators)
    case propertyNames(SchemaNode)
    case unevaluatedItems(SchemaNode)
    case unevaluatedProperties(SchemaNode)
    case type(InstanceTypes)
    case enumeration([JSONValue])
    case const(JSONValue)
    case multipleOf(JSONNumber)
    case maximum(JSONNumber)
    case exclusiveMaximum(JSONNumber)
    case minimum(JSONNumber)
    case exclusiveMinimum(JSONNumber)
    case maxLength(Int)
    case minLength(Int)
    case pattern(RegexPattern)
    case maxItems(Int)
    case minItems(Int)
    case uniqueItems
    case maxProperties(Int)
    case minProperties(Int)
    case required(PropertyNameList)
    case dependentRequired([(name: String, required: [String])])
    case format(StringFormat)

    /// The keyword's name as written in the schema.
    var name: String {
        switch self {
        case .ref: "$ref"
        case .dynamicRef: "$dynamicRef"
        case .allOf: "allOf"
        case .anyOf: "anyOf"
        case .oneOf: "oneOf"
        case .not: "not"
        case .conditional: "if"
        case .dependentSchemas: "dependentSchemas"
        case .prefixItems: "prefixItems"
        case .items: "items"
        case .contains: "contains"
        case .members(let members): members.properties != nil ? "properties" : members.patternProperties.isEmpty ? "additionalProperties" : "patternProperties"
        case .propertyNames: "propertyNames"
        case .unevaluatedItems: "unevaluatedItems"
        case .unevaluatedProperties: "unevaluatedProperties"
        case .type: "type"
        case .enumeration: "enum"
        case .const: "const"
        case .multipleOf: "multipleOf"
        case .maximum: "maximum"
        case .exclusiveMaximum: "exclusiveMaximum"
        case .minimum: "minimum"
        case .exclusiveMinimum: "exclusiveMinimum"
        case .maxLength: "maxLength"
        case .minLength: "minLength"
        case .pattern: "pattern"
        case .maxItems: "maxItems"
        case .minItems: "minItems"
        case .uniqueItems: "uniqueItems"
        case .maxProperties: "maxProperties"
        case .minProperties: "minProperties"
        case .required: "required"
        case .dependentRequired: "dependentRequired"
        case .format: "format"
        }
    }
}
