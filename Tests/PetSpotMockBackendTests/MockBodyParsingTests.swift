import Foundation
import PetSpotContractKit
import PetSpotHTTP
import PetSpotJSON
import Testing
@testable import PetSpotMockBackend

/// How a create body is read before the field rules: empty bodies, nesting, number literals,
/// encodings, as body-parser and `JSON.parse` read them (production) or stricter (strict).
@Suite("Create body parsing")
struct MockBodyParsingTests {
    @Test("no body at all vs a zero-length JSON body", arguments: BackendProfile.allCases)
    func emptyBodies(profile: BackendProfile) {
        let backend = makeBackend(profile)
        // Neither Content-Length nor Transfer-Encoding: no body at all.
        let none = backend.answer(request("POST", "/api/v1/announcements", headers: [("Content-Type", "application/json")]))
        expectError(none, 400, "MISSING_VALUE", field: nil)
        if profile == .production { #expect(message(none) == "Required") }
        // A zero-length body announced by Content-Length: 0 or chunked framing is parsed as {}.
        for framing in [("Content-Length", "0"), ("Transfer-Encoding", "chunked")] {
            let empty = backend.answer(request("POST", "/api/v1/announcements", headers: [("Content-Type", "application/json"), framing]))
            expectError(empty, 400, "MISSING_VALUE", field: "species")
            if profile == .production { #expect(message(empty) == "Required") }
        }
        // ... but only with a JSON Content-Type.
        for type in ["text/plain", "application/x-www-form-urlencoded", "application/jsonx"] {
            expectError(backend.answer(request("POST", "/api/v1/announcements", headers: [("Content-Type", type), ("Content-Length", "0")])),
                        400, "MISSING_VALUE", field: nil)
        }
        expectError(backend.answer(request("POST", "/api/v1/announcements", headers: [("Content-Length", "0")])), 400, "MISSING_VALUE", field: nil)
        // White space only is not JSON.
        let blank = backend.answer(framedCreateRequest(Array("  \n".utf8)))
        expectError(blank, profile == .production ? 500 : 400, profile == .production ? "INTERNAL_SERVER_ERROR" : "INVALID_FORMAT", field: nil)
    }

    /// `{"species": [[...]]}` nested `depth` deep, with the rest of a valid body.
    static func nestedSpecies(depth: Int) -> [UInt8] {
        var body = JSONValue.object(createBody(removing: ["species"])).serializedBytes()
        body.removeLast()
        return body + Array(",\"species\":".utf8) + [UInt8](repeating: 0x5B, count: depth) + [UInt8](repeating: 0x5D, count: depth) + [0x7D]
    }

    @Test("deep nesting is read to the end and refused by type, never a 500", arguments: BackendProfile.allCases)
    func deepNesting(profile: BackendProfile) {
        let backend = makeBackend(profile)
        for depth in [65, 513, 10_000, 50_000] {
            let response = backend.answer(framedCreateRequest(Self.nestedSpecies(depth: depth)))
            expectError(response, 400, "INVALID_FORMAT", field: "species")
            if profile == .production { #expect(message(response) == "Expected string, received array") }
        }
        let topLevel = [UInt8](repeating: 0x5B, count: 10_000) + [UInt8](repeating: 0x5D, count: 10_000)
        let array = backend.answer(framedCreateRequest(topLevel))
        expectError(array, 400, "INVALID_FORMAT", field: nil)
        if profile == .production { #expect(message(array) == "Expected object, received array") }
        var unknown = JSONValue.object(createBody()).serializedBytes()
        unknown.removeLast()
        unknown += Array(",\"extra\":".utf8) + Array(String(repeating: "{\"a\":", count: 5000).utf8) + Array("1".utf8)
            + [UInt8](repeating: 0x7D, count: 5001)
        expectError(backend.answer(framedCreateRequest(unknown)), 400, "INVALID_FIELD", field: "extra")
        // Deep but broken is still not JSON.
        let broken = [UInt8](repeating: 0x5B, count: 10_000) + [UInt8](repeating: 0x5D, count: 9_999)
        #expect(backend.answer(framedCreateRequest(broken)).status == (profile == .production ? 500 : 400))
        #expect(backend.storedAnnouncementCount == 0)
    }

    /// A valid body with `locationLatitude` (or `field`) written as `literal`.
    static func body(_ field: String, literal: String) -> [UInt8] {
        var object = createBody()
        object[field] = nil
        var body = JSONValue.object(object).serializedBytes()
        body.removeLast()
        return body + Array(",\"\(field)\":\(literal)}".utf8)
    }

    @Test("numbers are read as JavaScript reads them: exponents out of range are 0 or Infinity", arguments: BackendProfile.allCases)
    func exponents(profile: BackendProfile) throws {
        let backend = makeBackend(profile)
        for literal in ["1e-99999999999999999999", "-1e-99999999999999999999", "0e99999999999999999999", "1E-400"] {
            let response = backend.answer(framedCreateRequest(Self.body("locationLatitude", literal: literal)))
            #expect(response.status == 201, "\(literal): \(response.bodyText)")
            #expect(response.bodyText.contains(#""locationLatitude":0,"#), "\(literal)")
        }
        for literal in ["1e99999999999999999999", "-1e400", "123e99999999999999"] {
            let response = backend.answer(framedCreateRequest(Self.body("locationLatitude", literal: literal)))
            expectError(response, 400, "INVALID_FORMAT", field: "locationLatitude")
            if profile == .production { #expect(message(response) == "latitude must be between -90 and 90") }
        }
        let age = backend.answer(framedCreateRequest(Self.body("age", literal: "1e99999999999999999999")))
        expectError(age, 400, "INVALID_FORMAT", field: "age")
        if profile == .production { #expect(message(age) == "Expected integer, received float") }
        let bigAge = backend.answer(framedCreateRequest(Self.body("age", literal: "1e300")))
        #expect(bigAge.status == 201, "an integer JavaScript can hold")
    }

    @Test("production reads what JSON.parse reads (BOM, invalid UTF-8, lone surrogates); strict refuses it")
    func lenientText() throws {
        let production = makeBackend(.production), strict = makeBackend(.strict)
        let valid = JSONValue.object(createBody()).serializedBytes()
        let withBOM = [0xEF, 0xBB, 0xBF] + valid
        #expect(production.answer(framedCreateRequest(withBOM)).status == 201)
        expectError(strict.answer(framedCreateRequest(withBOM)), 400, "INVALID_FORMAT", field: nil)
        for (literal, stored) in [([0x22, 0x52, 0x65, 0x78, 0xFF, 0x22] as [UInt8], "Rex\u{FFFD}"), (Array(#""\ud800x""#.utf8), "\u{FFFD}x")] {
            var body = JSONValue.object(createBody(removing: ["petName"])).serializedBytes()
            body.removeLast()
            body += Array(",\"petName\":".utf8) + literal + [0x7D]
            let response = production.answer(framedCreateRequest(body))
            #expect(response.status == 201, "\(response.bodyText)")
            #expect(json(response)["petName"] == .string(stored))
            expectError(strict.answer(framedCreateRequest(body)), 400, "INVALID_FORMAT", field: nil)
        }
    }

    @Test("the JSON.parse fallback parser: grammar, duplicates, depth, offsets")
    func fallbackParser() throws {
        let keepLast = JavaScriptJSONParser.Options(duplicateKeys: .keepLast, keptDepth: 3, rejectsLoneSurrogates: false)
        let outcome = try JavaScriptJSONParser.parse(Array(#" {"a": [1, [2, [3, [4]]]], "b": "x", "a": {"c": true}, "d": [null, -0.5e1]} "#.utf8),
                                                     options: keepLast)
        #expect(outcome.value == ["a": ["c": true], "b": "x", "d": [nil, -5]])
        #expect(outcome.deepestNesting == 5)
        let deep = try JavaScriptJSONParser.parse(Array(#"{"a": [1, [2, [3, [4]]]]}"#.utf8), options: keepLast)
        #expect(deep.value == ["a": [1, [2, []]]], "containers past the kept depth are empty placeholders")
        #expect(deep.deepestNesting == 5)
        let rejecting = JavaScriptJSONParser.Options(duplicateKeys: .reject, keptDepth: 64, rejectsLoneSurrogates: true)
        #expect(throws: JSONParseError(offset: 9, reason: "duplicate key \"a\"")) {
            try JavaScriptJSONParser.parse(Array(#"{"a": 1, "a": 2}"#.utf8), options: rejecting)
        }
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "tru", "\"\u{01}\"", "[1] 2", "{\"a\":1,}", "\"\\x\"", "+1", ".5", "NaN"] {
            #expect(throws: JSONParseError.self, "\(bad)") { try JavaScriptJSONParser.parse(Array(bad.utf8), options: keepLast) }
        }
        // A surrogate escape without its pair is U+FFFD; the escape after it is read on its own.
        let surrogates = try JavaScriptJSONParser.parse(Array(#"["\ud800\u0041", "\udc00", "\ud83d\ude00"]"#.utf8), options: keepLast)
        #expect(surrogates.value == ["\u{FFFD}A", "\u{FFFD}", "\u{1F600}"])
        #expect(throws: JSONParseError(offset: 2, reason: "high surrogate not followed by a low surrogate")) {
            try JavaScriptJSONParser.parse(Array(#"["\ud800\u0041"]"#.utf8), options: rejecting)
        }
        let numbers = try JavaScriptJSONParser.parse(Array("[1e-99999999999999999999, -1e99999999999999999999, 2.5E+2]".utf8), options: keepLast)
        #expect(numbers.hasOutOfRangeExponent)
        #expect(numbers.value[0]?.numberValue?.doubleValue == 0)
        #expect(numbers.value[1]?.numberValue?.doubleValue == -.infinity)
        #expect(numbers.value[2]?.numberValue?.doubleValue == 250)
    }

    @Test("JavaScript helpers: parseFloat, decodeURIComponent, zod type names")
    func javaScriptHelpers() {
        let cases: [(String, Double)] = [
            ("50.06abc", 50.06), ("  12", 12), ("\u{00A0}\u{FEFF}7", 7), ("-0.5e2x", -50), (".5", 0.5), ("5.", 5), ("1e", 1), ("1e+", 1),
            ("0x10", 0), ("Infinity", .infinity), ("-Infinityx", -.infinity), ("+3", 3), ("1e-99999999999999999999", 0), ("1,2", 1),
        ]
        for (text, expected) in cases { #expect(JavaScript.parseFloat(text) == expected, "\(text)") }
        for text in ["", "abc", ".", "-", "+.e1", " ", "e5", "infinity"] { #expect(JavaScript.parseFloat(text).isNaN, "\(text)") }
        #expect(JavaScript.parseFloatPrefix("12").isWholeText && !JavaScript.parseFloatPrefix("12a").isWholeText)
        #expect(!JavaScript.parseFloatPrefix(" 12").isWholeText)
        #expect(JavaScript.decodeURIComponent("a%20b%E2%82%AC") == "a b€")
        for bad in ["%", "%2", "%zz", "%E0%A4%A", "%FF", "%C0%AF", "%ED%A0%80"] { #expect(JavaScript.decodeURIComponent(bad) == nil, "\(bad)") }
        #expect(JavaScript.zodTypeName(.null) == "null" && JavaScript.zodTypeName([1]) == "array" && JavaScript.zodTypeName(true) == "boolean")
        #expect(JavaScript.isDayWithinMonth("2024-02-29") && !JavaScript.isDayWithinMonth("2025-02-29") && !JavaScript.isDayWithinMonth("2025-04-31"))
        #expect(JavaScript.isDayWithinMonth("2025-12-31") && !JavaScript.isDayWithinMonth("2025-13-01"))
    }
}
