/// JSON Schema draft 2020-12 as this validator implements it: the table of keyword types, one
/// entry each, that the compiler walks (``SchemaCompiler``). A schema member whose name is not
/// here is an annotation or unknown, and compiles to nothing (`$id`, `$anchor`, `$defs`,
/// `title`, `then`, `minContains`, ...: the keywords that read them are here).
///
/// Adding a keyword: one file in `Keywords/` with a type conforming to ``SchemaKeyword``, and
/// its entry here; `KeywordTableTests` fails when a keyword type is missing from the table or a
/// name is listed twice.
enum Draft202012 {
    /// Every keyword type, grouped by vocabulary.
    static let keywords: [any SchemaKeyword.Type] = [
        // Core
        RefKeyword.self, DynamicRefKeyword.self,
        // Applicator
        AllOfKeyword.self, AnyOfKeyword.self, OneOfKeyword.self, NotKeyword.self, IfKeyword.self,
        DependentSchemasKeyword.self, PrefixItemsKeyword.self, ItemsKeyword.self, ContainsKeyword.self,
        ObjectMembersKeyword.self, PropertyNamesKeyword.self,
        // Unevaluated
        UnevaluatedItemsKeyword.self, UnevaluatedPropertiesKeyword.self,
        // Validation
        TypeKeyword.self, EnumKeyword.self, ConstKeyword.self, MultipleOfKeyword.self,
        MaximumKeyword.self, ExclusiveMaximumKeyword.self, MinimumKeyword.self, ExclusiveMinimumKeyword.self,
        MaxLengthKeyword.self, MinLengthKeyword.self, PatternKeyword.self,
        MaxItemsKeyword.self, MinItemsKeyword.self, UniqueItemsKeyword.self,
        MaxPropertiesKeyword.self, MinPropertiesKeyword.self, RequiredKeyword.self, DependentRequiredKeyword.self,
        // Format annotation and assertion
        FormatKeyword.self,
    ]

    /// Keyword name → its type (the first entry, should the table list a name twice).
    private static let typesByName: [String: any SchemaKeyword.Type] = {
        var result: [String: any SchemaKeyword.Type] = [:]
        for type in keywords {
            for name in type.names where result[name] == nil { result[name] = type }
        }
        return result
    }()

    /// The keyword type that compiles the schema member `name`, if any.
    static func keyword(named name: String) -> (any SchemaKeyword.Type)? {
        typesByName[name]
    }
}
