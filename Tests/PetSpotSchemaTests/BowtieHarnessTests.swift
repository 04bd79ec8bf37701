import PetSpotJSON
import PetSpotBowtie
import PetSpotSchema
import Testing

@Suite("Bowtie harness")
struct BowtieHarnessTests {
    /// Feeds `lines` to the harness and returns its replies, parsed.
    func converse(_ lines: [String]) throws -> [JSONValue] {
        var input = lines[...]
        var output: [String] = []
        BowtieHarness.run(readLine: { input.popFirst() }, write: { output.append($0) })
        return try output.map { try JSONValue.parse($0) }
    }

    @Test func scriptedConversation() throws {
        let replies = try converse([
            #"{"cmd": "start", "version": 1}"#,
            #"{"cmd": "dialect", "dialect": "https://json-schema.org/draft/2020-12/schema"}"#,
            #"{"cmd": "dialect", "dialect": "http://json-schema.org/draft-07/schema#"}"#,
            #"{"cmd": "run", "seq": 1, "case": {"description": "ints", "schema": {"type": "integer", "minimum": 2}, "tests": [{"description": "ok", "instance": 3}, {"description": "low", "instance": 1}, {"description": "float", "instance": 2.5}]}}"#,
            #"{"cmd": "run", "seq": 2, "case": {"description": "remote", "schema": {"$ref": "http://example.com/positive.json"}, "registry": {"http://example.com/positive.json": {"exclusiveMinimum": 0}}, "tests": [{"description": "pos", "instance": 1}, {"description": "zero", "instance": 0}]}}"#,
            ##"{"cmd": "run", "seq": "three", "case": {"description": "broken", "schema": {"$ref": "#/nowhere"}, "tests": [{"description": "x", "instance": 1}]}}"##,
            #"{"cmd": "stop"}"#,
            #"{"cmd": "start", "version": 1}"#,
        ])
        #expect(replies.count == 6, "stop ends the session: nothing after it is answered")
        #expect(replies[0]["version"] == 1)
        #expect(replies[0]["implementation"]?["language"] == "swift")
        #expect(replies[0]["implementation"]?["name"] == "petspot-contracts")
        #expect(replies[0]["implementation"]?["dialects"] == ["https://json-schema.org/draft/2020-12/schema"])
        #expect(replies[1] == ["ok": true])
        #expect(replies[2] == ["ok": false])
        #expect(replies[3] == ["seq": 1, "results": [["valid": true], ["valid": false], ["valid": false]]])
        #expect(replies[4] == ["seq": 2, "results": [["valid": true], ["valid": false]]])
        #expect(replies[5]["seq"] == "three")
        #expect(replies[5]["errored"] == true)
        #expect(replies[5]["context"]?["message"]?.stringValue?.contains("nowhere") == true)
    }

    @Test func anUndecidedTestIsErroredNotAVerdict() throws {
        // The backreference keeps the pattern on the backtracking engine, whose search of this
        // text runs out of its step budget.
        let replies = try converse([
            #"{"cmd": "start", "version": 1}"#,
            #"{"cmd": "run", "seq": 7, "case": {"description": "budget", "schema": {"pattern": "^(a+)+\\1b"}, "tests": [{"description": "exhausts", "instance": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}, {"description": "decided", "instance": 5}]}}"#,
        ])
        #expect(replies.count == 2)
        let results = try #require(replies[1]["results"]?.arrayValue)
        #expect(results.count == 2)
        #expect(results[0]["errored"] == true)
        #expect(results[0]["valid"] == nil)
        #expect(results[0]["context"]?["message"]?.stringValue?.contains("step budget") == true)
        #expect(results[1] == ["valid": true])
    }

    @Test func badLinesGetErrorsNotCrashes() throws {
        let replies = try converse([
            #"{"cmd": "start", "version": 1}"#,
            "this is not json",
            #"{"cmd": "explode", "seq": 9}"#,
            #"{"cmd": "run", "seq": 4}"#,
        ])
        #expect(replies.count == 4)
        #expect(replies[1]["errored"] == true)
        #expect(replies[2] == ["seq": 9, "errored": true, "context": ["message": "unknown command \"explode\""]])
        #expect(replies[3]["seq"] == 4)
        #expect(replies[3]["errored"] == true)
    }

    @Test func runBeforeStartIsAnError() throws {
        let replies = try converse([#"{"cmd": "run", "seq": 1, "case": {"schema": true, "tests": []}}"#])
        #expect(replies.first?["errored"] == true)
    }
}
