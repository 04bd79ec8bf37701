import PetSpotJSON

/// What the keywords whose value is a count share (`minItems`, `maxItems`, `minLength`,
/// `maxLength`, `minProperties`, `maxProperties`): the limit, read as a non-negative integer,
/// and the keyword's location. Each keyword subclasses it (`final`) and says what it counts.
class CountLimitKeyword: CompiledKeyword, @unchecked Sendable {
    /// The keyword's value: a non-negative integer.
    let limit: Int
    /// Where the keyword is, for its errors.
    let location: KeywordLocation

    required init(limit: Int, location: KeywordLocation) {
        self.limit = limit
        self.location = location
    }
}

extension SchemaKeyword where Self: CountLimitKeyword {
    /// The keyword with its value read as a non-negative integer (anything else: a compile
    /// error naming the keyword's location).
    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> Self? {
        Self(limit: try schema.nonNegativeInteger(name, value), location: schema.location(of: name))
    }
}
