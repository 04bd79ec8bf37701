import PetSpotJSON
import Testing
@testable import PetSpotContractKit

@Suite("Mutation language")
struct CaseMutationTests {
    let base = JSONObject([(key: "a", value: 1), (key: "b", value: 2), (key: "c", value: 3)])

    func mutation(_ text: String) throws -> CaseMutation {
        try CaseMutation.decode(CatalogNode(root: json(text)))
    }

    @Test("set replaces in place and appends new keys in written order")
    func setOrder() throws {
        let body = try mutation(#"{"set": {"z": 9, "b": null, "y": 8}}"#).apply(to: base)
        let object = try #require(body.json?.objectValue)
        #expect(object.keys == ["a", "b", "c", "z", "y"])
        #expect(object["b"] == .null)
        #expect(body.contentType == "application/json")
        #expect(String(decoding: body.bytes, as: UTF8.self) == #"{"a":1,"b":null,"c":3,"z":9,"y":8}"#)
    }

    @Test("remove takes a key or a list, then set and setRepeated apply")
    func removeThenSet() throws {
        let single = try mutation(#"{"remove": "a"}"#).apply(to: base)
        #expect(single.json?.objectValue?.keys == ["b", "c"])
        let list = try mutation(#"{"remove": ["a", "c"], "set": {"a": "back"}, "setRepeated": {"b": {"text": "ab", "count": 3}}}"#).apply(to: base)
        #expect(list.json == ["b": "ababab", "a": "back"])
        #expect(list.json?.objectValue?.keys == ["b", "a"])
    }

    @Test("removing a key the base lacks is an error naming it")
    func removeMissing() throws {
        #expect(throws: CaseMutationError(key: "q")) { try mutation(#"{"remove": "q"}"#).apply(to: base) }
    }

    @Test("replacement bodies and content types")
    func replacements() throws {
        #expect(try mutation(#"{"jsonBody": [1]}"#).apply(to: base) == CaseBody(content: .json([1]), contentType: "application/json"))
        let raw = try mutation(#"{"rawBody": "{\"a\": ", "contentType": "text/plain"}"#).apply(to: base)
        #expect(raw.bytes == Array(#"{"a": "#.utf8))
        #expect(raw.contentType == "text/plain")
        let empty = try mutation(#"{"emptyBody": true, "contentType": null}"#).apply(to: base)
        #expect(empty.bytes.isEmpty && empty.contentType == nil && empty.content == .empty)
        #expect(try mutation("{}").apply(to: base).json == .object(base))
    }

    @Test("setRawJSON and setNestedArrays splice text into the body, keeping the field's place")
    func splicedValues() throws {
        let raw = try mutation(#"{"set": {"a": 5}, "setRawJSON": {"b": "1e-99999999999999999999", "d": "-0"}}"#).apply(to: base)
        #expect(raw.content == .raw(#"{"a":5,"b":1e-99999999999999999999,"c":3,"d":-0}"#))
        #expect(raw.json == nil && raw.contentType == "application/json")
        let nested = try mutation(#"{"remove": "c", "setNestedArrays": {"a": 3}}"#).apply(to: base)
        #expect(String(decoding: nested.bytes, as: UTF8.self) == #"{"a":[[[]]],"b":2}"#)
        let deep = try mutation(#"{"setNestedArrays": {"b": 10000}}"#).apply(to: base)
        #expect(deep.bytes.count == #"{"a":1,"b":,"c":3}"#.utf8.count + 20_000)
        let text = String(decoding: deep.bytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"a":1,"b":[[["#) && text.hasSuffix(#"]]],"c":3}"#))
        #expect(text.filter { $0 == "[" }.count == 10_000 && text.filter { $0 == "]" }.count == 10_000)
    }

    @Test("malformed mutations are refused with their key path", arguments: [
        (#"{"rawBody": "x", "jsonBody": 1}"#, "$", "jsonBody and rawBody exclude each other"),
        (#"{"rawBody": "x", "set": {"a": 1}}"#, "$", "rawBody replaces the body and cannot be combined with remove, set, setRepeated, setRawJSON or setNestedArrays"),
        (#"{"rawBody": "x", "setNestedArrays": {"a": 2}}"#, "$", "rawBody replaces the body and cannot be combined with remove, set, setRepeated, setRawJSON or setNestedArrays"),
        (#"{"setRawJSON": {"a": ""}}"#, "$.setRawJSON.a", "expected a non-empty string"),
        (#"{"setNestedArrays": {"a": 0}}"#, "$.setNestedArrays.a", "0 is outside 1...16777216"),
        (#"{"setRawJSON": {"a": "1"}, "setNestedArrays": {"a": 2}}"#, "$.setNestedArrays", "a is set by both setRawJSON and setNestedArrays"),
        (#"{"emptyBody": false}"#, "$.emptyBody", "emptyBody is either true or left out"),
        (#"{"sett": {}}"#, "$", "unknown key \"sett\" (allowed: contentType, emptyBody, jsonBody, rawBody, remove, set, setNestedArrays, setRawJSON, setRepeated)"),
        (#"{"remove": [1]}"#, "$.remove[0]", "expected a string, found number"),
        (#"{"setRepeated": {"d": {"text": "x", "count": 99999999999}}}"#, "$.setRepeated.d.count", "99999999999 is outside 0...33554432"),
        (#"{"contentType": ""}"#, "$.contentType", "expected a non-empty string"),
    ])
    func malformed(text: String, path: String, reason: String) throws {
        #expect(throws: CatalogDecodingError(path: path, reason: reason)) { try mutation(text) }
    }

    @Test("catalog-level errors name the case index")
    func catalogPaths() throws {
        let duplicate = try json(#"""
            {"version": 1, "basePayload": {}, "cases": [
              {"id": "a", "description": "d", "mutation": {}, "expected": {"status": 201}},
              {"id": "a", "description": "d", "mutation": {}, "expected": {"status": 201}}]}
            """#)
        #expect(throws: CatalogDecodingError(path: "$.cases[1]", reason: "duplicate case id \"a\"")) { try CaseCatalog(json: duplicate) }
        let newer = try json(#"{"version": 3, "basePayload": {}, "cases": []}"#)
        #expect(throws: CatalogDecodingError(path: "$.version", reason: "catalog version 3 is newer than this kit reads (2)")) { try CaseCatalog(json: newer) }
        #expect(try CaseCatalog(json: json(#"{"version": 1, "basePayload": {}, "cases": []}"#)).version == 1, "older versions still read")
        let defectWithoutStrict = try json(#"""
            {"version": 2, "basePayload": {}, "cases": [{"id": "a", "description": "d", "mutation": {},
              "expected": {"status": 500, "code": "INTERNAL_SERVER_ERROR"}, "knownProductionDefect": "unmapped error"}]}
            """#)
        #expect(throws: CatalogDecodingError(path: "$.cases[0].knownProductionDefect", reason: "a known production defect needs a strictExpected with the sane answer, different from expected")) {
            try CaseCatalog(json: defectWithoutStrict)
        }
        let defect = try json(#"""
            {"version": 2, "basePayload": {}, "cases": [{"id": "a", "description": "d", "mutation": {},
              "expected": {"status": 500, "code": "INTERNAL_SERVER_ERROR"}, "strictExpected": {"status": 400, "code": "INVALID_FORMAT"},
              "knownProductionDefect": "unmapped error"}]}
            """#)
        #expect(try CaseCatalog(json: defect).cases.first?.knownProductionDefect == "unmapped error")
        let noCode = try json(#"{"version": 1, "basePayload": {}, "cases": [{"id": "a", "description": "d", "mutation": {}, "expected": {"status": 400}}]}"#)
        #expect(throws: CatalogDecodingError(path: "$.cases[0].expected", reason: "an error status needs a \"code\"")) { try CaseCatalog(json: noCode) }
        let badSlug = try json(#"{"version": 1, "basePayload": {}, "cases": [{"id": "a b", "description": "d", "mutation": {}, "expected": {"status": 201}}]}"#)
        #expect(throws: CatalogDecodingError(path: "$.cases[0].id", reason: "an id is a slug of ASCII letters, digits and hyphens")) { try CaseCatalog(json: badSlug) }
        #expect(throws: CatalogDecodingError(path: "$", reason: "expected an object, found array")) { try CaseCatalog(json: [1]) }
    }

    @Test("ExpectedResponse compares actual answers")
    func mismatch() throws {
        let expected = ExpectedResponse(status: 400, code: "INVALID_FORMAT", field: "age")
        let good = try json(#"{"error": {"requestId": "r", "code": "INVALID_FORMAT", "message": "m", "field": "age"}}"#)
        #expect(expected.mismatch(status: 400, body: good) == nil)
        #expect(expected.mismatch(status: 500, body: good) == "expected 400 INVALID_FORMAT field=age, got status 500")
        #expect(expected.mismatch(status: 400, body: nil) == "expected 400 INVALID_FORMAT field=age, got status 400 without an error envelope")
        let otherField = try json(#"{"error": {"requestId": "r", "code": "INVALID_FORMAT", "message": "m", "field": "species"}}"#)
        #expect(expected.mismatch(status: 400, body: otherField) == #"expected 400 INVALID_FORMAT field=age, got field "species""#)
        let noField = ExpectedResponse(status: 400, code: "MISSING_VALUE")
        #expect(noField.mismatch(status: 400, body: otherField) == "expected 400 MISSING_VALUE (no field), got code INVALID_FORMAT")
        let missing = try json(#"{"error": {"requestId": "r", "code": "MISSING_VALUE", "message": "m", "field": "species"}}"#)
        #expect(noField.mismatch(status: 400, body: missing) == #"expected 400 MISSING_VALUE (no field), got field "species""#)
        #expect(ExpectedResponse(status: 201).mismatch(status: 201, body: nil) == nil)
    }
}
