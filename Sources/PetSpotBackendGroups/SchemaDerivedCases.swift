import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend

/// Negative create requests derived from the create-request schema document itself, so a new
/// field, bound or pattern in a recaptured schema is exercised without editing the runner.
///
/// Each case mutates one member of a valid base payload; the expected answer follows
/// backend-contract.md (absent required field: `MISSING_VALUE`; `null`, wrong type, bound,
/// pattern or enum: `INVALID_FORMAT`; unknown key: `INVALID_FIELD`), `field` naming the member.
package enum SchemaDerivedCases {
    /// Kinds of derivation; each is one contract in the report.
    package enum Category: String, CaseIterable, Sendable {
        /// A required member removed.
        case dropRequired
        /// A member set to `null`.
        case nullValue
        /// A member of another JSON type.
        case wrongType
        /// A number just past its minimum or maximum.
        case bounds
        /// A string against its pattern.
        case pattern
        /// A value outside its enumeration.
        case enumValue
        /// A key the object does not allow.
        case unknownKey

        /// The contract's name.
        package var contractName: String {
            switch self {
            case .dropRequired: "each required field dropped answers 400 MISSING_VALUE"
            case .nullValue: "each field null answers 400 INVALID_FORMAT"
            case .wrongType: "each field of a wrong JSON type answers 400 INVALID_FORMAT"
            case .bounds: "each number past its bound answers 400 INVALID_FORMAT"
            case .pattern: "each string against its pattern answers 400 INVALID_FORMAT"
            case .enumValue: "each value outside its enum answers 400 INVALID_FORMAT"
            case .unknownKey: "each unknown key answers 400 INVALID_FIELD"
            }
        }
    }

    /// One derived request.
    package struct Case: Sendable {
        /// `category:field[:variant]`.
        package var id: String
        /// The kind of derivation.
        package var category: Category
        /// The member mutated.
        package var field: String
        /// The body to send.
        package var body: JSONObject
        /// The answer it must get.
        package var expected: ExpectedResponse
    }

    /// Keys the backend must refuse as unknown (response-only keys and the app's iOS-only ones).
    package static let unknownKeys = ["id", "photoUrl", "managementPassword", "createdAt", "caregiverPhone", "currentAddress"]

    /// Derives the cases from `schema` and a valid `base`, keeping those `schemaRejects`.
    package static func make(schema: JSONValue, base: JSONObject, schemaRejects: (JSONValue) -> Bool) -> [Case] {
        let properties = schema["properties"]?.objectValue ?? JSONObject()
        let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        var cases: [Case] = []
        func add(_ category: Category, _ field: String, _ variant: String?, _ body: JSONObject, _ expected: ExpectedResponse) {
            guard schemaRejects(.object(body)) else { return }
            let id = [category.rawValue, field, variant].compactMap { $0 }.joined(separator: ":")
            cases.append(Case(id: id, category: category, field: field, body: body, expected: expected))
        }
        func invalidFormat(_ field: String) -> ExpectedResponse { ExpectedResponse(status: 400, code: "INVALID_FORMAT", field: field) }
        for (field, property) in properties.members {
            guard let value = base[field] else { continue }
            if required.contains(field) {
                var body = base
                body[field] = nil
                add(.dropRequired, field, nil, body, ExpectedResponse(status: 400, code: "MISSING_VALUE", field: field))
            }
            var nulled = base
            nulled[field] = .null
            add(.nullValue, field, nil, nulled, invalidFormat(field))
            var wrongValues: [(String, JSONValue)] = []
            switch value {
            case .string: wrongValues = [("number", 42), ("boolean", true)]
            case .number(let number):
                wrongValues = [("string", .string(number.description))]
                if property["type"]?.stringValue == "integer" { wrongValues.append(("fraction", 1.5)) }
            default: wrongValues = [("string", "x")]
            }
            wrongValues.append(("array", .array([value])))
            for (variant, wrong) in wrongValues {
                var body = base
                body[field] = wrong
                add(.wrongType, field, variant, body, invalidFormat(field))
            }
            if let minimum = property["minimum"]?.numberValue {
                var body = base
                body[field] = .number(JSONNumber(minimum.doubleValue - 1))
                add(.bounds, field, "below", body, invalidFormat(field))
            }
            if let maximum = property["maximum"]?.numberValue {
                var body = base
                body[field] = .number(JSONNumber(maximum.doubleValue + 1))
                add(.bounds, field, "above", body, invalidFormat(field))
            }
            let hasPattern = property["pattern"] != nil || (property["allOf"]?.arrayValue?.contains { $0["pattern"] != nil } ?? false)
            if hasPattern {
                var body = base
                body[field] = "x"
                add(.pattern, field, nil, body, invalidFormat(field))
            }
            if let options = property["enum"]?.arrayValue {
                for (variant, candidate) in [("lowercase", options.first?.stringValue?.lowercased()), ("closed", "CLOSED")] {
                    guard let candidate, !options.contains(.string(candidate)) else { continue }
                    var body = base
                    body[field] = .string(candidate)
                    add(.enumValue, field, variant, body, invalidFormat(field))
                }
            }
        }
        if schema["additionalProperties"] == .bool(false) {
            for key in unknownKeys where properties[key] == nil {
                var body = base
                body[key] = key == "photoUrl" ? .null : "x"
                add(.unknownKey, key, nil, body, ExpectedResponse(status: 400, code: "INVALID_FIELD", field: key))
            }
        }
        return cases
    }
}
