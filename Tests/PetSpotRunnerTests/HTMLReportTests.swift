import Foundation
import PetSpotJSON
import PetSpotProcess
@testable import PetSpotReport
import PetSpotTestSupport
import Testing

/// Headless Chromium, when installed (Debian: `apt-get install -y chromium`; `.ci/run` installs it).
enum Chromium {
    static let path: String? = {
        let environment = ProcessInfo.processInfo.environment
        var candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"]
        if let override = environment["PETSPOT_CHROMIUM"], !override.isEmpty { candidates.insert(override, at: 0) }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            candidates += ["chromium", "chromium-browser", "google-chrome"].map { "\(directory)/\($0)" }
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let missing = "chromium not found: the HTML report's browser test is skipped (apt-get install -y chromium, or set PETSPOT_CHROMIUM)"

    /// Runs headless Chromium on `file` with `arguments`; returns standard output. Its profile
    /// directory is removed, and what it left running in its process group is terminated.
    static func run(_ arguments: [String], file: URL) throws -> String {
        let chromium = try #require(path)
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let outcome = try ChildProcess.run(chromium, [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=\(profile.path)", "--virtual-time-budget=2000",
        ] + arguments + [file.absoluteString])
        return outcome.outputText
    }

    /// The DOM of `file` after its scripts ran.
    static func dumpDOM(_ file: URL) throws -> String { try run(["--dump-dom"], file: file) }
}

@Suite("the HTML report", .onOwnThreads)
struct HTMLReportTests {
    @Test("everything taken from the run is escaped, the chart data cannot end its script element")
    func escaping() throws {
        let escaped = ContractReport.htmlEscaped(hostileBody)
        #expect(!escaped.contains("<script") && !escaped.contains("<img") && !escaped.contains("<b>"))
        #expect(escaped.contains("&lt;/script&gt;&lt;script&gt;"))
        #expect(escaped.contains("<span class=\"ctl\">U+0001</span>"))
        #expect(escaped.contains("<span class=\"ctl\">U+202E</span>evil"))
        #expect(ContractReport.htmlEscaped("a\"b'c&d") == "a&quot;b&#39;c&amp;d")

        let data: JSONValue = ["groups": [["name": .string(hostileBody + "\u{2028}")]]]
        let safe = ContractReport.scriptSafeJSON(data)
        #expect(!safe.contains("<") && !safe.contains(">") && !safe.contains("&") && !safe.contains("\u{2028}"))
        #expect(try JSONValue.parse(safe) == data, "the escapes mean the same text")
    }

    @Test("the page is self-contained: one policy forbids every request and every script but its own")
    func selfContained() throws {
        let html = ReportTests.sampleReport().htmlDocument(nonce: "n0nce")
        #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-n0nce'\">"))
        #expect(html.components(separatedBy: "<script").count - 1 == 2, "the data block and the nonce'd script, nothing else")
        #expect(html.contains("<script nonce=\"n0nce\">"))
        for external in ["src=\"http", "href=\"http", "@import", "url(", "@font-face", "<link", "<iframe"] {
            #expect(!html.contains(external), "\(external)")
        }
        #expect(!html.contains("super-secret-admin-token") && !html.contains("123456") && !html.contains("654321"))
        #expect(ReportTests.sampleReport().htmlDocument != ReportTests.sampleReport().htmlDocument, "a fresh nonce per page")
    }

    @Test("a failure shows expected and actual as a line diff with the changed span marked")
    func diff() {
        let lines = LineDiff.diff(
            expected: #"reference model answers {"id":1,"payload":{"status":"FOUND","sex":"MALE"}}"#,
            actual: #"{"id":1,"payload":{"sex":"MALE","status":"found"}}"#)
        let removed = lines.filter { $0.kind == .removed }.map(\.text)
        let added = lines.filter { $0.kind == .added }.map(\.text)
        #expect(removed == ["reference model answers", #"    "status": "FOUND""#])
        #expect(added == [#"    "status": "found""#])
        #expect(lines.contains { $0.kind == .same && $0.text == #"    "sex": "MALE","# })
        let status = lines.first { $0.kind == .added }
        #expect(status?.changed == 15..<20, "only FOUND/found differ")
        let html = ReportTests.sampleReport().htmlDocument
        #expect(html.contains("<span class=\"line removed\">- 400 INVALID_FORMAT field=age</span>"))
        #expect(html.contains("<h4>Shrunk input</h4>"))
        #expect(html.contains("<div class=\"replay\"><code>petspot-contracts check --seed 42</code>"))
    }

    @Test("a count of failures is red only above zero")
    func redTilesOnlyForFailures() {
        let failing = ReportTests.sampleReport()
        #expect(failing.htmlDocument.contains("<div class=\"card failed\"><span class=\"value\">1</span><span class=\"label\">failed</span></div>"))
        var passing = failing
        passing.groups = passing.groups.map { group in
            var group = group
            group.contracts = group.contracts.filter { $0.status != .failed }
            return group
        }
        let html = passing.htmlDocument
        #expect(!html.contains("card failed"), "a 0 failed tile is not red")
        #expect(html.contains("<div class=\"card total\"><span class=\"value\">0</span><span class=\"label\">failed</span></div>"))
    }

    @Test(
        "in a real browser: every failure, the diff and the chart are there, and a hostile body runs nothing",
        .enabled(if: Chromium.path != nil, Comment(rawValue: Chromium.missing)), .timeLimit(.minutes(30)))
    func browser() async throws {
        let run = try await ReportRuns.hostileRun.value
        let report = try run.json()
        let dom = try Chromium.dumpDOM(run.htmlURL)
        #expect(dom.contains("data-rendered=\"true\""), "the page's script ran to its end")
        let body = try #require(dom.range(of: "<body").map { dom[$0.lowerBound...].prefix { $0 != ">" } })
        #expect(!body.contains("data-pwned"), "the hostile body's markup did not run: \(body)")
        #expect(!dom.contains("data-pwned=\""))
        #expect(dom.contains("setAttribute('data-pwned','script')"), "the hostile body is shown as text")
        #expect(!dom.contains("<img"), "the hostile body's markup did not become elements")
        #expect(dom.contains("&lt;img src="), "the hostile markup is shown as text")
        let failures = ReportSchemaTests.failures(report)
        #expect(!failures.isEmpty)
        #expect(dom.components(separatedBy: "<article class=\"failure\"").count - 1 == failures.count)
        for index in 1...failures.count { #expect(dom.contains("id=\"failure-\(index)\"")) }
        let groups = report["groups"]?.arrayValue ?? []
        #expect(dom.contains("<svg id=\"group-chart-svg\""))
        let bars = dom.components(separatedBy: "<rect class=\"bar ").count - 1
        let nonEmpty = groups.reduce(0) { total, group in
            let contracts = group["contracts"]?.arrayValue ?? []
            return total + Set(contracts.compactMap { $0["status"]?.stringValue }).count
        }
        #expect(bars == nonEmpty, "one bar per status present in each group")
        for name in groups.compactMap({ $0["name"]?.stringValue }) {
            #expect(dom.contains("\">\(name)<title>"), "the chart shows the group name whole: \(name)")
        }
        #expect(dom.contains("<span class=\"line removed\">"))
        #expect(dom.contains("<span class=\"line added\">"))
        #expect(dom.contains("left on target: announcement"))
    }

    @Test(
        "in a real browser: a failing adapter run shows the shrunk input and replay; a screenshot is kept under .build/",
        .enabled(if: Chromium.path != nil, Comment(rawValue: Chromium.missing)), .timeLimit(.minutes(30)))
    func browserScreenshot() async throws {
        let run = try await ReportRuns.failingAdapter.value
        let dom = try Chromium.dumpDOM(run.htmlURL)
        #expect(dom.contains("data-rendered=\"true\""))
        #expect(dom.contains("<h4>Shrunk input</h4>"))
        #expect(dom.contains("petspot-contracts check --seed 7 --cases 40"))
        #expect(dom.contains("<mark>found</mark>"), "the changed span of the status line is marked")
        // The boundary coverage: one row per catalogue entry, and each failure's cause.
        let report = try run.json()
        let entries = report["coverage"]?["entries"]?.arrayValue ?? []
        #expect(!entries.isEmpty)
        #expect(dom.contains("<section id=\"coverage\">"))
        #expect(dom.components(separatedBy: "<span class=\"hit-bar ").count - 1 == entries.count)
        #expect(dom.contains("<dt>cause</dt>"))
        let shots = repositoryRoot.appendingPathComponent(".build/report-screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let html = shots.appendingPathComponent("failing-check.html")
        try? FileManager.default.removeItem(at: html)
        try FileManager.default.copyItem(at: run.htmlURL, to: html)
        let png = shots.appendingPathComponent("failing-check.png")
        try? FileManager.default.removeItem(at: png)
        _ = try Chromium.run(["--screenshot=\(png.path)", "--window-size=1280,2200", "--hide-scrollbars"], file: html)
        let bytes = try Data(contentsOf: png)
        #expect(bytes.count > 10_000 && bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG at \(png.path)")
    }
}
