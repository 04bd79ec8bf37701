import PetSpotJSON

/// A place in a schema document: the document's URI and a JSON Pointer inside it.
struct SchemaLocation: Hashable {
    var document: String
    var pointer: [String]

    var key: String { document + "#" + URIText.pointer(pointer) }
}

/// Vocabularies in force for a schema resource, from its meta-schema's `$vocabulary`.
struct Vocabularies: OptionSet, Hashable {
    let rawValue: UInt8
    static let applicator = Vocabularies(rawValue: 1)
    static let unevaluated = Vocabularies(rawValue: 2)
    static let validation = Vocabularies(rawValue: 4)
    static let formatAssertion = Vocabularies(rawValue: 8)

    static let standard: Vocabularies = [.applicator, .unevaluated, .validation]
}

/// Turns schema documents into ``SchemaNode`` graphs: indexes `$id`/`$anchor`/`$dynamicAnchor`,
/// resolves references (from the schema itself or the registry, never the network) and
/// precompiles every keyword. Each node is built after its subschemas, so it is immutable from
/// the start; a reference back into a schema still being built gets a forwarding node (see
/// ``SchemaNode/forward``), resolved by ``finish()``.
struct SchemaCompiler {
    private var registry: SchemaRegistry
    private let options: SchemaOptions
    private var documents: [String: JSONValue] = [:]
    private var indexedDocuments: Set<String> = []
    /// Resource URI → where its root is.
    private var resources: [String: SchemaLocation] = [:]
    /// `resourceURI#anchor` → location (plain and dynamic anchors).
    private var anchors: [String: SchemaLocation] = [:]
    /// Location key → base URI in force there.
    private var baseURIs: [String: String] = [:]
    /// Resource URI → its dynamic anchor names with their locations.
    private var dynamicAnchorLocations: [String: [(name: String, location: SchemaLocation)]] = [:]
    /// Resource URI → its index in the resource table, in order of first use.
    private var resourceIndexes: [String: Int] = [:]
    private var resourceURIs: [String] = []
    /// The vocabularies in force where each resource was first compiled (for its dynamic anchors).
    private var resourceVocabularies: [Vocabularies] = []
    private var compiled: [String: SchemaNode] = [:]
    /// Locations being compiled (on the recursion stack): a reference to one of them forwards.
    private var underConstruction: Set<String> = []
    /// Location key → index of a cycle target that forwarding nodes point at.
    private var cycleTargetIndexes: [String: Int] = [:]
    private var cycleTargetKeys: [String] = []
    private var compileDepth = 0
    private(set) var usesDynamicScope = false

    init(registry: SchemaRegistry, options: SchemaOptions) {
        self.registry = registry
        self.options = options
    }

    /// Compiles `schema` as the root document, identified by its `$id` or `defaultURI`.
    mutating func compileRoot(_ schema: JSONValue, defaultURI: String) throws(SchemaCompileError) -> SchemaNode {
        var rootURI = defaultURI
        if case .object(let object) = schema, case .string(let id)? = object["$id"] {
            rootURI = URIText.splitFragment(URIText.resolve(id, against: defaultURI)).base
        }
        documents[rootURI] = schema
        try index(document: rootURI)
        return try node(at: SchemaLocation(document: rootURI, pointer: []), vocabularies: nil)
    }

    /// Compiles the dynamic anchors of every resource used, then resolves the cycle targets.
    /// - Returns: The resource table and the cycle targets, by index.
    mutating func finish() throws(SchemaCompileError) -> (resources: [SchemaResource], cycleTargets: [SchemaNode]) {
        var anchors: [Int: [String: SchemaNode]] = [:]
        var resource = 0
        while resource < resourceURIs.count {
            let uri = resourceURIs[resource]
            for anchor in dynamicAnchorLocations.removeValue(forKey: uri) ?? [] {
                anchors[resource, default: [:]][anchor.name] = try node(at: anchor.location, vocabularies: resourceVocabularies[resource])
            }
            resource += 1
        }
        let resources = resourceURIs.indices.map { SchemaResource(uri: resourceURIs[$0], dynamicAnchors: anchors[$0] ?? [:]) }
        var cycleTargets: [SchemaNode] = []
        for key in cycleTargetKeys {
            // Every cycle target was on the recursion stack, so it has been compiled since.
            guard let target = compiled[key] else {
                throw SchemaCompileError(location: key, message: "internal error: a schema on a reference cycle was not compiled")
            }
            cycleTargets.append(target)
        }
        return (resources, cycleTargets)
    }

    // MARK: Indexing

    private mutating func index(document uri: String) throws(SchemaCompileError) {
        guard !indexedDocuments.contains(uri), let root = documents[uri] else { return }
        indexedDocuments.insert(uri)
        resources[uri] = SchemaLocation(document: uri, pointer: [])
        try walk(root, SchemaLocation(document: uri, pointer: []), base: uri, depth: 0)
    }

    private mutating func walk(_ value: JSONValue, _ location: SchemaLocation, base parentBase: String, depth: Int) throws(SchemaCompileError) {
        guard depth < 512 else { throw SchemaCompileError(location: location.key, message: "schema nested too deeply") }
        guard case .object(let object) = value else { return }
        var base = parentBase
        if case .string(let id)? = object["$id"] {
            base = URIText.splitFragment(URIText.resolve(id, against: parentBase)).base
            if resources[base] == nil { resources[base] = location }
        }
        baseURIs[location.key] = base
        if case .string(let anchor)? = object["$anchor"] { anchors[base + "#" + anchor] = location }
        if case .string(let anchor)? = object["$dynamicAnchor"] {
            anchors[base + "#" + anchor] = location
            dynamicAnchorLocations[base, default: []].append((anchor, location))
        }
        for member in object.members {
            switch member.key {
            case "additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "items",
                "contains", "not", "if", "then", "else", "contentSchema":
                try walk(member.value, child(location, member.key), base: base, depth: depth + 1)
            case "$defs", "definitions", "properties", "patternProperties", "dependentSchemas":
                if case .object(let children) = member.value {
                    for entry in children.members {
                        try walk(entry.value, child(child(location, member.key), entry.key), base: base, depth: depth + 1)
                    }
                }
            case "allOf", "anyOf", "oneOf", "prefixItems":
                if case .array(let children) = member.value {
                    for (position, entry) in children.enumerated() {
                        try walk(entry, child(child(location, member.key), String(position)), base: base, depth: depth + 1)
                    }
                }
            default:
                break
            }
        }
    }

    private func child(_ location: SchemaLocation, _ token: String) -> SchemaLocation {
        var result = location
        result.pointer.append(token)
        return result
    }

    /// The base URI in force at `location`, for locations the index did not visit (pointers into
    /// unknown keywords): the nearest indexed ancestor's.
    private func baseURI(at location: SchemaLocation) -> String {
        var probe = location
        while true {
            if let base = baseURIs[probe.key] { return base }
            if probe.pointer.isEmpty { return location.document }
            probe.pointer.removeLast()
        }
    }

    private func value(at location: SchemaLocation) -> JSONValue? {
        guard var current = documents[location.document] else { return nil }
        for token in location.pointer {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let items):
                guard let position = Int(token), position >= 0, position < items.count,
                    token == String(position)
                else { return nil }
                current = items[position]
            default:
                return nil
            }
        }
        return current
    }

    // MARK: Reference resolution

    private mutating func resolve(_ reference: String, base: String, at location: SchemaLocation) throws(SchemaCompileError) -> SchemaLocation {
        let absolute = URIText.resolve(reference, against: base)
        let (resourceURI, fragment) = URIText.splitFragment(absolute)
        if resources[resourceURI] == nil, let document = registry.document(at: resourceURI) {
            documents[resourceURI] = document
            try index(document: resourceURI)
        }
        guard let resource = resources[resourceURI] else {
            throw SchemaCompileError(location: location.key, message: "cannot resolve reference \"\(reference)\": no schema at \(resourceURI) in the registry")
        }
        if fragment.isEmpty { return resource }
        if fragment.hasPrefix("/") {
            guard let tokens = URIText.pointerTokens(fragment) else {
                throw SchemaCompileError(location: location.key, message: "invalid JSON Pointer in \"\(reference)\"")
            }
            var target = resource
            target.pointer.append(contentsOf: tokens)
            guard value(at: target) != nil else {
                throw SchemaCompileError(location: location.key, message: "reference \"\(reference)\" points at nothing")
            }
            return target
        }
        guard let target = anchors[resourceURI + "#" + fragment] else {
            throw SchemaCompileError(location: location.key, message: "cannot resolve reference \"\(reference)\": no anchor \"\(fragment)\"")
        }
        return target
    }

    private mutating func resourceIndex(_ uri: String, vocabularies: Vocabularies) -> Int {
        if let existing = resourceIndexes[uri] { return existing }
        resourceIndexes[uri] = resourceURIs.count
        resourceURIs.append(uri)
        resourceVocabularies.append(vocabularies)
        return resourceURIs.count - 1
    }

    // MARK: Vocabularies

    private func vocabularies(forMetaschema uri: String) throws(SchemaCompileError) -> Vocabularies {
        let metaschemaURI = URIText.splitFragment(uri).base
        if metaschemaURI == SchemaRegistry.draft202012MetaschemaURI { return .standard }
        guard case .object(let metaschema)? = registry.document(at: metaschemaURI) ?? documents[metaschemaURI],
            case .object(let vocabulary)? = metaschema["$vocabulary"]
        else { return .standard }
        var result: Vocabularies = []
        let prefix = "https://json-schema.org/draft/2020-12/vocab/"
        for entry in vocabulary.members {
            switch entry.key {
            case prefix + "applicator": result.insert(.applicator)
            case prefix + "unevaluated": result.insert(.unevaluated)
            case prefix + "validation": result.insert(.validation)
            case prefix + "format-assertion": result.insert(.formatAssertion)
            case prefix + "core", prefix + "meta-data", prefix + "format-annotation", prefix + "content": break
            default:
                if entry.value == .bool(true) {
                    throw SchemaCompileError(location: metaschemaURI, message: "required vocabulary \(entry.key) is not supported")
                }
            }
        }
        return result
    }

    // MARK: Node compilation

    /// The node for the schema at `location`, compiled once; a forwarding node when `location`
    /// is still being compiled (a reference cycle).
    mutating func node(at location: SchemaLocation, vocabularies inherited: Vocabularies?) throws(SchemaCompileError) -> SchemaNode {
        let key = location.key
        if let existing = compiled[key] { return existing }
        guard let schema = value(at: location) else {
            throw SchemaCompileError(location: key, message: "no schema at this location")
        }
        var base: String
        if let indexed = baseURIs[key] {
            base = indexed
        } else {
            base = baseURI(at: location)
            if case .object(let object) = schema, case .string(let id)? = object["$id"] {
                base = URIText.splitFragment(URIText.resolve(id, against: base)).base
            }
        }
        let resourceRoot = resources[base] ?? location
        let absoluteLocation: String
        if resourceRoot.document == location.document, location.pointer.starts(with: resourceRoot.pointer) {
            absoluteLocation = base + "#" + URIText.pointer(Array(location.pointer.dropFirst(resourceRoot.pointer.count)))
        } else {
            absoluteLocation = key
        }
        var vocabularies = inherited ?? .standard
        if case .object(let object) = schema, case .string(let metaschema)? = object["$schema"] {
            vocabularies = try self.vocabularies(forMetaschema: metaschema)
        }
        let resource = resourceIndex(base, vocabularies: vocabularies)
        if underConstruction.contains(key) {
            let index: Int
            if let known = cycleTargetIndexes[key] {
                index = known
            } else {
                index = cycleTargetKeys.count
                cycleTargetIndexes[key] = index
                cycleTargetKeys.append(key)
            }
            return SchemaNode(forwardingTo: index, absoluteLocation: absoluteLocation, resource: resource)
        }
        compileDepth += 1
        defer { compileDepth -= 1 }
        guard compileDepth < 2000 else { throw SchemaCompileError(location: key, message: "schema references nest too deeply") }

        let node: SchemaNode
        switch schema {
        case .bool(let value):
            node = SchemaNode(boolean: value, absoluteLocation: absoluteLocation, resource: resource)
        case .object(let object):
            underConstruction.insert(key)
            defer { underConstruction.remove(key) }
            let (keywords, tracksEvaluation) = try compileKeywords(object, location: location, base: base, vocabularies: vocabularies)
            node = SchemaNode(keywords: keywords, tracksEvaluation: tracksEvaluation, absoluteLocation: absoluteLocation, resource: resource)
        default:
            throw SchemaCompileError(location: key, message: "a schema must be an object or a Boolean, found \(schema.typeName)")
        }
        compiled[key] = node
        return node
    }

    /// The keywords of the object schema at `location`, in evaluation order, and whether they
    /// need annotations (`unevaluated*`).
    private mutating func compileKeywords(
        _ object: JSONObject, location: SchemaLocation, base: String, vocabularies: Vocabularies
    ) throws(SchemaCompileError) -> (keywords: [Keyword], tracksEvaluation: Bool) {
        var tracksEvaluation = false
        var keywords: [Keyword] = []
        var typeKeyword: Keyword?
        var trailing: [Keyword] = []
        let applicators = vocabularies.contains(.applicator)
        let validation = vocabularies.contains(.validation)

        func fail(_ keyword: String, _ message: String) -> SchemaCompileError {
            SchemaCompileError(location: location.key + "/" + URIText.escapePointerToken(keyword), message: message)
        }
        func sub(_ keyword: String, _ tokens: String...) -> SchemaLocation {
            var result = location
            result.pointer.append(keyword)
            result.pointer.append(contentsOf: tokens)
            return result
        }
        func nonNegativeInteger(_ keyword: String, _ value: JSONValue) throws(SchemaCompileError) -> Int {
            guard case .number(let number) = value, number.isInteger, !number.isNegative else {
                throw fail(keyword, "\(keyword) must be a non-negative integer")
            }
            return number.intValue ?? Int.max
        }
        func number(_ keyword: String, _ value: JSONValue) throws(SchemaCompileError) -> JSONNumber {
            guard case .number(let number) = value else { throw fail(keyword, "\(keyword) must be a number") }
            return number
        }
        func schemaArray(_ keyword: String, _ value: JSONValue) throws(SchemaCompileError) -> [SchemaNode] {
            guard case .array(let items) = value, !items.isEmpty else {
                throw fail(keyword, "\(keyword) must be a non-empty array of schemas")
            }
            var nodes: [SchemaNode] = []
            for position in items.indices {
                nodes.append(try self.node(at: sub(keyword, String(position)), vocabularies: vocabularies))
            }
            return nodes
        }
        func schemaMap(_ keyword: String, _ value: JSONValue) throws(SchemaCompileError) -> [(name: String, node: SchemaNode)] {
            guard case .object(let members) = value else { throw fail(keyword, "\(keyword) must be an object of schemas") }
            var result: [(name: String, node: SchemaNode)] = []
            for member in members.members {
                result.append((member.key, try self.node(at: sub(keyword, member.key), vocabularies: vocabularies)))
            }
            return result
        }
        func pattern(_ keyword: String, _ source: String) throws(SchemaCompileError) -> RegexPattern {
            do {
                return try RegexPattern(source)
            } catch {
                throw fail(keyword, "invalid regular expression \"\(source)\": \(error.message)")
            }
        }

        var prefixCount = 0
        var members: ObjectMemberApplicators?
        if applicators {
            var properties: PropertyTable?
            var patternProperties: [(pattern: RegexPattern, node: SchemaNode)] = []
            var additionalProperties: SchemaNode?
            if let value = object["properties"] { properties = PropertyTable(try schemaMap("properties", value)) }
            if let value = object["patternProperties"] {
                for entry in try schemaMap("patternProperties", value) {
                    patternProperties.append((try pattern("patternProperties", entry.name), entry.node))
                }
            }
            if object["additionalProperties"] != nil {
                additionalProperties = try self.node(at: sub("additionalProperties"), vocabularies: vocabularies)
            }
            if properties != nil || !patternProperties.isEmpty || additionalProperties != nil {
                members = ObjectMemberApplicators(properties: properties, patternProperties: patternProperties, additionalProperties: additionalProperties)
            }
            if case .array(let prefix)? = object["prefixItems"] { prefixCount = prefix.count }
        }

        for member in object.members {
            let keyword = member.key
            let value = member.value
            switch keyword {
            case "$ref":
                guard case .string(let reference) = value else { throw fail(keyword, "$ref must be a string") }
                let target = try resolve(reference, base: base, at: location)
                keywords.append(.ref(try self.node(at: target, vocabularies: nil)))
            case "$dynamicRef":
                guard case .string(let reference) = value else { throw fail(keyword, "$dynamicRef must be a string") }
                let target = try resolve(reference, base: base, at: location)
                var dynamicAnchor: String?
                let fragment = URIText.splitFragment(URIText.resolve(reference, against: base)).fragment
                if !fragment.isEmpty, !fragment.hasPrefix("/"),
                    case .object(let targetObject)? = self.value(at: target),
                    targetObject["$dynamicAnchor"] == .string(fragment)
                {
                    dynamicAnchor = fragment
                    usesDynamicScope = true
                }
                keywords.append(.dynamicRef(try self.node(at: target, vocabularies: nil), anchor: dynamicAnchor))
            case "allOf" where applicators: keywords.append(.allOf(try schemaArray(keyword, value)))
            case "anyOf" where applicators: keywords.append(.anyOf(try schemaArray(keyword, value)))
            case "oneOf" where applicators: keywords.append(.oneOf(try schemaArray(keyword, value)))
            case "not" where applicators: keywords.append(.not(try self.node(at: sub(keyword), vocabularies: vocabularies)))
            case "if" where applicators:
                let condition = try self.node(at: sub(keyword), vocabularies: vocabularies)
                let then = object["then"] == nil ? nil : try self.node(at: sub("then"), vocabularies: vocabularies)
                let otherwise = object["else"] == nil ? nil : try self.node(at: sub("else"), vocabularies: vocabularies)
                keywords.append(.conditional(condition: condition, then: then, else: otherwise))
            case "dependentSchemas" where applicators: keywords.append(.dependentSchemas(try schemaMap(keyword, value)))
            case "prefixItems" where applicators: keywords.append(.prefixItems(try schemaArray(keyword, value)))
            case "items" where applicators:
                keywords.append(.items(try self.node(at: sub(keyword), vocabularies: vocabularies), prefixCount: prefixCount))
            case "contains" where applicators:
                var minimum = 1
                var maximum: Int?
                if validation, let value = object["minContains"] { minimum = try nonNegativeInteger("minContains", value) }
                if validation, let value = object["maxContains"] { maximum = try nonNegativeInteger("maxContains", value) }
                keywords.append(.contains(try self.node(at: sub(keyword), vocabularies: vocabularies), min: minimum, max: maximum))
            case "properties", "patternProperties", "additionalProperties":
                if let pending = members {
                    keywords.append(.members(pending))
                    members = nil
                }
            case "propertyNames" where applicators:
                keywords.append(.propertyNames(try self.node(at: sub(keyword), vocabularies: vocabularies)))
            case "unevaluatedItems" where vocabularies.contains(.unevaluated):
                trailing.append(.unevaluatedItems(try self.node(at: sub(keyword), vocabularies: vocabularies)))
                tracksEvaluation = true
            case "unevaluatedProperties" where vocabularies.contains(.unevaluated):
                trailing.append(.unevaluatedProperties(try self.node(at: sub(keyword), vocabularies: vocabularies)))
                tracksEvaluation = true
            case "type" where validation:
                var types: InstanceTypes = []
                switch value {
                case .string(let name):
                    guard let type = InstanceTypes(name: name) else { throw fail(keyword, "unknown type \"\(name)\"") }
                    types = type
                case .array(let names):
                    for name in names {
                        guard case .string(let text) = name, let type = InstanceTypes(name: text) else {
                            throw fail(keyword, "type must list type names")
                        }
                        types.insert(type)
                    }
                default:
                    throw fail(keyword, "type must be a string or an array of strings")
                }
                typeKeyword = .type(types)
            case "enum" where validation:
                guard case .array(let values) = value else { throw fail(keyword, "enum must be an array") }
                keywords.append(.enumeration(values))
            case "const" where validation: keywords.append(.const(value))
            case "multipleOf" where validation:
                let divisor = try number(keyword, value)
                guard !divisor.isNegative, !divisor.isZero else { throw fail(keyword, "multipleOf must be greater than 0") }
                keywords.append(.multipleOf(divisor))
            case "maximum" where validation: keywords.append(.maximum(try number(keyword, value)))
            case "exclusiveMaximum" where validation: keywords.append(.exclusiveMaximum(try number(keyword, value)))
            case "minimum" where validation: keywords.append(.minimum(try number(keyword, value)))
            case "exclusiveMinimum" where validation: keywords.append(.exclusiveMinimum(try number(keyword, value)))
            case "maxLength" where validation: keywords.append(.maxLength(try nonNegativeInteger(keyword, value)))
            case "minLength" where validation: keywords.append(.minLength(try nonNegativeInteger(keyword, value)))
            case "pattern" where validation:
                guard case .string(let source) = value else { throw fail(keyword, "pattern must be a string") }
                keywords.append(.pattern(try pattern(keyword, source)))
            case "maxItems" where validation: keywords.append(.maxItems(try nonNegativeInteger(keyword, value)))
            case "minItems" where validation: keywords.append(.minItems(try nonNegativeInteger(keyword, value)))
            case "uniqueItems" where validation:
                guard case .bool(let unique) = value else { throw fail(keyword, "uniqueItems must be a Boolean") }
                if unique { keywords.append(.uniqueItems) }
            case "maxProperties" where validation: keywords.append(.maxProperties(try nonNegativeInteger(keyword, value)))
            case "minProperties" where validation: keywords.append(.minProperties(try nonNegativeInteger(keyword, value)))
            case "required" where validation:
                guard case .array(let names) = value else { throw fail(keyword, "required must be an array of strings") }
                var required: [String] = []
                for name in names {
                    guard case .string(let text) = name else { throw fail(keyword, "required must be an array of strings") }
                    required.append(text)
                }
                if !required.isEmpty { keywords.append(.required(PropertyNameList(required))) }
            case "dependentRequired" where validation:
                guard case .object(let dependencies) = value else { throw fail(keyword, "dependentRequired must be an object") }
                var result: [(name: String, required: [String])] = []
                for dependency in dependencies.members {
                    guard case .array(let names) = dependency.value else { throw fail(keyword, "dependentRequired values must be arrays") }
                    var required: [String] = []
                    for name in names {
                        guard case .string(let text) = name else { throw fail(keyword, "dependentRequired values must list strings") }
                        required.append(text)
                    }
                    result.append((dependency.key, required))
                }
                keywords.append(.dependentRequired(result))
            case "format":
                guard case .string(let name) = value else { throw fail(keyword, "format must be a string") }
                if options.assertFormat || vocabularies.contains(.formatAssertion), let format = StringFormat(rawValue: name) {
                    keywords.append(.format(format))
                }
            default:
                break
            }
        }
        if let typeKeyword { keywords.insert(typeKeyword, at: 0) }
        // `required` is cheap and decisive: run it right after `type`.
        if let requiredIndex = keywords.firstIndex(where: { if case .required = $0 { true } else { false } }) {
            let required = keywords.remove(at: requiredIndex)
            keywords.insert(required, at: typeKeyword == nil ? 0 : 1)
        }
        return (keywords + trailing, tracksEvaluation)
    }
}
