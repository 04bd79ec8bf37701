import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PetSpotJSON
import PetSpotModel
import Testing
@testable import PetSpotCLI
@testable import PetSpotReport

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

    /// A report with a failing scenario (steps, two run at once) and a finding against the spec.
    static func scenarioReport() -> ContractReport {
        let recorder = ContractRecorder()
        var failure = ContractFailure(message: "the list still shows a deleted announcement", seed: 9, replay: "petspot-contracts run --seed 9")
        failure.steps = [
            FailureStep(action: "create #1", outcome: "201", request: ReportedRequest(method: "POST", path: "/api/v1/announcements"),
                        reproduce: "curl -X POST http://127.0.0.1:9/api/v1/announcements"),
            FailureStep(lane: "client 1", action: "delete #1", outcome: "204"),
            FailureStep(lane: "client 2", action: "list", outcome: "200 listing #1"),
        ]
        recorder.fail(group: "sequences", contract: "the list shows exactly the announcements with a photo", failure)
        recorder.find(SpecFinding(
            group: "submission under faults", property: "a report ends with exactly one listed announcement",
            message: "Try Again after a lost create answer creates a second announcement",
            consequence: "the first announcement stays, without a photo, holding the microchip number",
            steps: [FailureStep(action: "POST /api/v1/announcements", outcome: "forwarded, answer lost; the app showed \"No connection...\"")],
            replay: "petspot-contracts check --seed 9"))
        return recorder.report(command: "check", arguments: [], target: "reference model", seed: 9, startedAt: Date())
    }

    @Test("a failing scenario's steps and a finding against the spec reach every rendering")
    func stepsAndFindings() throws {
        let report = Self.scenarioReport()
        let console = report.consoleText
        #expect(console.contains("  steps:\n    1. create #1 -> 201\n       POST /api/v1/announcements\n       reproduce: curl -X POST"))
        #expect(console.contains("    2. [client 1] delete #1 -> 204\n    3. [client 2] list -> 200 listing #1"))
        #expect(console.contains("SPEC FINDING 1: [submission under faults] a report ends with exactly one listed announcement"))
        #expect(console.contains("what it does to the user: the first announcement stays"))
        #expect(console.contains("1 finding against the specification"))
        #expect(report.exitCode == .contractFailed, "the failure fails the run; the finding alone would not")
        let json = report.json
        let steps = try #require(json["groups"]?[0]?["contracts"]?[0]?["failures"]?[0]?["steps"]?.arrayValue)
        #expect(steps.count == 3 && steps[1]["lane"] == "client 1" && steps[0]["reproduce"]?.stringValue?.hasPrefix("curl") == true)
        #expect(json["findings"]?[0]?["consequence"]?.stringValue?.contains("holding the microchip") == true)
        let junit = report.junitXML
        #expect(junit.contains("<testsuite name=\"spec findings\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\""))
        #expect(junit.contains("3. [client 2] list -&gt; 200 listing #1"))
        let html = report.htmlDocument
        #expect(html.contains("<h2>Findings against the specification</h2>"))
        #expect(html.contains("<ol class=\"steps\">"))
        var findingOnly = report
        findingOnly.groups = []
        #expect(findingOnly.exitCode == .success, "a finding against the specification is not a failure")
    }

    @Test("in JUnit a finding against the specification is a passing testcase carrying its text: a clean run shows no skip")
    func junitFindings() throws {
        var clean = Self.scenarioReport()
        clean.groups = [GroupOutcome(name: "flows", contracts: [ContractOutcome(name: "status by flow", casesRun: 3)])]
        let document = try XMLDocument(xmlString: clean.junitXML, options: [])
        let root = try #require(document.rootElement())
        #expect(root.attribute(forName: "tests")?.stringValue == "2")
        #expect(root.attribute(forName: "skipped")?.stringValue == "0")
        #expect(root.attribute(forName: "failures")?.stringValue == "0")
        let suite = try #require(root.elements(forName: "testsuite").first { $0.attribute(forName: "name")?.stringValue == "spec findings" })
        #expect(suite.attribute(forName: "skipped")?.stringValue == "0" && suite.attribute(forName: "failures")?.stringValue == "0")
        let testcase = try #require(suite.elements(forName: "testcase").first)
        #expect(testcase.attribute(forName: "name")?.stringValue == "[submission under faults] a report ends with exactly one listed announcement")
        #expect(testcase.elements(forName: "skipped").isEmpty && testcase.elements(forName: "failure").isEmpty && testcase.elements(forName: "error").isEmpty)
        let properties = Dictionary(uniqueKeysWithValues: testcase.elements(forName: "properties").flatMap { $0.elements(forName: "property") }.compactMap { property in
            property.attribute(forName: "name")?.stringValue.map { ($0, property.attribute(forName: "value")?.stringValue ?? "") }
        })
        #expect(properties["finding"] == "Try Again after a lost create answer creates a second announcement")
        #expect(properties["consequence"] == "the first announcement stays, without a photo, holding the microchip number")
        #expect(properties["replay"] == "petspot-contracts check --seed 9")
        let output = try #require(testcase.elements(forName: "system-out").first?.stringValue)
        #expect(output.contains("SPEC FINDING 1: [submission under faults]") && output.contains("what it does to the user: the first announcement stays"))
    }

    @Test("the JSON report is versioned, with keys in a fixed order")
    func jsonShape() throws {
        let json = Self.sampleReport().json
        let object = try #require(json.objectValue)
        #expect(object.keys == [
            "reportVersion", "tool", "toolVersion", "command", "arguments", "target", "seed", "replay", "startedAt",
            "durationSeconds", "summary", "groups", "leftovers", "notes", "findings", "releases",
        ])
        #expect(object["reportVersion"] == 4)
        #expect(object["seed"] == "42")
        #expect(object["summary"]?.objectValue?.keys == ["contracts", "passed", "failed", "skipped", "casesRun", "casesFailed"])
        #expect(object["summary"]?["failed"] == 1)
        #expect(object["summary"]?["skipped"] == 1)
        let failure = try #require(object["groups"]?[1]?["contracts"]?[0]?["failures"]?[0]?.objectValue)
        #expect(failure.keys == ["message", "caseId", "request", "expected", "actual", "shrunkInput", "originalInput", "seed", "replay", "reproduce", "steps"])
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
        #expect(cases.first?.attribute(forName: "classname")?.stringValue == "check: negatives <&>")
        let failure = try #require(cases.first?.elements(forName: "failure").first)
        #expect(failure.attribute(forName: "message")?.stringValue?.contains("expected 400, got 201") == true)
        #expect(failure.stringValue?.contains("replay: petspot-contracts check --seed 42") == true)
        #expect(cases.last?.elements(forName: "skipped").count == 1)
    }

    @Test("the console report shows the group summaries, each failure in full, then the verdict as its last line")
    func console() {
        let text = Self.sampleReport().consoleText
        #expect(text.contains("PASS  status by flow"))
        #expect(text.contains("FAIL  age \"zero\" & more"))
        #expect(text.contains("FAILURE 1: [negatives <&>] age \"zero\" & more"))
        #expect(text.contains("shrunk input:   {\"flow\":\"missing\"}"))
        #expect(text.contains("seed: 42"))
        #expect(text.contains("left on target: announcement abc"))
        let groupIndex = text.range(of: "PASS  status by flow")?.lowerBound
        let failureIndex = text.range(of: "FAILURE 1")?.lowerBound
        #expect(groupIndex != nil && failureIndex != nil && groupIndex! < failureIndex!)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last?.hasPrefix("FAILED: ") == true, "the verdict is the last line: \(lines.suffix(2))")
        #expect(lines.filter { $0.hasPrefix("FAILED: ") || $0.hasPrefix("OK: ") }.count == 1)
    }

    @Test("--quiet keeps only the failures, what was left on the target, and the verdict as the last line")
    func quietConsole() {
        let report = Self.sampleReport()
        let text = report.consoleText(quiet: true)
        #expect(!text.contains("PASS"))
        #expect(!text.contains("note:"))
        #expect(!text.contains("petspot-contracts check: target"))
        #expect(text.contains("FAILURE 1: [negatives <&>] age \"zero\" & more"))
        #expect(text.contains("left on target: announcement abc"))
        #expect(text.split(separator: "\n").last.map(String.init) == report.verdictLine)
        var passing = report
        passing.groups = passing.groups.map { group in
            var group = group
            group.contracts = group.contracts.filter { $0.status != .failed }
            return group
        }
        passing.leftovers = []
        #expect(passing.consoleText(quiet: true) == passing.verdictLine, "a passing quiet run prints one line")
        #expect(passing.verdictLine.hasPrefix("OK: "))
    }
}
