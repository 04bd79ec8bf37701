import Foundation
import PetSpotJSON
import Testing

@Suite("JSON parser (RFC 8259)")
struct JSONParserTests {
    @Test(arguments: [
        ("0", JSONValue.number(JSONNumber(0))),
        ("-0", .number(JSONNumber(0))),
        ("  true ", .bool(true)),
        ("false", .bool(false)),
        ("null", .null),
        (#""a\"b\\c\/d\b\f\n\r\t""#, .string("a\"b\\c/d\u{8}\u{c}\n\r\t")),
        (#""\u00e9\uD83D\uDC36""#, .string("é🐶")),
        ("\"żółw 🐢\"", .string("żółw 🐢")),
        ("[]", .array([])),
        ("{}", .object(JSONObject())),
        (#"[1, "x", {"a": [null]}]"#, [1, "x", ["a": [nil]]]),
        ("\t\n\r [ 1 ,2 ] \n", [1, 2]),
        ("1.5e+3", .number(JSONNumber(literal: "1500")!)),
        ("-12.50E-1", .number(JSONNumber(literal: "-1.25")!)),
    ] as [(String, JSONValue)])
    func accepts(text: String, expected: JSONValue) throws {
        #expect(try JSONValue.parse(text) == expected)
    }

    @Test(arguments: [
        ("", 0, "unexpected end of input, expected a value"),
        ("   ", 3, "unexpected end of input, expected a value"),
        ("01", 1, "leading zero in number"),
        ("-", 1, "expected a digit"),
        ("1.", 2, "expected a digit after the decimal point"),
        (".5", 0, "unexpected '.', expected a value"),
        ("1e", 2, "expected a digit in the exponent"),
        ("+1", 0, "unexpected '+', expected a value"),
        ("[1,]", 3, "unexpected ']', expected a value"),
        ("[1 2]", 3, "expected ',' or ']' in array, found '2'"),
        (#"{"a" 1}"#, 5, "expected ':' after key, found '1'"),
        (#"{"a":1,}"#, 7, "expected a string key, found '}'"),
        ("{a:1}", 1, "expected a string key, found 'a'"),
        ("tru", 3, "invalid literal, expected 'true'"),
        ("nul!", 3, "invalid literal, expected 'null'"),
        ("\"abc", 4, "unterminated string"),
        ("\"a\tb\"", 2, "control character in string (escape it)"),
        (#""\x""#, 2, "invalid escape \\'x'"),
        (#""\u12G4""#, 5, "invalid hex digit in \\u escape"),
        (#""\uD83D""#, 1, "unpaired high surrogate escape"),
        (#""\uDC36""#, 1, "unpaired low surrogate escape"),
        (#""\uD83D\u0041""#, 1, "high surrogate not followed by a low surrogate"),
        ("1 2", 2, "unexpected '2' after the value"),
        ("[1]]", 3, "unexpected ']' after the value"),
        ("NaN", 0, "unexpected 'N', expected a value"),
    ] as [(String, Int, String)])
    func rejectsWithOffset(text: String, offset: Int, reason: String) {
        #expect(throws: JSONParseError(offset: offset, reason: reason)) { try JSONValue.parse(text) }
    }

    @Test(arguments: [
        ([0x22, 0xFF, 0x22], 1, "invalid UTF-8 lead byte 0xFF"),
        ([0x22, 0xC3, 0x22], 2, "invalid UTF-8 continuation byte"),
        ([0x22, 0xC0, 0xAF, 0x22], 1, "invalid UTF-8 lead byte 0xC0"),
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 2, "invalid UTF-8 continuation byte"),
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 2, "invalid UTF-8 continuation byte"),
        ([0x22, 0xE2, 0x82], 3, "truncated UTF-8 sequence"),
        ([0xEF, 0xBB, 0xBF, 0x31], 0, "byte order mark before the value"),
    ] as [([UInt8], Int, String)])
    func rejectsInvalidUTF8(bytes: [UInt8], offset: Int, reason: String) {
        #expect(throws: JSONParseError(offset: offset, reason: reason)) { try JSONValue.parse(bytes) }
    }

    @Test func depthIsBoundedNotRecursedInto() throws {
        let hostile = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError(offset: 256, reason: "nesting deeper than 256")) { try JSONValue.parse(hostile) }
        let objects = String(repeating: #"{"a":"#, count: 100_000)
        #expect(throws: JSONParseError(offset: 1_280, reason: "nesting deeper than 256")) { try JSONValue.parse(objects) }
        let atLimit = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(throws: Never.self) { try JSONValue.parse(atLimit) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse("[[1]]", options: JSONParseOptions(maxDepth: 1)) }
    }

    @Test func sizeIsBounded() {
        #expect(throws: JSONParseError(offset: 4, reason: "document larger than 4 bytes")) {
            try JSONValue.parse("12345", options: JSONParseOptions(maxBytes: 4))
        }
    }

    @Test func duplicateKeysAreRejectedByDefault() throws {
        #expect(throws: JSONParseError(offset: 8, reason: "duplicate key \"a\"")) { try JSONValue.parse(#"{"a":1, "a":2}"#) }
        let keepLast = try JSONValue.parse(#"{"a":1,"b":2,"a":3}"#, options: JSONParseOptions(duplicateKeys: .keepLast))
        #expect(keepLast.objectValue?.keys == ["a", "b"])
        #expect(keepLast["a"] == 3)
        // Many keys take the set-backed path; a duplicate late in a large object is still found.
        let many = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(throws: JSONParseError.self) { try JSONValue.parse("{\(many),\"k7\":0}") }
        #expect(throws: Never.self) { try JSONValue.parse("{\(many)}") }
    }

    @Test func keysThatLookAlikeAreDifferentKeys() throws {
        // "é" precomposed and "e" + combining acute are canonically equivalent but different code points.
        let object = try JSONValue.parse(#"{"\u00e9": 1, "e\u0301": 2}"#)
        #expect(object.objectValue?.count == 2)
        #expect(object["\u{E9}"] == 1)
        #expect(object["e\u{301}"] == 2)
        #expect(JSONValue.string("\u{E9}") != JSONValue.string("e\u{301}"))
    }

    @Test func parsesFromData() throws {
        #expect(try JSONValue.parse(Data("[true]".utf8)) == [true])
    }

    @Test func errorDescriptionNamesTheOffset() {
        #expect(JSONParseError(offset: 7, reason: "x").description == "invalid JSON at byte 7: x")
    }
}
