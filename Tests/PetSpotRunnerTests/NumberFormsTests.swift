import Foundation
import PetSpotBackendGroups
import PetSpotContractGroups
import PetSpotHTTP
import PetSpotHTTPTestSupport
import PetSpotJSON
import PetSpotProcess
import PetSpotTestSupport
import Testing

/// The adapter filter (`Tests/PetSpotAdapterFilter`), built beside the test bundle.
enum AdapterFilter {
    static let path = BuiltProduct.path("petspot-adapter-filter")

    /// The forms it writes (its `--form` names).
    static let forms = ["exponent-plus", "integer-mantissa", "fraction-mantissa", "trailing-zeros", "padded", "negative-zero", "plain"]

    /// Runs the filter on `lines` with `arguments`; returns its output lines. Its input is a pipe
    /// from the test, closed once written (no other child inherits it: see ``ChildProcess``).
    static func filter(_ lines: [String], _ arguments: [String]) throws -> [String] {
        let path = try #require(Self.path, "petspot-adapter-filter not found beside the test bundle")
        let outcome = try ChildProcess.run(path, arguments, input: Array(lines.map { $0 + "\n" }.joined().utf8))
        #expect(outcome.inputError == nil, "\(String(describing: outcome.inputError))")
        #expect(outcome.code == 0, "\(outcome.errorText)")
        return outcome.outputText.split(separator: "\n").map(String.init)
    }
}

@Suite("numbers in every JSON form", .onOwnThreads)
struct NumberFormsTests {
    @Test("the filter respells every number in its form, keeping its value")
    func filterKeepsValues() throws {
        let line = #"{"v":1,"id":3,"outcome":"submitted","payload":{"locationLatitude":52.1,"locationLongitude":-0.000123,"age":40,"x":0,"y":[1e300,-7.5]}}"#
        let original = try JSONValue.parse(line)
        for form in AdapterFilter.forms {
            let out = try AdapterFilter.filter([line, "not json"], ["--form", form])
            #expect(out.count == 2)
            guard out.count == 2 else { continue }
            #expect(out[1] == "not json", "a line that is not JSON passes unchanged")
            let respelled = try JSONValue.parse(out[0])
            #expect(respelled == original, "\(form): \(out[0])")
            if form != "plain" && form != "negative-zero" { #expect(out[0] != line, "\(form) wrote \(out[0])") }
        }
        #expect(try AdapterFilter.filter([line], ["--form", "exponent-plus"]).first?.contains("5.21E+1") == true)
        #expect(try AdapterFilter.filter([line], ["--form", "negative-zero"]).first?.contains(#""x":-0"#) == true)
    }

    /// A correct adapter whose numbers come out as `1E+1`, `52.1000`, `-0` or any mix passes a
    /// default `check --sut` (mock included): the runner reads numbers by value and
    /// percent-encodes every number it puts into a URL (a raw `+` in the list query reads as a
    /// space, and the list then misses the report).
    @Test("a correct adapter passes a default check whatever form its numbers take", arguments: [
        ("exponent-plus", 3), ("trailing-zeros", 4), ("negative-zero", 5), ("mixed", 6),
    ])
    func correctAdapterPasses(form: String, seed: Int) async throws {
        let adapter = try #require(ExampleAdapter.path)
        let filter = try #require(AdapterFilter.path)
        let respelling = form == "mixed" ? "--seed \(seed)" : "--form \(form)"
        let result = await runTool([
            "check", "--sut", "'\(adapter)' | '\(filter)' \(respelling)", "--seed", String(seed), "--no-progress",
        ])
        #expect(result.status == 0, "\(form), seed \(seed):\n\(result.out.split(separator: "\n").filter { $0.contains("FAIL") }.joined(separator: "\n"))")
        #expect(result.out.contains("PASS  \(SubmissionContracts.list)"), "the list contract ran")
    }

    @Test("numbers and ids put into a URL are percent-encoded, and read back as sent")
    func urlsArePercentEncoded() {
        let path = RequestPath.list(["lat": "1E+1", "lng": "-0.5e-1", "range": "1"])
        #expect(path == "/api/v1/announcements?lat=1E%2B1&lng=-0.5e-1&range=1")
        // As a backend reads it: `+` is a space, `%2B` a plus.
        let request = HTTPRequest(method: "GET", target: path)
        #expect(request.queryValues("lat") == ["1E+1"] && request.queryValues("lng") == ["-0.5e-1"])
        #expect(HTTPRequest(method: "GET", target: "/api/v1/announcements?lat=1E+1").queryValues("lat") == ["1E 1"])
        #expect(RequestPath.percentEncoded("a b+é") == "a%20b%2B%C3%A9")
        #expect(AnnouncementPath(constant: "not a-uuid~").details == "/api/v1/announcements/not%20a-uuid~")
        #expect(AnnouncementPath(uuid: UUID(uuidString: "0F8FAD5B-D9CB-469F-A165-70867728950E")!).adminDelete
            == "/api/admin/v1/announcements/0f8fad5b-d9cb-469f-a165-70867728950e")
    }
}
