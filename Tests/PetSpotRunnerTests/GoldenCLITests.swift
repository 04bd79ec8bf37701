/// Golden-file tests of the command line: three fixed-seed runs (a passing `check` against the
/// reference model, a `check` of the example adapter with planted app defects, a `run` against
/// the mock with planted backend defects) compared with the files committed in
/// `Tests/PetSpotRunnerTests/Golden/`: the exit code, standard output, the `--report-json` file
/// and the `--junit` file of each run.
///
/// What changes from one run to the next (durations, start times, UUIDs, temporary and build
/// paths, the run's microchip prefix) is replaced by a placeholder in one place,
/// ``GoldenNormalizer/normalize(_:replacing:)``; everything else must match exactly, so a change
/// to the console layout, a report field or a verdict fails here with the first differing line.
///
/// When the output changes on purpose, regenerate the files and review their diff in the commit:
///
///     PETSPOT_UPDATE_GOLDEN=1 swift test --filter GoldenCLI
import Foundation
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
import Testing
@testable import PetSpotCLI

@Suite("golden CLI output", .serialized)
struct GoldenCLITests {
    /// `--budget` only bounds the time of the flow cases: coverage decides their count, so a long
    /// budget changes nothing but the replay line, and keeps a loaded machine (42 s seen for
    /// this whole test under the full suite, against the default budget of 60 s) from failing
    /// the coverage contract for lack of time.
    static let budget = ["--budget", "600"]

    /// Without the submission scenarios: their faults hold answers past the app's time-out, so
    /// on a loaded machine the same seed gives other request counts and findings (1633 instead
    /// of 1781 answers seen, another microchip number); SubmissionFaultTests check them.
    @Test("check against the reference model passes (seed 42, the default case count, with the in-process mock)")
    func passingCheck() async throws {
        // The submission under faults has its own tests: its ids and times would change on every run.
        let run = try await GoldenRun.tool(["check", "--seed", "42", "--no-progress", "--submission-scenarios", "0"] + Self.budget)
        GoldenFiles.verify(run, as: "passing-check")
    }

    @Test("check of the example adapter with status-lowercase planted fails (seed 7, flow answers only)")
    func failingAdapter() async throws {
        let adapter = try #require(ExampleAdapter.path, "petspot-example-adapter not found beside the test bundle")
        let buildDirectory = URL(fileURLWithPath: adapter).deletingLastPathComponent().path
        // --shrink-seconds only bounds the shrinker: the shrink ends well within it (59 steps), but
        // the default 5 s could cut it short on a loaded machine and change the shrunk case.
        let run = try await GoldenRun.tool(
            ["check", "--sut", "\(adapter) --break status-lowercase", "--seed", "7", "--no-mock", "--shrink-seconds", "60", "--no-progress"] + Self.budget,
            replacing: [(buildDirectory, "<build>")])
        GoldenFiles.verify(run, as: "failing-adapter")
    }

    @Test("run against the mock with list-latitude-unchecked and delete-any-token-accepted planted fails (seed 5)")
    func failingBackend() async throws {
        // In-process (RunCommand.execute through InProcessTransport): the same command line and
        // renderings as over HTTP (the output matched an HTTP run against `mock --break` line for
        // line), without a port or network timing. --concurrency 1: the default 4 gave the same
        // output here, but a contract with several failures records them as requests complete,
        // so one request at a time keeps their order fixed however loaded the machine is.
        let backend = MockBackend(
            profile: .strict, defects: [.listLatitudeUnchecked, .deleteAnyTokenAccepted], clock: serverClockAhead)
        let run = try await GoldenRun.backend(
            InProcessTransport(backend: backend),
            ["--base-url", "http://127.0.0.1:9", "--profile", "strict", "--seed", "5", "--cases", "3", "--concurrency", "1",
             "--admin-token", MockBackend.defaultAdminToken, "--no-progress"])
        GoldenFiles.verify(run, as: "failing-backend")
    }
}

@Suite("golden CLI helpers")
struct GoldenCLIHelperTests {
    @Test("the normalizer replaces only what changes between runs and keeps everything else")
    func normalizer() {
        let text = """
            OK: 3 contracts, 3 passed; 12 cases, 0 failed, in 3.622 s
              "startedAt": "2026-11-24T08:17:54Z",
              "durationSeconds": 0.001, "durationSeconds": 12,
            <testsuite name="x" tests="1" time="6.704" timestamp="2026-11-24T08:18:54">
            GET /api/v1/announcements/51A4D472-97eb-45c3-9248-d040a330aa5e then 2545e91b-9e60-4249-a847-36cfc2565640, again 51a4d472-97eb-45c3-9248-d040a330aa5e
            --report-json /tmp/golden-1/report.json "microchipNumber":"175415477000004"
            budget 60 s; shrunk in 59 steps; kept 2026-11-21; "now":"2026-11-21T00:00:00Z"; time limit 5
            """
        let expected = """
            OK: 3 contracts, 3 passed; 12 cases, 0 failed, in <seconds> s
              "startedAt": "<timestamp>",
              "durationSeconds": <seconds>, "durationSeconds": <seconds>,
            <testsuite name="x" tests="1" time="<seconds>" timestamp="<timestamp>">
            GET /api/v1/announcements/<uuid-1> then <uuid-2>, again <uuid-1>
            --report-json <tmp>/report.json "microchipNumber":"<chip-prefix>000004"
            budget 60 s; shrunk in 59 steps; kept 2026-11-21; "now":"2026-11-21T00:00:00Z"; time limit 5
            """
        let normalized = GoldenNormalizer.normalize(text, replacing: [("/tmp/golden-1", "<tmp>"), ("175415477", "<chip-prefix>")])
        #expect(GoldenDiff.firstDifference(expected: expected, actual: normalized) == nil, "\(normalized)")
    }

    @Test("the diff names the first differing line, its number and both versions, and shows a window of a long line")
    func diff() throws {
        let expected = "same\nPASS  status by flow\nsame again\n"
        let actual = "same\nFAIL  status by flow\nsame again\n"
        let message = try #require(GoldenDiff.firstDifference(expected: expected, actual: actual))
        #expect(message.contains("first difference at line 2"))
        #expect(message.contains("expected: PASS  status by flow"))
        #expect(message.contains("actual:   FAIL  status by flow"))
        #expect(message.contains("line 1: same"), "a line of context before it")

        let long = String(repeating: "a", count: 500)
        let window = try #require(GoldenDiff.firstDifference(expected: long + "X" + long, actual: long + "Y" + long))
        #expect(window.contains("column 501"))
        #expect(window.count < 600, "a long line is shown as a window around the difference: \(window)")

        let shorter = try #require(GoldenDiff.firstDifference(expected: "a\nb\n", actual: "a\n"))
        #expect(shorter.contains("line 2") && shorter.contains("(no line)"))
        let blank = try #require(GoldenDiff.firstDifference(expected: "a\n\nb\n", actual: "a\nb\n"))
        #expect(blank.contains("expected: (empty line)") && blank.contains("actual:   b"))
        let newline = try #require(GoldenDiff.firstDifference(expected: "a\nb\n", actual: "a\nb"))
        #expect(newline.contains("only the final newline differs"))
        #expect(GoldenDiff.firstDifference(expected: "a\nb", actual: "a\nb") == nil)
    }
}

/// One run of the tool, its outputs read back and normalized for comparison with golden files.
struct GoldenRun {
    /// The exit code.
    let status: Int32
    /// Standard output, normalized.
    let standardOutput: String
    /// The `--report-json` file, normalized.
    let reportJSON: String
    /// The `--junit` file, normalized.
    let junit: String

    /// Runs the command line `arguments` in-process (as `petspot-contracts` would), adding
    /// `--report-json` and `--junit` files in a temporary directory; `replacing` lists literal
    /// texts of this run (paths) and their placeholders.
    static func tool(_ arguments: [String], replacing literals: [(String, String)] = []) async throws -> GoldenRun {
        try await inTemporaryDirectory(literals) { json, junit in
            let result = await runTool(arguments + ["--report-json", json, "--junit", junit])
            return (result.status, result.out)
        }
    }

    /// Runs `petspot-contracts run` with the command line `arguments` through `transport` (an
    /// in-process mock: no socket, no port, no timing), with an empty environment (no
    /// `PETSPOT_ADMIN_TOKEN`, no `GITHUB_ACTIONS`).
    static func backend(_ transport: any AnnouncementTransport, _ arguments: [String]) async throws -> GoldenRun {
        try await inTemporaryDirectory([]) { json, junit in
            let words = arguments + ["--report-json", json, "--junit", junit]
            let command = try RunCommand(try ParsedArguments(words, for: RunCommand.spec), arguments: words, environment: [:])
            let output = CapturedOutput()
            let status = try await command.execute(transport: transport, output: output.runner)
            return (status.rawValue, output.standardOutput)
        }
    }

    /// Calls `body` with the paths of a JSON and a JUnit report in a new temporary directory,
    /// reads them back, normalizes every output and removes the directory.
    private static func inTemporaryDirectory(
        _ literals: [(String, String)], _ body: (String, String) async throws -> (Int32, String)
    ) async throws -> GoldenRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jsonURL = directory.appendingPathComponent("report.json"), junitURL = directory.appendingPathComponent("report.xml")
        let (status, out) = try await body(jsonURL.path, junitURL.path)
        var replacements = literals + [(directory.path, "<tmp>")]
        // `run` numbers microchips from a random 9-digit prefix per run, printed in a note.
        if let prefix = GoldenNormalizer.microchipPrefix(in: out) { replacements.append((prefix, "<chip-prefix>")) }
        func normalized(_ text: String) -> String { GoldenNormalizer.normalize(text, replacing: replacements) }
        return GoldenRun(
            status: status, standardOutput: normalized(GoldenNormalizer.withoutAnnotations(out)),
            reportJSON: normalized(try String(contentsOf: jsonURL, encoding: .utf8)),
            junit: normalized(try String(contentsOf: junitURL, encoding: .utf8)))
    }
}

/// Replaces what legitimately changes between two runs of the same command line with a
/// placeholder, and nothing else.
enum GoldenNormalizer {
    /// Patterns and their templates, applied in order after the literal replacements.
    private static let patterns: [(NSRegularExpression, String)] = [
        // The summary line's wall-clock time: `..., in 3.622 s` (before any findings' count).
        (#", in [0-9]+(?:\.[0-9]+)? s(;|$)"#, ", in <seconds> s$1"),
        // JSON report: the run's, each group's and each contract's duration; the start time.
        (#""durationSeconds": [0-9.eE+-]+"#, #""durationSeconds": <seconds>"#),
        (#""startedAt": "[^"]*""#, #""startedAt": "<timestamp>""#),
        // JUnit: durations and start times of the suites and test cases.
        (#" time="[^"]*""#, #" time="<seconds>""#),
        (#" timestamp="[^"]*""#, #" timestamp="<timestamp>""#),
        // Microchip numbers of the submission scenarios (a random 9-digit prefix of their own, and
        // a counter), and how long an app waited before giving up on a held answer.
        (#"(microchip(?: number)? |microchipNumber\\?"\s*:\s*\\?")[0-9]{9}([0-9]{6})\b"#, "$1<chip-prefix>$2"),
        (#"gave up after [0-9]+(\.[0-9]+)? s"#, "gave up after <seconds> s"),
        // Ports picked at random on loopback (the fault proxy's); port 9, the runs' fixed target, stays.
        (#"127\.0\.0\.1:[0-9]{2,5}\b"#, "127.0.0.1:<port>"),
    ].map { pattern, template in
        // The patterns are literals of this file: a bad one is a programming error.
        (try! NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]), template)
    }

    /// A UUID in either case (announcement ids, the mock's request ids).
    private static let uuid = try! NSRegularExpression(
        pattern: "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")

    /// `text` with each literal of `replacing` (longest first) replaced by its placeholder, then
    /// durations and timestamps, then UUIDs as `<uuid-1>`, `<uuid-2>`, ... numbered by first
    /// appearance (so the same id in a request and its curl line keeps one number).
    static func normalize(_ text: String, replacing literals: [(String, String)]) -> String {
        var result = text
        for (literal, placeholder) in literals.sorted(by: { $0.0.count > $1.0.count }) where !literal.isEmpty {
            result = result.replacingOccurrences(of: literal, with: placeholder)
        }
        for (pattern, template) in patterns {
            result = pattern.stringByReplacingMatches(
                in: result, range: NSRange(result.startIndex..., in: result), withTemplate: template)
        }
        return numberingUUIDs(result)
    }

    /// `text` with every UUID replaced by `<uuid-N>`, N counting distinct UUIDs (case-insensitive).
    private static func numberingUUIDs(_ text: String) -> String {
        var numbers: [String: Int] = [:]
        var result = ""
        var copied = text.startIndex
        for match in uuid.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range, in: text) else { continue }
            let key = text[range].lowercased()
            let number = numbers[key] ?? numbers.count + 1
            numbers[key] = number
            result += text[copied..<range.lowerBound]
            result += "<uuid-\(number)>"
            copied = range.upperBound
        }
        return result + text[copied...]
    }

    /// The run's microchip prefix, from `run`'s note "microchip numbers of this run start with N".
    static func microchipPrefix(in output: String) -> String? {
        let marker = "microchip numbers of this run start with "
        guard let start = output.range(of: marker)?.upperBound else { return nil }
        let digits = output[start...].prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : String(digits)
    }

    /// `output` without GitHub Actions annotation lines, which `check` adds when the tests run
    /// with `GITHUB_ACTIONS=true` (they are tested in CIReportTests, not here); unchanged otherwise.
    static func withoutAnnotations(_ output: String) -> String {
        guard ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" else { return output }
        return output.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("::error ") && !$0.hasPrefix("::warning ") && !$0.hasPrefix("::notice ") }
            .joined(separator: "\n")
    }
}

/// The first difference of two texts, told line by line.
enum GoldenDiff {
    /// Characters of a long line shown on each side of its first differing character.
    static let window = 80

    /// `nil` when `expected` and `actual` are equal; otherwise the first differing line's number
    /// and both versions (a window around the first differing character when the line is long),
    /// with the line before it for context.
    static func firstDifference(expected: String, actual: String) -> String? {
        guard expected != actual else { return nil }
        let old = lines(of: expected), new = lines(of: actual)
        var index = 0
        while index < old.count, index < new.count, old[index] == new[index] { index += 1 }
        if index == old.count, index == new.count {
            return "the lines are the same; only the final newline differs (expected \(expected.hasSuffix("\n") ? "one" : "none"))"
        }
        var lines = ["first difference at line \(index + 1) (expected \(old.count) lines, actual \(new.count))"]
        if index > 0 { lines.append("  line \(index): \(shortened(old[index - 1], around: 0))") }
        let expectedLine = index < old.count ? old[index] : nil, actualLine = index < new.count ? new[index] : nil
        if let expectedLine, let actualLine {
            let column = zip(expectedLine, actualLine).prefix { $0 == $1 }.count
            if max(expectedLine.count, actualLine.count) > 2 * window { lines.append("  (column \(column + 1))") }
            lines.append("  expected: \(shortened(expectedLine, around: column))")
            lines.append("  actual:   \(shortened(actualLine, around: column))")
        } else {
            lines.append("  expected: \(expectedLine.map { shortened($0, around: 0) } ?? "(no line)")")
            lines.append("  actual:   \(actualLine.map { shortened($0, around: 0) } ?? "(no line)")")
        }
        return lines.joined(separator: "\n")
    }

    /// The lines of `text`, each ended by a newline (or by the end of the text).
    private static func lines(of text: String) -> [Substring] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if text.hasSuffix("\n") { lines.removeLast() }
        return lines
    }

    /// `line` whole when short ("(empty line)" when empty), else the characters within ``window`` of `column`, with `...`
    /// where it was cut.
    private static func shortened(_ line: Substring, around column: Int) -> String {
        if line.isEmpty { return "(empty line)" }
        guard line.count > 2 * window else { return String(line) }
        let start = max(0, column - window), end = min(line.count, column + window)
        let lower = line.index(line.startIndex, offsetBy: start), upper = line.index(line.startIndex, offsetBy: end)
        return (start > 0 ? "..." : "") + String(line[lower..<upper]) + (end < line.count ? "..." : "")
    }
}

/// The committed golden files and their comparison (or regeneration).
enum GoldenFiles {
    /// `Tests/PetSpotRunnerTests/Golden/`.
    static let directory = repositoryRoot.appendingPathComponent("Tests/PetSpotRunnerTests/Golden")

    /// Whether this test run rewrites the golden files (`PETSPOT_UPDATE_GOLDEN=1`).
    static let updating = ProcessInfo.processInfo.environment["PETSPOT_UPDATE_GOLDEN"] == "1"

    /// Compares each output of `run` with its golden file `name.*` (recording one issue per file
    /// that differs), or writes the files when ``updating``.
    static func verify(_ run: GoldenRun, as name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let files = [
            ("\(name).exit-code.txt", "\(run.status)\n"),
            ("\(name).stdout.txt", run.standardOutput),
            ("\(name).report.json", run.reportJSON),
            ("\(name).junit.xml", run.junit),
        ]
        for (file, actual) in files {
            let url = directory.appendingPathComponent(file)
            if updating {
                do {
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    try Data(actual.utf8).write(to: url)
                } catch {
                    Issue.record("could not write \(url.path): \(error)", sourceLocation: sourceLocation)
                }
                continue
            }
            guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
                Issue.record("golden file \(file) is missing: \(regenerate)", sourceLocation: sourceLocation)
                continue
            }
            if let difference = GoldenDiff.firstDifference(expected: expected, actual: actual) {
                Issue.record("\(file) differs from the golden file, \(difference)\n\(regenerate)", sourceLocation: sourceLocation)
            }
        }
    }

    /// What to do when the output changed on purpose.
    static let regenerate =
        "if the change is intended, regenerate with PETSPOT_UPDATE_GOLDEN=1 swift test --filter GoldenCLI and review the diff of Tests/PetSpotRunnerTests/Golden"
}
