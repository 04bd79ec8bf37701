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
/// compiles every keyword the vocabulary table (``Draft202012``) knows. Each node is built after
/// its subschemas, so it is immutable from the start; a reference back into a schema still being
/// built gets a forwarding node (see ``SchemaNode/forward``), resolved by ``finish()``.
/// A class, used by one compilation only: the keywords' ``KeywordContext`` calls back into it.
final class SchemaCompiler {
    private var registry: SchemaRegistry
    let options: SchemaOptions
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
    /// Whether some `$dynamicRef` is dynamic (then evaluation keeps the dynamic scope).
    var usesDynamicScope = false

    init(registry: SchemaRegistry, options: SchemaOptions) {
        self.registry = registry
        self.options = options
    }

    /// Compiles `schema` as the root document, identified by its `$id` or `defaultURI`.
    func compileRoot(_ schema: JSONValue, defaultURI: String) throws(SchemaCompileError) -> SchemaNode {
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
    func finish() throws(SchemaCompileError) -> (resources: [SchemaResource], cycleTargets: [SchemaNode]) {
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

    private func index(document uri: String) throws(SchemaCompileError) {
        guard !indexedDocuments.contains(uri), let root = documents[uri] else { return }
        indexedDocuments.insert(uri)
        resources[uri] = SchemaLocation(document: uri, pointer: [])
        try walk(root, SchemaLocation(document: uri, pointer: []), base: uri, depth: 0)
    }

    private func walk(_ value: JSONValue, _ location: SchemaLocation, base parentBase: String, depth: Int) throws(SchemaCompileError) {
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

    /// The value at `location`, if the document has one there.
    func value(at location: SchemaLocation) -> JSONValue? {
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

    /// The location `reference` points at, resolved against `base`; errors name `location`.
    func resolve(_ reference: String, base: String, at location: SchemaLocation) throws(SchemaCompileError) -> SchemaLocation {
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

    private func resourceIndex(_ uri: String, vocabularies: Vocabularies) -> Int {
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
    func node(at location: SchemaLocation, vocabularies inherited: Vocabularies?) throws(SchemaCompileError) -> SchemaNode {
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
            let (keywords, tracksEvaluation) = try compileKeywords(
                object, location: location, absoluteLocation: absoluteLocation, base: base, vocabularies: vocabularies)
            node = SchemaNode(keywords: keywords, tracksEvaluation: tracksEvaluation, absoluteLocation: absoluteLocation, resource: resource)
        default:
            throw SchemaCompileError(location: key, message: "a schema must be an object or a Boolean, found \(schema.typeName)")
        }
        compiled[key] = node
        return node
    }

    /// The keywords of the object schema at `location`, in evaluation order, and whether they
    /// need annotations (`unevaluated*`): each member the vocabulary table knows, compiled by its
    /// keyword type, once per type, ordered by ``KeywordOrder`` and else as written.
    private func compileKeywords(
        _ object: JSONObject, location: SchemaLocation, absoluteLocation: String, base: String, vocabularies: Vocabularies
    ) throws(SchemaCompileError) -> (keywords: [any SchemaKeyword], tracksEvaluation: Bool) {
        let context = KeywordContext(
            object: object, location: location, absoluteLocation: absoluteLocation, base: base,
            vocabularies: vocabularies, compiler: self)
        var compiled: [(order: KeywordOrder, keyword: any SchemaKeyword)] = []
        var tracksEvaluation = false
        var seen: [ObjectIdentifier] = []
        for member in object.members {
            guard let type = Draft202012.keyword(named: member.key) else { continue }
            if let vocabulary = type.vocabulary, !vocabularies.contains(vocabulary) { continue }
            // A type with several names compiles once, where the first of them is written.
            if type.names.count > 1 {
                if seen.contains(ObjectIdentifier(type)) { continue }
                seen.append(ObjectIdentifier(type))
            }
            guard let keyword = try type.compile(member.value, in: context) else { continue }
            compiled.append((type.order, keyword))
            if type.needsAnnotations { tracksEvaluation = true }
        }
        // A stable sort: keywords of one order stay as written.
        let keywords = compiled.enumerated()
            .sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }
            .map(\.element.keyword)
        return (keywords, tracksEvaluation)
    }
}
