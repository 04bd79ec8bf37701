import PetSpotJSON
import Testing
@testable import PetSpotContractKit

@Suite("Negative create catalog")
struct NegativeCaseCatalogTests {
    let contract: ContractDocuments
    init() throws { contract = try ContractDocuments.bundled() }

    var catalog: CaseCatalog { contract.negativeCases }
    var schemaProperties: JSONObject { contract[.createRequest]["properties"]?.objectValue ?? JSONObject() }

    @Test("the base payload is a complete Missing payload")
    func basePayload() {
        #expect(catalog.version == 2)
        #expect(catalog.basePayload.keys == schemaProperties.keys, "every field, in the documented order")
        #expect(catalog.basePayload["status"] == "MISSING")
        #expect(catalog.basePayload(microchipNumber: "123").keys == catalog.basePayload.keys)
        #expect(catalog.basePayload(microchipNumber: "123")["microchipNumber"] == "123")
    }

    @Test("every case's mutation applies to the base payload")
    func mutationsApply() throws {
        for item in catalog.cases {
            let body = try item.body(from: catalog.basePayload)
            if item.mutation.replacement == nil && item.mutation.setRawJSON.isEmpty && item.mutation.setNestedArrays.isEmpty {
                let object = try #require(body.json?.objectValue, "\(item.id)")
                for key in item.mutation.remove where !item.mutation.set.contains(key: key) {
                    #expect(!object.contains(key: key), "\(item.id) removes \(key)")
                }
                for member in item.mutation.set.members {
                    #expect(object[member.key] == member.value, "\(item.id) sets \(member.key)")
                }
                for repeated in item.mutation.setRepeated {
                    #expect(object[repeated.field]?.stringValue?.count == repeated.count * repeated.text.count)
                }
            }
            #expect(!body.bytes.isEmpty || body.content == .empty, "\(item.id)")
            #expect((item.createRequestSchema != nil) == (body.json != nil), "\(item.id): a schema verdict exactly for JSON bodies")
        }
    }

    @Test("every error field is a schema property, contact, or the unknown key the case adds")
    func fieldsAreMeaningful() throws {
        for item in catalog.cases {
            for profile in BackendProfile.allCases {
                let expected = item.expected(for: profile)
                guard let field = expected.field else { continue }
                switch expected.code {
                case "INVALID_FIELD":
                    #expect(!schemaProperties.contains(key: field), "\(item.id)")
                    #expect(item.mutation.set.contains(key: field), "\(item.id): the unknown key is one the case adds")
                case "MISSING_CONTACT":
                    #expect(field == "contact", "\(item.id)")
                default:
                    #expect(schemaProperties.contains(key: field), "\(item.id): \(field)")
                }
            }
        }
    }

    @Test("profiles differ only where backend-contract.md says the strict mock differs")
    func profileDifferences() {
        let differing = catalog.cases.filter(\.profilesDiffer)
        #expect(!differing.isEmpty)
        for item in differing {
            let strict = item.expected(for: .strict)
            let production = item.expected(for: .production)
            let emptyOptionalText = strict.code == "INVALID_FORMAT"
                && ["petName", "breed", "description", "reward"].contains(strict.field ?? "")
            let notJSON = production.code == "INTERNAL_SERVER_ERROR" && strict == ExpectedResponse(status: 400, code: "INVALID_FORMAT")
            #expect(emptyOptionalText || notJSON, "\(item.id)")
        }
        let alike = catalog.cases.first { $0.strictExpected == nil }
        #expect(alike.map { $0.expected(for: .strict) == $0.expected(for: .production) } == true)
    }

    @Test("known production defects: production's answer beside the sane strict one, never on a 2xx")
    func knownProductionDefects() throws {
        let marked = catalog.cases.filter { $0.knownProductionDefect != nil }
        #expect(Set(marked.map(\.id)) == ["body-not-json", "body-not-json-single-quotes", "body-json-string"])
        for item in marked {
            #expect(item.profilesDiffer, "\(item.id)")
            #expect(item.expected.isError, "\(item.id)")
        }
    }

    @Test("the empty-body case is a zero-length JSON body, answered like {}")
    func emptyBody() throws {
        let item = try #require(catalog[id: "body-empty"])
        let body = try item.body(from: catalog.basePayload)
        #expect(body.content == .empty && body.contentType == "application/json")
        #expect(item.expected(for: .production) == ExpectedResponse(status: 400, code: "MISSING_VALUE", field: "species"))
        #expect(item.expected(for: .production) == catalog[id: "order-empty-object"]?.expected(for: .production))
    }

    @Test("inferred cases explain themselves; duplicate cases keep the base microchip")
    func notesAndSetups() {
        for item in catalog.cases where item.inferred { #expect(item.note != nil, "\(item.id)") }
        let setups = catalog.cases.filter { $0.setup == .createBaseFirst }
        #expect(setups.contains { $0.expected(for: .production).code == "CONFLICT" })
        for item in setups {
            #expect(!item.mutation.set.contains(key: "microchipNumber") && !item.mutation.remove.contains("microchipNumber"))
        }
    }

    @Test("every create-request field has absent (if required), null, wrong-type and empty cases")
    func perFieldCoverage() throws {
        #expect(missingCoverage(schema: contract[.createRequest], catalog: catalog) == [])
    }

    @Test("the coverage check notices a field added to the schema without cases")
    func coverageNoticesMissingField() throws {
        var schema = try #require(contract[.createRequest].objectValue)
        var properties = try #require(schema["properties"]?.objectValue)
        properties["collarColour"] = ["type": "string"]
        schema["properties"] = .object(properties)
        var required = try #require(schema["required"]?.arrayValue)
        required.append("collarColour")
        schema["required"] = .array(required)
        #expect(missingCoverage(schema: .object(schema), catalog: catalog) == [
            "collarColour: absent", "collarColour: null", "collarColour: empty string", "collarColour: wrong type",
        ])
    }

    /// The basic cases each schema property lacks in the catalog, as `field: kind` lines.
    private func missingCoverage(schema: JSONValue, catalog: CaseCatalog) -> [String] {
        let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        var missing: [String] = []
        for (field, property) in schema["properties"]?.objectValue?.members ?? [] {
            let allowed = allowedJSONTypes(of: property, in: schema)
            // Single-field cases only: the mutation touches this field and nothing else.
            let single = catalog.cases.filter { item in
                item.mutation.replacement == nil && item.mutation.setRepeated.isEmpty
                    && Set(item.mutation.remove + item.mutation.set.keys) == [field]
            }
            let setValues = single.compactMap { $0.mutation.set[field] }
            if required.contains(field), !single.contains(where: { $0.mutation.remove == [field] }) {
                missing.append("\(field): absent")
            }
            if !setValues.contains(.null) { missing.append("\(field): null") }
            if !setValues.contains("") { missing.append("\(field): empty string") }
            if allowed.isEmpty || !setValues.contains(where: { !$0.isNull && !allowed.contains(jsonType(of: $0)) }) {
                missing.append("\(field): wrong type")
            }
        }
        return missing
    }

    @Test("multi-fault cases report the first faulty field in the documented order")
    func orderCases() throws {
        let order = schemaProperties.keys
        let required = Set(contract[.createRequest]["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        var multiFault = 0
        for item in catalog.cases where item.mutation.replacement == nil {
            let touched = Set(item.mutation.remove + item.mutation.set.keys).intersection(order)
            guard touched.count >= 2 else { continue }
            for profile in BackendProfile.allCases {
                guard let reported = item.expected(for: profile).field, order.contains(reported) else { continue }
                multiFault += 1
                #expect(touched.contains(reported), "\(item.id): reports \(reported), which it does not touch")
                // Every touched field before the reported one must hold something that profile
                // accepts on its own: an optional field removed, or a value whose single-field
                // case succeeds.
                for earlier in order.prefix(while: { $0 != reported }) where touched.contains(earlier) {
                    if item.mutation.remove.contains(earlier) && !item.mutation.set.contains(key: earlier) {
                        #expect(!required.contains(earlier), "\(item.id): \(earlier) is required and absent")
                        continue
                    }
                    let value = item.mutation.set[earlier]
                    let alone = catalog.cases.first { other in
                        other.mutation.remove.isEmpty && other.mutation.set.keys == [earlier] && other.mutation.set[earlier] == value
                    }
                    #expect(alone.map { !$0.expected(for: profile).isError } == true,
                            "\(item.id) (\(profile)): \(earlier) precedes \(reported) but is not known to be accepted alone")
                }
            }
        }
        #expect(multiFault >= 10)
    }

    @Test("expected(for:) falls back to production when the strict mock agrees")
    func expectedForProfile() throws {
        let differing = try #require(catalog[id: "petName-empty"])
        #expect(differing.expected(for: .production) == ExpectedResponse(status: 201))
        #expect(differing.expected(for: .strict) == ExpectedResponse(status: 400, code: "INVALID_FORMAT", field: "petName"))
        let same = try #require(catalog[id: "age-zero"])
        #expect(same.expected(for: .strict) == same.expected(for: .production))
        #expect(same.expected(for: .production) == ExpectedResponse(status: 400, code: "INVALID_FORMAT", field: "age"))
    }

    private func jsonType(of value: JSONValue) -> String {
        if case .number(let number) = value, number.isInteger { return "integer" }
        return value.typeName
    }

    /// The JSON types a property admits: its `type`, its local `$ref`'s, or its `enum` members'.
    private func allowedJSONTypes(of property: JSONValue, in schema: JSONValue) -> Set<String> {
        var types: Set<String> = []
        if let single = property["type"]?.stringValue { types.insert(single) }
        for item in property["type"]?.arrayValue ?? [] { if let name = item.stringValue { types.insert(name) } }
        for value in property["enum"]?.arrayValue ?? [] { types.insert(value.typeName) }
        if let reference = property["$ref"]?.stringValue, reference.hasPrefix("#/") {
            var target: JSONValue? = schema
            for token in reference.dropFirst(2).split(separator: "/") { target = target?[String(token)] }
            if let target { types.formUnion(allowedJSONTypes(of: target, in: schema)) }
        }
        if types.contains("number") { types.insert("integer") }
        return types
    }
}
