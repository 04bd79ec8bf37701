import PetSpotJSON

/// A compiled (sub)schema: its keywords, ready to run, in evaluation order.
///
/// Nodes are classes so that `$ref` cycles are plain object references. They are mutated only by
/// ``_Compiler`` before the ``CompiledSchema`` that owns them is returned; afterwards they are
/// read-only, which is what makes the `@unchecked Sendable` sound, and what makes it safe to
/// turn off the dynamic exclusivity checks (`@exclusivity(unchecked)`) that every read of a
/// class `var` would otherwise pay on the validation path.
final class _Node: @unchecked Sendable {
    /// `true`/`false` for a Boolean schema, `nil` for an object schema.
    @exclusivity(unchecked) var booleanValue: Bool?
    /// Keywords in evaluation order (`unevaluated*` last).
    @exclusivity(unchecked) var keywords: [_Keyword] = []
    /// Absolute URI of this schema (`base#pointer`), for `absoluteKeywordLocation`.
    let absoluteLocation: String
    /// The schema resource (`$id` scope) this node belongs to.
    let resource: _Resource
    /// Whether this node has `unevaluatedProperties`/`unevaluatedItems` and so needs annotations.
    @exclusivity(unchecked) var tracksEvaluation = false
    /// For a schema that is nothing but a `$ref`: the first schema down the chain of such
    /// references that does something (nil for other schemas, and for chains that loop).
    @exclusivity(unchecked) var referenceTarget: _Node?
    /// The keywords fused into one check when they are all instance assertions.
    @exclusivity(unchecked) var leaf: _Leaf?

    init(absoluteLocation: String, resource: _Resource) {
        self.absoluteLocation = absoluteLocation
        self.resource = resource
    }
}

/// A schema resource: the scope of one `$id`, with its dynamic anchors for `$dynamicRef`.
final class _Resource: @unchecked Sendable {
    let uri: String
    /// `$dynamicAnchor` name → the node carrying it.
    var dynamicAnchors: [String: _Node] = [:]

    init(uri: String) { self.uri = uri }
}

/// Instance types for `type`, as bits.
struct _TypeSet: OptionSet {
    let rawValue: UInt8
    static let null = _TypeSet(rawValue: 1)
    static let boolean = _TypeSet(rawValue: 2)
    static let integer = _TypeSet(rawValue: 4)
    static let number = _TypeSet(rawValue: 8)
    static let string = _TypeSet(rawValue: 16)
    static let array = _TypeSet(rawValue: 32)
    static let object = _TypeSet(rawValue: 64)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init?(name: String) {
        switch name {
        case "null": self = .null
        case "boolean": self = .boolean
        case "integer": self = .integer
        case "number": self = .number
        case "string": self = .string
        case "array": self = .array
        case "object": self = .object
        default: return nil
        }
    }

    func admits(_ value: JSONValue) -> Bool {
        switch value {
        case .null: contains(.null)
        case .bool: contains(.boolean)
        case .number(let number): contains(.number) || (contains(.integer) && number.isInteger)
        case .string: contains(.string)
        case .array: contains(.array)
        case .object: contains(.object)
        }
    }

    var names: [String] {
        var result: [String] = []
        let all: [(_TypeSet, String)] = [(.null, "null"), (.boolean, "boolean"), (.integer, "integer"), (.number, "number"), (.string, "string"), (.array, "array"), (.object, "object")]
        for (type, name) in all where contains(type) { result.append(name) }
        return result
    }
}

/// The `properties` keyword's table, scanned linearly: comparing UTF-8 lengths first makes most
/// misses O(1), and a hint (the slot after the previous hit) makes payloads that follow the
/// schema's key order find each key on the first probe.
final class _PropertyTable {
    let names: [String]
    let nodes: [_Node]
    /// UTF-8 length of each name: a mismatch here rejects a probe without touching the strings.
    let lengths: [Int]
    /// Whether each name is ASCII (then `==` after a length match is exact, see
    /// `hasSameCodePoints(asASCII:_:)`).
    let ascii: [Bool]

    init(_ entries: [(name: String, node: _Node)]) {
        names = entries.map(\.name)
        nodes = entries.map(\.node)
        lengths = entries.map { $0.name.utf8.count }
        ascii = entries.map { $0.name.isASCIIOnly }
    }

    /// For each entry, the fused check of its schema (through `$ref` chains) when it is a leaf;
    /// filled once compilation is complete. Unretained: the nodes own the leaves, and reading
    /// an unmanaged reference costs no reference counting on the validation path.
    @exclusivity(unchecked) var leaves: [Unmanaged<_Leaf>?] = []

    /// The index of the entry named `name`, probing from `hint` on; updates `hint` on a hit.
    func position(of name: String, hint: inout Int) -> Int? {
        let length = name.utf8.count
        return names.withUnsafeBufferPointer { names in
            lengths.withUnsafeBufferPointer { lengths in
                ascii.withUnsafeBufferPointer { ascii in
                    let count = names.count
                    guard count > 0 else { return nil }
                    var position = hint < count ? hint : 0
                    for _ in 0..<count {
                        if lengths[position] == length
                            && (ascii[position] ? names[position] == name : names[position].hasSameCodePoints(as: name))
                        {
                            hint = position + 1
                            return position
                        }
                        position += 1
                        if position == count { position = 0 }
                    }
                    return nil
                }
            }
        }
    }
}

/// Property names for `required`, with their UTF-8 lengths and ASCII-ness precomputed.
final class _NameList {
    let names: [String]
    let lengths: [Int]
    let ascii: [Bool]

    init(_ names: [String]) {
        self.names = names
        lengths = names.map { $0.utf8.count }
        ascii = names.map { $0.isASCIIOnly }
    }

    /// Whether every name is among `keys` (scans resume after the previous hit).
    @inline(__always)
    func allPresent(in keys: [String]) -> Bool {
        var hint = 0
        for position in names.indices where !find(position, in: keys, hint: &hint) { return false }
        return true
    }

    /// Whether `keys` contains the name at `position`; the scan starts at `hint` (just after the
    /// previous hit), so names listed in the payload's order are found on the first probe.
    @inline(__always)
    func find(_ position: Int, in keys: [String], hint: inout Int) -> Bool {
        let length = lengths[position]
        let isASCII = ascii[position]
        return names.withUnsafeBufferPointer { names in
            keys.withUnsafeBufferPointer { keys in
                let count = keys.count
                guard count > 0 else { return false }
                var index = hint < count ? hint : 0
                for _ in 0..<count {
                    if keys[index].utf8.count == length
                        && (isASCII ? keys[index] == names[position] : keys[index].hasSameCodePoints(as: names[position]))
                    {
                        hint = index + 1
                        return true
                    }
                    index += 1
                    if index == count { index = 0 }
                }
                return false
            }
        }
    }

    /// Whether `key` is the name at `position`, code point by code point.
    @inline(__always)
    func matches(_ position: Int, _ key: String) -> Bool {
        guard key.utf8.count == lengths[position] else { return false }
        return ascii[position] ? names[position] == key : names[position].hasSameCodePoints(as: key)
    }
}

/// The object-member applicators of one schema, evaluated together.
final class _ObjectMembers {
    let properties: _PropertyTable?
    let patternProperties: [(pattern: _Pattern, node: _Node)]
    let additionalProperties: _Node?

    init(properties: _PropertyTable?, patternProperties: [(pattern: _Pattern, node: _Node)], additionalProperties: _Node?) {
        self.properties = properties
        self.patternProperties = patternProperties
        self.additionalProperties = additionalProperties
    }
}

/// One compiled keyword with the data it needs, precomputed.
enum _Keyword {
    case ref(_Node)
    /// `$dynamicRef`: the statically resolved target, and the anchor name when it is dynamic.
    case dynamicRef(_Node, anchor: String?)
    case allOf([_Node])
    case anyOf([_Node])
    case oneOf([_Node])
    case not(_Node)
    case conditional(condition: _Node, then: _Node?, else: _Node?)
    case dependentSchemas([(name: String, node: _Node)])
    case prefixItems([_Node])
    case items(_Node, prefixCount: Int)
    case contains(_Node, min: Int, max: Int?)
    /// `properties`, `patternProperties` and `additionalProperties` in one pass over the members.
    case members(_ObjectMembers)
    case propertyNames(_Node)
    case unevaluatedItems(_Node)
    case unevaluatedProperties(_Node)
    case type(_TypeSet)
    case enumeration([JSONValue])
    case const(JSONValue)
    case multipleOf(JSONNumber)
    case maximum(JSONNumber)
    case exclusiveMaximum(JSONNumber)
    case minimum(JSONNumber)
    case exclusiveMinimum(JSONNumber)
    case maxLength(Int)
    case minLength(Int)
    case pattern(_Pattern)
    case maxItems(Int)
    case minItems(Int)
    case uniqueItems
    case maxProperties(Int)
    case minProperties(Int)
    case required(_NameList)
    case dependentRequired([(name: String, required: [String])])
    case format(_Format)

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
