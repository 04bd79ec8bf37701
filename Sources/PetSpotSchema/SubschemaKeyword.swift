import PetSpotJSON

/// What the keywords whose value is one subschema share (`not`, `propertyNames`,
/// `unevaluatedItems`, `unevaluatedProperties`): the compiled subschema and the keyword's
/// location. Each keyword subclasses it (`final`) and says what it applies the subschema to.
class SubschemaKeyword: CompiledKeyword, @unchecked Sendable {
    /// The keyword's subschema, compiled.
    let node: SchemaNode
    /// Where the keyword is, for its errors.
    let location: KeywordLocation

    required init(node: SchemaNode, location: KeywordLocation) {
        self.node = node
        self.location = location
    }
}

extension SchemaKeyword where Self: SubschemaKeyword {
    /// The keyword with its value compiled as a subschema (anything but a schema: a compile
    /// error naming the keyword's location).
    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> Self? {
        Self(node: try schema.subschema(name), location: schema.location(of: name))
    }
}
