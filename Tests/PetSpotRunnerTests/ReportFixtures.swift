import Foundation
@testable import PetSpotCLI
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
import Testing

/// The repository's root directory (three levels above this file).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The text a hostile backend answers in the report fixtures: markup and script that must be
/// shown, never run, plus a control character and a right-to-left override.
let hostileBody = #"</script><script>document.body.setAttribute('data-pwned','script')</script>"#
    + #"<img src=x onerror="document.body.setAttribute('data-pwned','img')"><b>bold</b>"# + " \u{0001} \u{202E}evil"

/// One real run of the tool, with every report it can write, kept in a temporary directory.
struct ReportRun: Sendable {
    /// The exit code.
    let status: Int32
    /// Standard output.
    let out: String
    /// Where the reports are (`report.json`, `report.xml`, `report.html`).
    let directory: URL

    var jsonURL: URL { directory.appendingPathComponent("report.json") }
    var junitURL: URL { directory.appendingPathComponent("report.xml") }
    var htmlURL: URL { directory.appendingPathComponent("report.html") }

    /// The JSON report.
    func json() throws -> JSONValue { try JSONValue.parse(Data(contentsOf: jsonURL)) }

    /// The flags that write every report into `directory`.
    static func reportFlags(_ directory: URL) -> [String] {
        [
            "--report-json", directory.appendingPathComponent("report.json").path,
            "--junit", directory.appendingPathComponent("report.xml").path,
            "--report-html", directory.appendingPathComponent("report.html").path,
        ]
    }

    /// A new temporary directory for a run's reports, removed when the test process exits (the
    /// runs are shared by many tests: none of them can remove it).
    static func freshDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-reports-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        RemovedAtExit.add(directory)
        return directory
    }
}

/// The real runs the report tests read, each made once per test process.
enum ReportRuns {
    /// `check` against the reference model and the in-process strict mock: passes.
    static let passingCheck = Task<ReportRun, any Error> {
        let directory = try ReportRun.freshDirectory("check")
        let result = await runTool(["check", "--seed", "20261124", "--no-progress"] + ReportRun.reportFlags(directory))
        return ReportRun(status: result.status, out: result.out, directory: directory)
    }

    /// `check --sut` with the example adapter sending the status in lower case: fails, shrunk,
    /// with GitHub annotations.
    static let failingAdapter = Task<ReportRun, any Error> {
        let adapter = try #require(ExampleAdapter.path, "petspot-example-adapter not found beside the test bundle")
        let directory = try ReportRun.freshDirectory("adapter")
        let result = await runTool([
            "check", "--sut", "\(adapter) --break status-lowercase", "--cases", "40", "--seed", "7", "--no-mock",
            "--no-progress", "--shrink-seconds", "5", "--github-annotations",
        ] + ReportRun.reportFlags(directory))
        return ReportRun(status: result.status, out: result.out, directory: directory)
    }

    /// `run` against a hostile backend (the production mock whose 401 answers carry markup and
    /// script) without an admin token, so announcements are left over: fails.
    static let hostileRun = Task<ReportRun, any Error> {
        let directory = try ReportRun.freshDirectory("run")
        let transport = BrokenBackendTransport(base: InProcessTransport(backend: MockBackend(profile: .production, clock: serverClockAhead))) { _, response in
            guard response.status == 401 else { return response }
            var changed = response
            changed.status = 400
            changed.body = Data(hostileBody.utf8)
            return changed
        }
        // No admin token, and its leftovers allowed: the groups that create run, and what they leave is reported.
        let words = ["--base-url", "http://127.0.0.1:9", "--no-progress", "--cases", "2", "--seed", "99", "--allow-leftovers"] + ReportRun.reportFlags(directory)
        let command = try RunCommand(try ParsedArguments(words, for: RunCommand.spec), arguments: words, environment: [:])
        let output = CapturedOutput()
        let status = try await command.execute(transport: transport, output: output.runner)
        return ReportRun(status: status.rawValue, out: output.standardOutput, directory: directory)
    }
}
