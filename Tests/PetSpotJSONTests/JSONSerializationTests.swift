import PetSpotJSON
import Testing

@Suite("JSON serialization")
struct JSONSerializationTests {
    @Test func keyOrderIsPreserved() throws {
        let text = #"{"zeta":1,"alpha":{"y":[1,2.50,-0],"x":null},"mid":"s"}"#
        let value = try JSONValue.parse(text)
        #expect(value.serialized() == text, "numbers keep their spelling, members their order")
        #expect(value.objectValue?.keys == ["zeta", "alpha", "mid"])
    }

    @Test func sortedKeys() throws {
        let value = try JSONValue.parse(#"{"b":1,"a":{"d":2,"c":3},"É":0,"Z":4}"#)
        #expect(value.serialized(options: .sortedKeys) == #"{"Z":4,"a":{"c":3,"d":2},"b":1,"É":0}"#)
    }

    @Test func prettyPrinted() {
        let value: JSONValue = ["a": [1, 2], "b": [:], "c": []]
        #expect(value.serialized(options: .prettyPrinted) == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {},\n  \"c\": []\n}")
    }

    @Test func stringsAreEscapedMinimally() throws {
        let value: JSONValue = .string("q\"b\\n\n\t\r\u{1}/é🐶")
        #expect(value.serialized() == #""q\"b\\n\n\t\r\u0001/é🐶""#)
        #expect(try JSONValue.parse(value.serialized()) == value)
    }

    @Test(arguments: [
        #"[]"#, #"{}"#, #"[null,true,false,0,-1.5e-7,"x"]"#, #"{"a":{"b":{"c":[{"d":"\u0000"}]}}}"#,
        #"{"emoji":"🐕‍🦺","escaped":"\\\"","num":1E+2}"#,
    ])
    func roundTrip(text: String) throws {
        let value = try JSONValue.parse(text)
        let again = try JSONValue.parse(value.serialized())
        #expect(again == value)
        #expect(again.serialized() == value.serialized())
        #expect(try JSONValue.parse(value.serializedData()) == value)
    }

    @Test func objectEqualityIgnoresOrder() throws {
        let first = try JSONValue.parse(#"{"a":1,"b":[1,2]}"#)
        let second = try JSONValue.parse(#"{"b":[1,2.0],"a":1}"#)
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first != (try JSONValue.parse(#"{"b":[2,1],"a":1}"#)))
    }

    @Test func objectEditing() {
        var object = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 3)
        object["c"] = 4
        object["a"] = nil
        #expect(object.keys == ["b", "c"])
        #expect(object.values == [2, 4])
        #expect(object.members.map(\.key) == ["b", "c"])
        #expect(object.contains(key: "c"))
        #expect(!object.contains(key: "a"))
        #expect(object.index(forKey: "c") == 1)
    }
}
