import PetSpotJSON
import PetSpotSchema
import Testing

@Suite("Validator")
struct ValidatorTests {
    static let person: JSONValue = [
        "$id": "https://petspot.example/person.json",
        "type": "object",
        "properties": [
            "name": ["type": "string", "minLength": 2],
            "age": ["type": "integer", "minimum": 1],
            "tags": ["type": "array", "items": ["type": "string"], "uniqueItems": true],
        ],
        "required": ["name", "age"],
        "additionalProperties": false,
    ]

    @Test func validInstanceHasNoErrors() throws {
        let schema = try JSONSchema.compile(Self.person)
        let instance: JSONValue = ["name": "Rex", "age": 3, "tags": ["a", "b"]]
        #expect(try schema.isValid(instance))
        #expect(schema.validate(instance) == ValidationResult(isValid: true, errors: []))
        #expect(schema.validate(instance).basicOutput == ["valid": true])
    }

    @Test func everyErrorIsLocated() throws {
        let schema = try JSONSchema.compile(Self.person)
        let instance: JSONValue = ["name": "R", "age": 0, "tags": ["a", "a", 3], "colour": "brown"]
        #expect(try !schema.isValid(instance))
        let errors = schema.validate(instance).errors
        let triples = errors.map { [$0.instanceLocation, $0.keywordLocation, $0.absoluteKeywordLocation ?? "-"] }
        #expect(triples == [
            ["/name", "/properties/name/minLength", "https://petspot.example/person.json#/properties/name/minLength"],
            ["/age", "/properties/age/minimum", "https://petspot.example/person.json#/properties/age/minimum"],
            ["/tags/2", "/properties/tags/items/type", "https://petspot.example/person.json#/properties/tags/items/type"],
            ["/tags", "/properties/tags/uniqueItems", "https://petspot.example/person.json#/properties/tags/uniqueItems"],
            ["", "/additionalProperties", "https://petspot.example/person.json#/additionalProperties"],
        ])
        #expect(errors[1].message == "0 is less than the minimum 1")
        #expect(errors[4].message.contains("colour"))
    }

    /// One failing instance per keyword whose location and compile its base class writes
    /// (`CountLimitKeyword`, `NumericBoundKeyword`, `SubschemaKeyword`, `SubschemaArrayKeyword`):
    /// every error it reports sits at or below the keyword, relative and absolute.
    static let locatedKeywordCases: [(String, JSONValue, JSONValue)] = [
        ("minItems", ["minItems": 2], [1]), ("maxItems", ["maxItems": 1], [1, 2]),
        ("minLength", ["minLength": 2], "a"), ("maxLength", ["maxLength": 1], "ab"),
        ("minProperties", ["minProperties": 1], [:]), ("maxProperties", ["maxProperties": 0], ["a": 1]),
        ("minimum", ["minimum": 1], 0), ("maximum", ["maximum": 1], 2),
        ("exclusiveMinimum", ["exclusiveMinimum": 1], 1), ("exclusiveMaximum", ["exclusiveMaximum": 1], 1),
        ("not", ["not": ["type": "integer"]], 1), ("propertyNames", ["propertyNames": ["maxLength": 1]], ["ab": 1]),
        ("unevaluatedItems", ["unevaluatedItems": false], [1]), ("unevaluatedProperties", ["unevaluatedProperties": false], ["a": 1]),
        ("allOf", ["allOf": [["type": "string"]]], 1), ("anyOf", ["anyOf": [["type": "string"], ["type": "null"]]], 1),
        ("oneOf", ["oneOf": [["type": "string"], ["type": "null"]]], 1), ("prefixItems", ["prefixItems": [["type": "string"]]], [1]),
    ]

    @Test("each keyword's errors carry its own location", arguments: locatedKeywordCases)
    func keywordErrorsAreLocatedAtTheKeyword(_ keyword: String, _ schemaValue: JSONValue, _ instance: JSONValue) throws {
        let schema = try JSONSchema.compile(schemaValue)
        let errors = schema.validate(instance).errors
        #expect(!errors.isEmpty, "\(keyword) did not fail \(instance)")
        for error in errors {
            #expect(error.keywordLocation.hasPrefix("/\(keyword)"), "\(keyword): \(error.keywordLocation)")
            #expect(error.absoluteKeywordLocation?.hasPrefix("urn:petspot:schema#/\(keyword)") == true, "\(keyword): \(error.absoluteKeywordLocation ?? "-")")
        }
    }

    @Test func basicOutputShape() throws {
        let schema = try JSONSchema.compile(["type": "string"])
        let output = schema.validate(5).basicOutput
        #expect(output == [
            "valid": false,
            "errors": [[
                "keywordLocation": "/type",
                "absoluteKeywordLocation": "urn:petspot:schema#/type",
                "instanceLocation": "",
                "error": "5 is not of type string",
            ]],
        ])
    }

    @Test func keywordLocationFollowsReferences() throws {
        let schema = try JSONSchema.compile([
            "$defs": ["positive": ["exclusiveMinimum": 0]],
            "properties": ["n": ["$ref": "#/$defs/positive"]],
        ])
        let error = try #require(schema.validate(["n": -1]).errors.first)
        #expect(error.keywordLocation == "/properties/n/$ref/exclusiveMinimum")
        #expect(error.absoluteKeywordLocation == "urn:petspot:schema#/$defs/positive/exclusiveMinimum")
        #expect(error.instanceLocation == "/n")
    }

    @Test func passingAlternativesDropTheirSiblingsErrors() throws {
        let schema = try JSONSchema.compile(["anyOf": [["type": "string"], ["type": "integer"]]])
        #expect(schema.validate(3).errors.isEmpty)
        let failed = schema.validate(true)
        #expect(failed.errors.map(\.keywordLocation) == ["/anyOf", "/anyOf/0/type", "/anyOf/1/type"])
    }

    @Test func formatAnnotatesByDefaultAndAssertsWhenAsked() throws {
        let schema: JSONValue = ["format": "date"]
        #expect(try JSONSchema.compile(schema).isValid("2025-02-30"))
        let asserting = try JSONSchema.compile(schema, options: SchemaOptions(assertFormat: true))
        #expect(try !asserting.isValid("2025-02-30"))
        #expect(try asserting.isValid("2024-02-29"))
        #expect(try !asserting.isValid("2023-02-29"))
        #expect(try asserting.isValid(12), "formats only constrain strings")
    }

    @Test(arguments: [
        ("email", "a.b+c@example.com", true), ("email", "a..b@example.com", false), ("email", "no-at-sign", false),
        ("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380", true), ("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d1638", false),
        ("ipv4", "192.168.0.1", true), ("ipv4", "192.168.0.01", false), ("ipv4", "256.0.0.1", false),
        ("ipv6", "::1", true), ("ipv6", "1::2::3", false), ("ipv6", "::ffff:192.168.0.1", true),
        ("uri", "https://example.com/a?b#c", true), ("uri", "//example.com", false), ("uri", "http://exa mple.com", false),
        ("date-time", "2025-05-14T10:00:00Z", true), ("date-time", "2025-05-14 10:00:00Z", false),
        ("time", "23:59:60Z", true), ("time", "22:59:60Z", false), ("time", "10:00:00", false),
        ("duration", "P1Y2M3DT4H5M6S", true), ("duration", "P1Y1D", false), ("duration", "PT", false),
        ("hostname", "www.example.com", true), ("hostname", "-bad.example.com", false),
        ("json-pointer", "/a~1b/0", true), ("json-pointer", "/a~2", false),
        ("regex", "^[a-z]+$", true), ("regex", "([a-z]", false),
    ] as [(String, String, Bool)])
    func formatAssertion(format: String, value: String, expected: Bool) throws {
        let schema = try JSONSchema.compile(["format": .string(format)], options: SchemaOptions(assertFormat: true))
        #expect(try schema.isValid(.string(value)) == expected)
    }

    @Test func patternsFollowECMAScript() throws {
        func matches(_ pattern: String, _ text: String) throws -> Bool {
            try JSONSchema.compile(["pattern": .string(pattern)]).isValid(.string(text))
        }
        #expect(try matches(#"^\d+$"#, "123"))
        #expect(try !matches(#"^\d+$"#, "١٢٣"), "\\d is ASCII digits only in ECMAScript")
        #expect(try !matches(#"^\w$"#, "é"))
        #expect(try !matches("^abc$", "abc\n"), "$ is the end of input, not before a final newline")
        #expect(try matches(#"^\s$"#, "\u{FEFF}"))
        #expect(try matches("a+", "xxaay"), "patterns are searched, not anchored")
        #expect(try matches(#"^\p{Letter}+$"#, "żółw"))
        let email = #"^(?=.{1,254}$)[^\s@]+@[^\s@]+\.[^\s@]+$"#
        #expect(try matches(email, "owner@example.com"))
        #expect(try !matches(email, "owner@example"))
        #expect(try !matches(email, String(repeating: "a", count: 250) + "@b.cc"))
        #expect(try matches(#"^(a|b)+c\1$"#, "abcb"), "backreferences")
        #expect(try matches("(?<=x)y", "xy"))
        #expect(try !matches("(?<=x)y", "zy"))
    }

    @Test func catastrophicPatternDoesNotHang() throws {
        let schema = try JSONSchema.compile(["pattern": "^(a+)+$"])
        let text = String(repeating: "a", count: 40) + "!"
        #expect(schema.validity(of: .string(text)) == .invalid, "no backreference: the automaton decides it")
        #expect(schema.validity(of: .string(String(repeating: "a", count: 40))) == .valid)
    }

    @Test func nestedQuantifierAlternationMatchesAsInECMAScript() throws {
        // /(a+)+c|!$/.test("a".repeat(30) + "!") is true in JavaScript: the second branch matches
        // at the end, however long the first branch's search would take.
        let schema = try JSONSchema.compile(["pattern": "(a+)+c|!$"])
        let text = JSONValue.string(String(repeating: "a", count: 30) + "!")
        let validity = schema.validity(of: text)
        if case .undecided(let error) = validity {
            #expect(error.pattern == "(a+)+c|!$", "if undecided, the error names the pattern")
        } else {
            #expect(validity == .valid)
        }
        #expect(validity != .invalid, "an undecided search is never a verdict")
        #expect(schema.validate(text).outcome != .invalid)
    }

    /// A backreference keeps the pattern on the backtracking engine, where this search is
    /// exponential: it must end as an evaluation error, never as "invalid".
    static let exhaustingPattern = #"^(a+)+\1b"#
    static let exhaustingText = JSONValue.string(String(repeating: "a", count: 40))

    @Test func exhaustedPatternBudgetIsAnEvaluationErrorNotAVerdict() throws {
        let schema = try JSONSchema.compile([
            "$id": "https://petspot.example/code.json",
            "properties": ["code": ["type": "string", "pattern": .string(Self.exhaustingPattern)]],
        ])
        let instance: JSONValue = ["code": Self.exhaustingText]
        guard case .undecided(let error) = schema.validity(of: instance) else {
            Issue.record("expected an undecided evaluation, got \(schema.validity(of: instance))")
            return
        }
        #expect(error.reason == .patternStepBudgetExhausted(pattern: Self.exhaustingPattern))
        #expect(error.instanceLocation == "/code")
        #expect(error.keywordLocation == "/properties/code/pattern")
        #expect(error.absoluteKeywordLocation == "https://petspot.example/code.json#/properties/code/pattern")
        #expect(throws: error) { try schema.validity(of: instance).decided() }

        let result = schema.validate(instance)
        #expect(result.outcome == .undecided(error))
        #expect(result.evaluationError == error)
        #expect(!result.isValid)
        #expect(result.errors.count == 1 && result.errors[0].message.hasPrefix("undecided:"))
    }

    @Test func longTextsEndInAVerdictOrAnEvaluationErrorNeverACrash() throws {
        let long = JSONValue.string(String(repeating: "ab", count: 60_000))
        // No lookaround: the automaton decides it, without recursion.
        #expect(try JSONSchema.compile(["pattern": "^(?:ab)*$"]).validity(of: long) == .valid)
        // A lookaround keeps the backtracker, whose nesting is bounded: undecided, not a crash.
        #expect(try JSONSchema.compile(["pattern": "^(?=a)(?:ab)*$"]).validity(of: long).isUndecided)
        // Too much work for the automaton: undecided rather than minutes long.
        let text = JSONValue.string(String(repeating: "a", count: 20_000))
        #expect(try JSONSchema.compile(["pattern": "^(?:a|b){1,6000}$"]).validity(of: text).isUndecided)
    }

    @Test func undecidedSubschemasAreNotInvertedOrSkipped() throws {
        let pattern = JSONValue.string(Self.exhaustingPattern)
        for schema: JSONValue in [
            ["not": ["pattern": pattern]],
            ["anyOf": [["pattern": pattern], ["type": "integer"]]],
            ["patternProperties": [Self.exhaustingPattern: true], "additionalProperties": false],
            ["propertyNames": ["pattern": pattern]],
        ] {
            let compiled = try JSONSchema.compile(schema)
            let instance: JSONValue = schema["patternProperties"] != nil || schema["propertyNames"] != nil
                ? .object(JSONObject([(key: Self.exhaustingText.stringValue!, value: 1)]))
                : Self.exhaustingText
            #expect(compiled.validity(of: instance).isUndecided, "\(schema.serialized())")
            #expect(compiled.validate(instance).evaluationError != nil, "\(schema.serialized())")
        }
    }

    @Test func lengthsCountCodePoints() throws {
        let schema = try JSONSchema.compile(["minLength": 2, "maxLength": 2])
        #expect(try schema.isValid("💩💩"))
        #expect(try !schema.isValid("💩"))
        #expect(try !schema.isValid("abc"))
    }

    @Test func multipleOfIsExact() throws {
        let schema = try JSONSchema.compile(["multipleOf": .number(JSONNumber(literal: "0.0001")!)])
        #expect(try schema.isValid(.number(JSONNumber(literal: "0.0075")!)))
        #expect(try !schema.isValid(.number(JSONNumber(literal: "0.00751")!)))
        let integers = try JSONSchema.compile(["type": "integer"])
        #expect(try integers.isValid(.number(JSONNumber(literal: "1.0")!)))
        #expect(try integers.isValid(.number(JSONNumber(literal: "1e308")!)))
    }

    @Test func remoteReferencesResolveOnlyFromTheRegistry() throws {
        let schema: JSONValue = ["$ref": "https://example.com/positive.json"]
        #expect(throws: SchemaCompileError.self) { try JSONSchema.compile(schema) }
        var registry = SchemaRegistry()
        registry.register(["exclusiveMinimum": 0], at: "https://example.com/positive.json")
        let compiled = try JSONSchema.compile(schema, registry: registry)
        #expect(try compiled.isValid(1))
        #expect(try !compiled.isValid(0))
    }

    @Test func metaschemaIsBundled() throws {
        let metaschema = try JSONSchema.compile(["$ref": "https://json-schema.org/draft/2020-12/schema"])
        #expect(try metaschema.isValid(Self.person))
        #expect(try !metaschema.isValid(["type": "integr"]))
        #expect(try !metaschema.isValid(["minLength": -1]))
        #expect(try !metaschema.isValid(["properties": ["a": ["type": 5]]]))
    }

    @Test func badSchemasAreCompileErrors() throws {
        let pattern = try #require(throws: SchemaCompileError.self) { try JSONSchema.compile(["properties": ["a": ["pattern": "(unclosed"]]]) }
        #expect(pattern.location == "urn:petspot:schema#/properties/a/pattern")
        #expect(throws: SchemaCompileError.self) { try JSONSchema.compile(["minLength": "two"]) }
        #expect(throws: SchemaCompileError.self) { try JSONSchema.compile(["$ref": "#/$defs/missing"]) }
        #expect(throws: SchemaCompileError.self) { try JSONSchema.compile(5) }
    }

    @Test func referenceLoopsEndWithAnEvaluationErrorNotACrash() throws {
        let loop = try JSONSchema.compile(["$defs": ["a": ["$ref": "#/$defs/b"], "b": ["$ref": "#/$defs/a"]], "$ref": "#/$defs/a"])
        #expect(loop.validity(of: 1).isUndecided)
        #expect(loop.validate(1).evaluationError?.reason == .evaluationTooDeep(limit: 300))
        #expect(throws: SchemaEvaluationError.self, "isValid throws rather than guess a verdict") { try loop.isValid(1) }
    }

    @Test func deepInstancesAreBoundedAndUndecided() throws {
        var deep: JSONValue = 1
        for _ in 0..<10_000 { deep = .array([deep]) }
        let schema = try JSONSchema.compile(["items": ["$ref": "#"]])
        #expect(schema.validity(of: deep).isUndecided, "valid by the schema, but deeper than the bound: no verdict")
        #expect(schema.validate(deep).evaluationError?.reason == .evaluationTooDeep(limit: 300))
        var shallow: JSONValue = 1
        for _ in 0..<100 { shallow = .array([shallow]) }
        #expect(schema.validity(of: shallow) == .valid)
    }

    @Test func cyclicReferencesEvaluate() throws {
        let tree = try JSONSchema.compile([
            "$defs": ["node": ["type": "object", "properties": ["value": ["type": "integer"], "children": ["type": "array", "items": ["$ref": "#/$defs/node"]]]]],
            "$ref": "#/$defs/node",
        ])
        #expect(tree.validity(of: ["value": 1, "children": [["value": 2, "children": []], ["value": 3]]]) == .valid)
        #expect(tree.validity(of: ["value": 1, "children": [["value": 2, "children": [["value": "x"]]]]]) == .invalid)
        let errors = tree.validate(["value": 1, "children": [["value": "x"]]]).errors
        #expect(errors.map(\.keywordLocation) == ["/$ref/properties/children/items/$ref/properties/value/type"])
    }
}

extension Validity {
    var isUndecided: Bool {
        if case .undecided = self { return true }
        return false
    }
}
