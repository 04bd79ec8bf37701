import PetSpotJSON

/// The schema documents that `$ref` may reach outside the schema being compiled.
///
/// A registry maps absolute URIs (without fragment) to schema documents. The compiler never fetches
/// anything: a reference to a URI that is neither inside the compiled schema nor in the registry
/// is a compile error. The draft 2020-12 meta-schema and its vocabulary meta-schemas are included
/// by default, so `{"$ref": "https://json-schema.org/draft/2020-12/schema"}` works out of the box.
///
/// ```swift
/// var registry = SchemaRegistry()
/// registry.register(["type": "integer"], at: "http://localhost:1234/integer.json")
/// let schema = try JSONSchema.compile(["$ref": "http://localhost:1234/integer.json"], registry: registry)
/// ```
///
/// A document whose own `$id` differs from the URI it is registered under answers to both.
public struct SchemaRegistry: Sendable {
    /// Registered documents by absolute URI (fragment removed).
    public private(set) var documents: [String: JSONValue]

    /// A registry holding the draft 2020-12 meta-schemas, or nothing when `includingMetaschemas` is false.
    public init(includingMetaschemas: Bool = true) {
        documents = includingMetaschemas ? SchemaRegistry.metaschemaDocuments : [:]
    }

    /// Adds (or replaces) the document answering to `uri`; a fragment in `uri` is ignored.
    public mutating func register(_ document: JSONValue, at uri: String) {
        documents[URIText.splitFragment(uri).base] = document
    }

    /// The document registered at `uri` (fragment ignored), if any.
    public func document(at uri: String) -> JSONValue? {
        documents[URIText.splitFragment(uri).base]
    }

    /// The URI of the draft 2020-12 meta-schema, the only dialect this validator implements.
    public static let draft202012MetaschemaURI = "https://json-schema.org/draft/2020-12/schema"

    /// The bundled meta-schemas, parsed once.
    static let metaschemaDocuments: [String: JSONValue] = {
        var result: [String: JSONValue] = [:]
        for entry in Metaschemas.documents {
            if let document = try? JSONValue.parse(entry.text) { result[entry.uri] = document }
        }
        return result
    }()
}
