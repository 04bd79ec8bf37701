import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PetSpotJSON
import PetSpotRuntime
import Testing
@testable import PetSpotCLI
@testable import PetSpotReport

@Suite("CI-native reports: JUnit and GitHub annotations")
struct CIReportTests {
    static func testcases(_ run: ReportRun) throws -> [XMLElement] {
        let document = try XMLDocument(contentsOf: run.junitURL, options: [])
        let suites = try #require(document.rootElement()).elements(forName: "testsuite")
        return suites.flatMap { $0.elements(forName: "testcase") }
    }

    @Test("JUnit classnames have no dots, slashes or paths, and name the command", .timeLimit(.minutes(30)))
    func classNames() async throws {
        for run in [try await ReportRuns.passingCheck.value, try await ReportRuns.hostileRun.value] {
            let classNames = Set(try Self.testcases(run).compactMap { $0.attribute(forName: "classname")?.stringValue })
            #expect(!classNames.isEmpty)
            for name in classNames {
                #expect(!name.contains(".") && !name.contains("/") && !name.contains("\\"), "\(name)")
                #expect(name.hasPrefix("check: ") || name.hasPrefix("run: "), "\(name)")
            }
        }
        let check = try await ReportRuns.passingCheck.value
        let names = Set(try Self.testcases(check).compactMap { $0.attribute(forName: "classname")?.stringValue })
        #expect(names.contains("check: regressions"))
        #expect(ContractReport.junitClassName(command: "run", group: "a.b/c (x/y.json)") == "run: a-b-c")
    }

    /// Every flow case is checked against every contract at once: the exploration's time is
    /// the coverage contract's and a contract's own is its causes' shrinking, so no time is
    /// counted twice (each row used to show the whole exploration's).
    @Test("check's flow-answer rows carry times that add up to no more than the run's", .timeLimit(.minutes(30)))
    func flowAnswerTimes() async throws {
        let run = try await ReportRuns.failingAdapter.value
        let report = try run.json()
        let flows = try #require(report["groups"]?.arrayValue?.first { $0["name"] == "flow answers" })
        let times = (flows["contracts"]?.arrayValue ?? []).compactMap { $0["durationSeconds"]?.numberValue?.doubleValue }
        let total = try #require(report["durationSeconds"]?.numberValue?.doubleValue)
        #expect(times.count >= 5)
        #expect(times.reduce(0, +) <= total, "\(times) add up to more than the run's \(total) s")
        #expect(times.filter { $0 > 0 }.count >= 2, "the exploration and the shrinking of the failing contract: \(times)")
    }

    @Test("run's JUnit testcases carry real times that add up to their suite's", .timeLimit(.minutes(30)))
    func runTimes() async throws {
        let run = try await ReportRuns.hostileRun.value
        let document = try XMLDocument(contentsOf: run.junitURL, options: [])
        var timedSuites = 0
        for suite in try #require(document.rootElement()).elements(forName: "testsuite") {
            let cases = suite.elements(forName: "testcase")
            let times = cases.compactMap { $0.attribute(forName: "time")?.stringValue.flatMap(Double.init) }
            #expect(times.count == cases.count)
            let suiteTime = try #require(suite.attribute(forName: "time")?.stringValue.flatMap(Double.init))
            #expect(abs(times.reduce(0, +) - suiteTime) < 0.002 * Double(max(1, cases.count)))
            if times.contains(where: { $0 > 0 }) { timedSuites += 1 }
        }
        let report = try run.json()
        let groupsThatRan = (report["groups"]?.arrayValue ?? []).filter { group in
            (group["contracts"]?.arrayValue ?? []).contains { ($0["casesRun"]?.numberValue?.intValue ?? 0) > 0 }
        }
        // Against the in-process mock a small group can take less than half a millisecond, which
        // JUnit's three decimals show as 0.000; most take longer.
        #expect(Double(timedSuites) >= 0.75 * Double(groupsThatRan.count), "\(timedSuites) of \(groupsThatRan.count) suites have a measured time")
        #expect((report["durationSeconds"]?.numberValue?.doubleValue ?? 0) > 0)
        let total = (report["groups"]?.arrayValue ?? []).reduce(0.0) { $0 + ($1["durationSeconds"]?.numberValue?.doubleValue ?? 0) }
        #expect(total > 0)
    }

    @Test("suites carry the seed and replay; failing testcases their failure's seed, replay and case", .timeLimit(.minutes(30)))
    func properties() async throws {
        let run = try await ReportRuns.failingAdapter.value
        let document = try XMLDocument(contentsOf: run.junitURL, options: [])
        for suite in try #require(document.rootElement()).elements(forName: "testsuite") {
            let properties = Self.properties(of: suite)
            #expect(properties["seed"] == "7")
            #expect(properties["replay"]?.hasPrefix("petspot-contracts check --seed 7") == true)
        }
        let failing = try Self.testcases(run).filter { !$0.elements(forName: "failure").isEmpty }
        #expect(!failing.isEmpty)
        for testcase in failing {
            let properties = Self.properties(of: testcase)
            #expect(properties["seed"] == "7")
            #expect(properties["replay"]?.contains("--break status-lowercase") == true)
        }
        #expect(failing.contains { Self.properties(of: $0)["case"] != nil }, "a failure kept in full names its case")
    }

    static func properties(of element: XMLElement) -> [String: String] {
        var result: [String: String] = [:]
        for property in element.elements(forName: "properties").flatMap({ $0.elements(forName: "property") }) {
            if let name = property.attribute(forName: "name")?.stringValue {
                result[name] = property.attribute(forName: "value")?.stringValue
            }
        }
        return result
    }

    @Test("--github-annotations prints one ::error per failure kept, escaped, after the report and before the verdict", .timeLimit(.minutes(30)))
    func annotationsInOutput() async throws {
        let run = try await ReportRuns.failingAdapter.value
        let lines = run.out.split(separator: "\n").map(String.init)
        let annotations = lines.filter { $0.hasPrefix("::error ") }
        let report = try run.json()
        var titles: [String] = []
        for group in report["groups"]?.arrayValue ?? [] {
            for contract in group["contracts"]?.arrayValue ?? [] {
                for _ in contract["failures"]?.arrayValue ?? [] {
                    titles.append(ContractReport.escapedProperty("[\(group["name"]?.stringValue ?? "")] \(contract["name"]?.stringValue ?? "")"))
                }
            }
        }
        #expect(annotations.count == titles.count)
        for title in titles { #expect(annotations.contains { $0.hasPrefix("::error title=\(title)::") }, "\(title)") }
        #expect(titles.contains { $0.contains("%2C") }, "a contract name with a comma, escaped")
        let firstAnnotation = try #require(lines.firstIndex { $0.hasPrefix("::error ") })
        let lastFailure = try #require(lines.lastIndex { $0.hasPrefix("FAILURE ") })
        #expect(lastFailure < firstAnnotation, "annotations come after the console report")
        #expect(lines.last?.hasPrefix("FAILED:") == true, "the verdict closes the output, after the annotations")
        for line in annotations {
            let title = try #require(line.split(separator: "::", maxSplits: 2).first)
            #expect(title.hasPrefix("error title=["))
            #expect(!title.dropFirst("error title=".count).contains(":") && !title.contains(","), "\(title)")
            #expect(line.contains("%0Aseed: 7%0Areplay: petspot-contracts check --seed 7"))
        }
    }

    @Test("workflow command values are escaped per GitHub's rules")
    func escaping() {
        #expect(ContractReport.escapedData("100% done\r\nnext: a, b") == "100%25 done%0D%0Anext: a, b")
        #expect(ContractReport.escapedProperty("[g] a: b, c%\n") == "[g] a%3A b%2C c%25%0A")
        let line = ContractReport.workflowCommand("error", title: "t::x", message: "m\n::warning::injected")
        // `::` in a title or message is shown escaped too (WorkflowCommands), whatever GitHub unescapes.
        #expect(line == "::error title=t%3A\\u{3A}x::m%0A:\\u{3A}warning:\\u{3A}injected")
        #expect(line.split(separator: "\n").count == 1, "a message cannot start a second command on its own line")
        let long = ContractReport.workflowCommand("error", title: "t", message: "start" + String(repeating: "a", count: 10_000) + "end")
        #expect(long.count <= ContractReport.maxAnnotationCharacters + 20)
        #expect(long.hasPrefix("::error title=t::startaaa") && long.hasSuffix("aaaend"))
    }

    @Test("annotations are on with --github-annotations or GITHUB_ACTIONS=true, off otherwise")
    func annotationSwitch() throws {
        func outputs(_ words: [String], _ environment: [String: String]) throws -> ReportOutputs {
            try ReportOutputs(ParsedArguments(words, for: CheckCommand.spec).resolve(environment: environment))
        }
        #expect(try !outputs([], [:]).githubAnnotations)
        #expect(try !outputs([], ["GITHUB_ACTIONS": "false"]).githubAnnotations)
        #expect(try outputs([], ["GITHUB_ACTIONS": "true"]).githubAnnotations)
        #expect(try outputs(["--github-annotations"], [:]).githubAnnotations)
        let html = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).html").path
        #expect(try outputs(["--report-html", html], [:]).htmlPath == html)
        #expect(throws: RunnerError.self) { try outputs(["--report-html", "/nonexistent-directory/r.html"], [:]) }
        let report = ReportTests.sampleReport()
        let output = CapturedOutput()
        try outputs([], ["GITHUB_ACTIONS": "true"]).deliver(report, to: output.runner)
        let lines = output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(lines.count == 2, "one ::error for the failure, one ::warning for the leftover")
        let body = report.consoleBody(quiet: false).joined(separator: "\n")
        #expect(output.standardOutput.hasPrefix(body), "after the console report")
        #expect(output.standardOutput.hasSuffix(report.verdictLine + "\n"), "and before the verdict, the last line")
        #expect(lines.first?.hasPrefix("::error title=[negatives <&>] age \"zero\" & more::") == true)
        #expect(lines.last?.hasPrefix("::warning title=left on target%3A announcement abc::") == true)
        #expect(!output.standardOutput.contains("super-secret-admin-token"))
    }
}
