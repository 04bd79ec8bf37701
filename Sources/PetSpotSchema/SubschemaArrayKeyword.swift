import PetSpotJSON

/// What the keywords whose value is a non-empty array of subschemas share (`allOf`, `anyOf`,
/// `oneOf`, `prefixItems`): the compiled subschemas, read without reference counting
/// (``Subschemas``), and the keyword's location. Each keyword subclasses it (`final`) and says
/// how the subschemas' verdicts combine.
class SubschemaArrayKeyword: CompiledKeyword, @unchecked Sendable {
    /// The keyword's subschemas, compiled, in order.
    let nodes: Subschemas
    /// Where the keyword is, for its errors.
    let location: KeywordLocation

    required init(nodes: Subschemas, location: KeywordLocation) {
        self.nodes = nodes
        self.location = location
    }
}

extension SchemaKeyword where Self: SubschemaArrayKeyword {
    /// The keyword with its value compiled as an array of subschemas (anything else: a compile
    /// error naming the keyword's location).
    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> Self? {
        Self(nodes: Subschemas(try schema.schemaArray(name, value)), location: schema.location(of: name))
    }
}
