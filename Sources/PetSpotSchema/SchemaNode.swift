import PetSpotJSON

/// A compiled (sub)schema: its keywords, ready to run, in evaluation order. Immutable.
///
/// Subschemas are held directly, so the graph is a tree plus references. A reference that
/// points back at a schema still being compiled (a `$ref` cycle) cannot hold that schema yet: it
/// holds a forwarding node instead, whose ``forward`` indexes ``CompiledSchema``'s table of
/// cycle targets, filled once compilation is complete. That keeps every node a `let`-only,
/// checked-`Sendable` value with no reference cycles.
final class SchemaNode: Sendable {
    /// `true`/`false` for a Boolean schema, `nil` for an object schema.
    let booleanValue: Bool?
    /// Keywords in evaluation order (see ``KeywordOrder``).
    let keywords: [any SchemaKeyword]
    /// ``keywords`` unretained (owned by ``keywords``: see ``UnretainedReference``), for the
    /// fast path of ``Evaluator``.
    let unretainedKeywords: [UnretainedReference<CompiledKeyword>]
    /// Absolute URI of this schema (`base#pointer`), for `absoluteKeywordLocation`.
    let absoluteLocation: String
    /// Index of the schema resource (`$id` scope) this node belongs to in ``CompiledSchema``.
    let resource: Int
    /// Whether this node has `unevaluatedProperties`/`unevaluatedItems` and so needs annotations.
    let tracksEvaluation: Bool
    /// For a schema that is nothing but a `$ref`: the first schema down the chain of such
    /// references that does something (nil for other schemas, and where the chain meets a cycle).
    let referenceTarget: SchemaNode?
    /// For a forwarding node: the index of the schema it stands for among the cycle targets.
    let forward: Int?
    /// ``referenceTarget`` for the fast path, unretained (owned by ``referenceTarget``).
    let unretainedReferenceTarget: UnretainedReference<SchemaNode>?

    /// A Boolean schema.
    init(boolean: Bool, absoluteLocation: String, resource: Int) {
        booleanValue = boolean
        keywords = []
        unretainedKeywords = []
        self.absoluteLocation = absoluteLocation
        self.resource = resource
        tracksEvaluation = false
        referenceTarget = nil
        forward = nil
        unretainedReferenceTarget = nil
    }

    /// An object schema with its compiled keywords.
    init(keywords: [any SchemaKeyword], tracksEvaluation: Bool, absoluteLocation: String, resource: Int) {
        booleanValue = nil
        self.keywords = keywords
        unretainedKeywords = keywords.map { UnretainedReference($0 as CompiledKeyword) }
        self.absoluteLocation = absoluteLocation
        self.resource = resource
        self.tracksEvaluation = tracksEvaluation
        forward = nil
        if keywords.count == 1, let reference = keywords[0] as? RefKeyword, reference.target.forward == nil {
            referenceTarget = reference.target.referenceTarget ?? reference.target
        } else {
            referenceTarget = nil
        }
        unretainedReferenceTarget = referenceTarget.map(UnretainedReference.init)
    }

    /// A stand-in for the schema at cycle-target index `forward`.
    init(forwardingTo forward: Int, absoluteLocation: String, resource: Int) {
        booleanValue = nil
        keywords = []
        unretainedKeywords = []
        self.absoluteLocation = absoluteLocation
        self.resource = resource
        tracksEvaluation = false
        referenceTarget = nil
        self.forward = forward
        unretainedReferenceTarget = nil
    }
}

/// A keyword's subschemas, held strongly and read on the fast path without reference counting.
struct Subschemas: Sendable {
    let nodes: [SchemaNode]
    /// ``nodes`` unretained (owned by ``nodes``: see ``UnretainedReference``).
    let unretainedNodes: [UnretainedReference<SchemaNode>]

    init(_ nodes: [SchemaNode]) {
        self.nodes = nodes
        unretainedNodes = nodes.map(UnretainedReference.init)
    }

    var count: Int { nodes.count }
    var indices: Range<Int> { nodes.indices }
    subscript(position: Int) -> SchemaNode { nodes[position] }
}

/// A schema resource: the scope of one `$id`, with its dynamic anchors for `$dynamicRef`.
struct SchemaResource: Sendable {
    let uri: String
    /// `$dynamicAnchor` name → the schema carrying it.
    let dynamicAnchors: [String: SchemaNode]
}

/// Instance types for `type`, as bits.
struct InstanceTypes: OptionSet, Sendable {
    let rawValue: UInt8
    static let null = InstanceTypes(rawValue: 1)
    static let boolean = InstanceTypes(rawValue: 2)
    static let integer = InstanceTypes(rawValue: 4)
    static let number = InstanceTypes(rawValue: 8)
    static let string = InstanceTypes(rawValue: 16)
    static let array = InstanceTypes(rawValue: 32)
    static let object = InstanceTypes(rawValue: 64)
    static let all: InstanceTypes = [.null, .boolean, .integer, .number, .string, .array, .object]

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

    func admits(_ value: borrowing JSONValue) -> Bool {
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
        let all: [(InstanceTypes, String)] = [(.null, "null"), (.boolean, "boolean"), (.integer, "integer"), (.number, "number"), (.string, "string"), (.array, "array"), (.object, "object")]
        for (type, name) in all where contains(type) { result.append(name) }
        return result
    }
}
