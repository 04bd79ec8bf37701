import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PetSpotJSON
import PetSpotModel
import Testing
@testable import PetSpotRunner

@Suite("reports")
struct ReportTests {
    static func sampleReport() -> ContractReport {
        let recorder = ContractRecorder()
        recorder.declare(group: "flows", contract: "status by flow")
        recorder.pass(group: "flows", contract: "status by flow", count: 10, seconds: 0.25)
        let redactor = Redactor(secrets: ["super-secret-admin-token"])
        let request = TransportRequest(
            method: "POST", path: "/api/v1/announcements/abc/photos",
            headers: [("Authorization", "Basic YWJjOjEyMzQ1Ng=="), ("X-Note", "token super-secret-admin-token")],
            body: Data(#"{"managementPassword":"123456","name":"<b>&\"x\"</b>"}"#.utf8))
        let response = TransportResponse(status: 201, body: Data(#"{"id":"abc","managementPassword":"654321"}"#.utf8))
        recorder.fail(group: "negatives <&>", contract: "age \"zero\" & more", ContractFailure(
            message: "expected 400, got 201 \u{0001}", caseId: "age-zero", request: redactor.request(request),
            expected: "400 INVALID_FORMAT field=age", actual: redactor.response(response),
            shrunkInput: ["flow": "missing"], originalInput: ["flow": "missing", "inputs": [:]], seed: 42,
            replay: "petspot-contracts check --seed 42"))
        recorder.declare(group: "negatives <&>", contract: "never ran")
        recorder.leave(Leftover(id: "abc", microchipNumber: "900000000000001", reason: "no --admin-token given"))
        return recorder.report(command: "check", arguments: ["--admin-token", "super-secret-admin-token"], target: "reference model", seed: 42, startedAt: Date())
    }

    @Test("the JSON report is versioned, with keys in a fixed order")
    func jsonShape() throws {
        let json = Self.sampleReport().json
        let object = try #require(json.objectValue)
        #expect(object.keys == [
            "reportVersion", "tool", "toolVersion", "command", "arguments", "target", "seed", "startedAt",
            "durationSeconds", "summary", "groups", "leftovers", "notes",
        ])
        #expect(object["reportVersion"] == 1)
        #expect(object["seed"] == "42")
        #expect(object["summary"]?.objectValue?.keys == ["contracts", "passed", "failed", "skipped", "casesRun", "casesFailed"])
        #expect(object["summary"]?["failed"] == 1)
        #expect(object["summary"]?["skipped"] == 1)
        let failure = try #require(object["groups"]?[1]?["contracts"]?[0]?["failures"]?[0]?.objectValue)
        #expect(failure.keys == ["message", "caseId", "request", "expected", "actual", "shrunkInput", "originalInput", "seed", "replay", "reproduce"])
        // Round trip through the parser.
        let text = json.serialized(options: [.prettyPrinted])
        #expect(try JSONValue.parse(text) == json)
    }

    @Test("secrets never reach any rendering")
    func redaction() {
        let report = Self.sampleReport()
        for text in [report.consoleText, report.json.serialized(), report.junitXML] {
            #expect(!text.contains("123456"))
            #expect(!text.contains("654321"))
            #expect(!text.contains("YWJjOjEyMzQ1Ng=="))
            #expect(!text.contains("super-secret-admin-token"))
        }
        #expect(report.consoleText.contains("Authorization: Basic ******"))
        #expect(report.consoleText.contains(#""managementPassword":"******""#))
        #expect(report.arguments == ["--admin-token", "******"])
    }

    @Test("the JUnit XML parses back, one testcase per contract, failures with messages")
    func junitWellFormed() throws {
        let xml = Self.sampleReport().junitXML
        let document = try XMLDocument(xmlString: xml, options: [])
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.count == 2)
        #expect(suites[1].attribute(forName: "name")?.stringValue == "negatives <&>")
        #expect(suites[1].attribute(forName: "tests")?.stringValue == "2")
        #expect(suites[1].attribute(forName: "failures")?.stringValue == "1")
        let cases = suites[1].elements(forName: "testcase")
        #expect(cases.first?.attribute(forName: "name")?.stringValue == "age \"zero\" & more")
        #expect(cases.first?.attribute(forName: "classname")?.stringValue == "negatives <&>")
        let failure = try #require(cases.first?.elements(forName: "failure").first)
        #expect(failure.attribute(forName: "message")?.stringValue?.contains("expected 400, got 201") == true)
        #expect(failure.stringValue?.contains("replay: petspot-contracts check --seed 42") == true)
        #expect(cases.last?.elements(forName: "skipped").count == 1)
    }

    @Test("the console report shows the summary, then each failure in full")
    func console() {
        let text = Self.sampleReport().consoleText
        #expect(text.contains("PASS  status by flow"))
        #expect(text.contains("FAIL  age \"zero\" & more"))
        #expect(text.contains("FAILURE 1: [negatives <&>] age \"zero\" & more"))
        #expect(text.contains("shrunk input:   {\"flow\":\"missing\"}"))
        #expect(text.contains("seed: 42"))
        #expect(text.contains("left on target: announcement abc"))
        let summaryIndex = text.range(of: "FAILED:")?.lowerBound
        let failureIndex = text.range(of: "FAILURE 1")?.lowerBound
        #expect(summaryIndex != nil && failureIndex != nil && summaryIndex! < failureIndex!)
    }
}
