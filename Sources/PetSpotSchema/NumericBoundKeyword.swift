import PetSpotJSON

/// What the keywords whose value is a number to compare with share (`minimum`, `maximum`,
/// `exclusiveMinimum`, `exclusiveMaximum`): the bound, read as a number, and the keyword's
/// location. Each keyword subclasses it (`final`) and says how it compares.
class NumericBoundKeyword: CompiledKeyword, @unchecked Sendable {
    /// The keyword's value, ready for exact comparison.
    let bound: NumericBound
    /// Where the keyword is, for its errors.
    let location: KeywordLocation

    required init(bound: NumericBound, location: KeywordLocation) {
        self.bound = bound
        self.location = location
    }
}

extension SchemaKeyword where Self: NumericBoundKeyword {
    /// The keyword with its value read as a number (anything else: a compile error naming the
    /// keyword's location).
    static func compile(_ value: JSONValue, in schema: KeywordContext) throws(SchemaCompileError) -> Self? {
        Self(bound: NumericBound(try schema.number(name, value)), location: schema.location(of: name))
    }
}
