import PetSpotJSON
import PetSpotPropertyEngine
import PetSpotPropertyTesting
import PetSpotSchema
import Testing

/// The fast path (`validity(of:)`: each keyword's `isValid`, automata) against the collecting
/// evaluator (`validate(_:)`: each keyword's `validate`), on generated instances of a
/// payload-shaped schema: they never disagree on valid versus invalid. Debug builds also make
/// this comparison inside every `validity(of:)` call; this test makes it in release builds too.
@Suite("Fast path agrees with the safe path")
struct FastPathAgreementTests {
    static let blank = #"[\t\n\u000b\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"#
    static let schema: JSONValue = [
        "type": "object",
        "properties": [
            "species": ["$ref": "#/$defs/nonBlank"],
            "sex": ["$ref": "#/$defs/nonBlank", "enum": ["MALE", "FEMALE", "UNKNOWN"]],
            "age": ["type": "integer", "minimum": 1, "maximum": 40],
            "chip": ["type": "string", "pattern": .string("^\(blank)*[0-9]{1,15}\(blank)*$")],
            "date": ["type": "string", "pattern": .string("^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$")],
            "phone": ["type": "string", "pattern": #"^\+*([0-9]\+*){3,5}$"#],
            "status": ["enum": ["MISSING", "FOUND"]],
            "tags": ["type": "array", "items": ["$ref": "#/$defs/nonBlank"], "uniqueItems": true, "maxItems": 3],
            "child": ["$ref": "#"],
        ],
        "patternProperties": ["^x-": ["type": "string"]],
        "required": ["species", "status"],
        "additionalProperties": false,
        "anyOf": [["required": ["phone"]], ["required": ["chip"]]],
        "$defs": ["nonBlank": ["type": "string", "pattern": .string("[^\(blank.dropFirst())")]],
    ]

    static let string = Gen<String>.frequency(
        (3, .element(of: ["DOG", "MALE", "FEMALE", "MISSING", "FOUND", "  ", "", "2025-06-01", "2025-13-01", "123", " 900 ",
                          "+48600", "++1+2+3", "1234567", "é", "\u{3000}x"])),
        (2, Gen<String>.element(of: ["a", "0", "9", "-", "+", " ", "\u{A0}", "é", "😀", "\n"]).array(count: 0...8).map { $0.joined() }))

    static let value: Gen<JSONValue> = .frequency(
        (6, string.map { JSONValue.string($0) }),
        (3, Gen.int(in: -2...45).map { JSONValue.number(JSONNumber($0)) }),
        (1, Gen.bool.map { JSONValue.bool($0) }),
        (1, .constant(.null)),
        (1, string.array(count: 0...4).map { JSONValue.array($0.map(JSONValue.string)) }))

    static let keys = ["species", "sex", "age", "chip", "date", "phone", "status", "tags", "x-note", "other", "child"]

    static let member = PetSpotPropertyEngine.zip(Gen.element(of: keys), value)

    /// Valid members to start from; random overrides then make about half the instances invalid.
    static let validMembers: [(key: String, value: JSONValue)] = [
        ("species", "DOG"), ("status", "FOUND"), ("phone", "+1+2+3"), ("sex", "MALE"), ("age", 3), ("chip", " 12 "),
        ("date", "2025-06-01"), ("tags", ["a", "b"]), ("x-note", "n"),
    ]

    /// A valid object (the three required members and some optional ones) with 0 to 2 random
    /// members written over it.
    static let object: Gen<JSONObject> = PetSpotPropertyEngine.zip(
        Gen.int(in: 3...validMembers.count), Gen.frequency((1, .constant(0)), (1, Gen.int(in: 1...2))), member.array(count: 2...2)
    ).map { kept, overrides, members in
        var object = JSONObject(Array(validMembers.prefix(kept)))
        for (key, value) in members.prefix(overrides) { object[key] = value }
        return object
    }

    static let instance: Gen<JSONValue> = PetSpotPropertyEngine.zip(object, object, Gen.bool).map { outer, inner, nests in
        var object = outer
        if nests { object["child"] = .object(inner) }
        return JSONValue.object(object)
    }

    @Test("the generated instances are a mix of valid and invalid ones")
    func generatedInstancesAreMixed() throws {
        let compiled = try JSONSchema.compile(Self.schema)
        var valid = 0
        for seed in UInt64(1)...400 {
            let instance = try Self.instance.sample(seed: seed)
            if compiled.validity(of: instance) == .valid { valid += 1 }
        }
        #expect(valid >= 40 && valid <= 360, "\(valid) of 400 valid: the agreement test needs both kinds")
    }

    @Test("valid versus invalid: validity(of:) and validate(_:) agree on generated instances")
    func fastAndSafePathsAgree() throws {
        let compiled = try JSONSchema.compile(Self.schema)
        #expect(compiled.validity(of: ["species": "DOG", "status": "FOUND", "phone": "+1+2+3", "child": ["species": "CAT", "status": "MISSING", "chip": " 12 "]]) == .valid)
        #expect(compiled.validity(of: ["species": "DOG", "status": "FOUND", "phone": "+1+2+3", "child": ["species": " ", "status": "MISSING", "chip": "1"]]) == .invalid)
        propertyCheck(Self.instance, configuration: PropertyConfiguration(cases: 2000), verifying: { instance in
            let fast = compiled.validity(of: instance)
            let safe = compiled.validate(instance)
            if case .undecided = fast { try require(false, "no pattern here can be undecided: \(instance.serialized())") }
            try require(safe.evaluationError == nil, "no pattern here can be undecided: \(instance.serialized())")
            try require((fast == .valid) == safe.isValid, "fast \(fast), safe \(safe.outcome) on \(instance.serialized())")
            try require(safe.isValid == safe.errors.isEmpty, "errors exactly when invalid: \(instance.serialized())")
        })
    }
}
