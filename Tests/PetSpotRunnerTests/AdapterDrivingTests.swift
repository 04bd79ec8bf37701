import Foundation
import PetSpotAdapterDriving
import PetSpotFlowChecks
import PetSpotHTTPTestSupport
import PetSpotJSON
import PetSpotRuntime
import PetSpotProcess
import PetSpotTestSupport
import Testing

/// The built example adapter, found in the build products directory beside the test bundle.
enum ExampleAdapter {
    static let path = BuiltProduct.path("petspot-example-adapter")
}

/// Runs `check` against the example adapter and returns the exit code and the JSON report.
///
/// Flow answers only (`--no-mock`), with shrinking bounded to keep the suite fast; everything else
/// is the default run (coverage of the whole catalogue decides the case count).
func checkAdapter(_ extra: String = "", seed: Int = 11, options: [String] = []) async throws -> (status: Int32, report: JSONValue, out: String) {
    let adapter = try #require(ExampleAdapter.path, "petspot-example-adapter not found beside the test bundle")
    let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: reportPath) }
    let result = await runTool([
        "check", "--sut", extra.isEmpty ? adapter : "\(adapter) \(extra)", "--seed", String(seed), "--no-mock",
        "--no-progress", "--shrink-seconds", "1", "--report-json", reportPath,
    ] + options)
    let report = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: reportPath)))
    return (result.status, report, result.out)
}

/// Names of the failed contracts in a JSON report.
func failedContracts(_ report: JSONValue) -> Set<String> {
    var names: Set<String> = []
    for group in report["groups"]?.arrayValue ?? [] {
        for contract in group["contracts"]?.arrayValue ?? [] where contract["status"] == "failed" {
            if let name = contract["name"]?.stringValue { names.insert(name) }
        }
    }
    return names
}

/// The distinct causes of failure of a JSON report, as (fields, kind).
func distinctCauses(_ report: JSONValue) -> [(fields: [String], kind: String)] {
    (report["distinctFailures"]?.arrayValue ?? []).map { cause in
        ((cause["fields"]?.arrayValue ?? []).compactMap(\.stringValue), cause["kind"]?.stringValue ?? "")
    }
}

/// The example adapter's planted defects (`--list-defects`): name and field.
enum PlantedDefectList {
    /// The defects of the flows, which a version 1 `check --sut` finds (the submission defects,
    /// field `submission`, need version 2).
    static let all: [(name: String, field: String)] = listed.filter { $0.field != "submission" }

    /// Every defect `--list-defects` prints, the submission defects included.
    static let listed: [(name: String, field: String)] = {
        guard let path = ExampleAdapter.path, let listing = try? ChildProcess.run(path, ["--list-defects"]) else { return [] }
        return listing.outputText.split(separator: "\n").compactMap { line in
            let columns = line.split(separator: "\t").map(String.init)
            return columns.count >= 2 ? (columns[0], columns[1]) : nil
        }
    }()

    /// The defects in `count` batches with no field twice, so that one run can plant a whole
    /// batch: each defect goes to the smallest batch that lacks its field.
    static func batches(count: Int) -> [[(name: String, field: String)]] {
        var batches = Array(repeating: [(name: String, field: String)](), count: count)
        let fieldSizes = Dictionary(grouping: all, by: \.field).mapValues(\.count)
        for defect in all.sorted(by: { (fieldSizes[$1.field]!, $0.name) < (fieldSizes[$0.field]!, $1.name) }) {
            let open = batches.indices.filter { index in !batches[index].contains { $0.field == defect.field } }
            guard let index = open.min(by: { batches[$0].count < batches[$1].count }) else { continue }
            batches[index].append(defect)
        }
        return batches.filter { !$0.isEmpty }
    }
}

/// `scripts/python_adapter.py` and a Python 3 to run it.
enum PythonAdapter {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/python_adapter.py").path
    static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
}

@Suite("adapter driving", .serialized, .onOwnThreads)
struct AdapterDrivingTests {
    @Test("the example adapter agrees with the reference model on every case and covers every boundary")
    func examplePasses() async throws {
        let result = try await checkAdapter()
        #expect(result.status == 0, "\(result.out)")
        #expect(failedContracts(result.report).isEmpty)
        let coverage = try #require(result.report["coverage"])
        #expect(coverage["met"] == true)
        let entries = coverage["entries"]?.arrayValue ?? []
        #expect(entries.count > 150)
        let unhit = entries.filter { ($0["hits"]?.numberValue?.intValue ?? 0) == 0 }.compactMap { $0["detail"]?.stringValue }
        #expect(unhit.isEmpty, "never reached: \(unhit)")
        #expect(!result.out.contains("FAIL"))
    }

    @Test("listing blocked fields in another order is not a failure (fields compare as sets)")
    func fieldsAreSets() async throws {
        let result = try await checkAdapter("--break shuffle-fields")
        #expect(result.status == 0, "\(result.out)")
    }

    /// After valid answers (a banner, garbage or another "v" before the first valid answer is a
    /// setup error: AdapterDeclarationTests).
    @Test("each broken protocol fails with exit 1 and the protocol contract named", arguments: ["crash-on-id 5", "wrong-id"])
    func brokenProtocol(mode: String) async throws {
        let result = try await checkAdapter("--break \(mode)")
        #expect(result.status == 1)
        #expect(failedContracts(result.report).contains(FlowAnswerChecks.protocolContract), "\(mode): \(failedContracts(result.report))")
        #expect(result.out.contains("replay: petspot-contracts check --seed 11"))
    }

    @Test("cat as the adapter: every answer is refused as the question echoed back, not as an unknown key")
    func echoingAdapter() async throws {
        let result = await runTool(["check", "--sut", "cat", "--seed", "11", "--no-mock", "--no-progress", "--cases", "20", "--shrink-seconds", "0.2"])
        #expect(result.status == 1)
        #expect(result.out.contains("answered a malformed line: malformed answer: \(AdapterOracle.echoedQuestion)"), "\(result.out)")
        #expect(!result.out.contains("unknown key"))
    }

    @Test("every planted defect is found and named by its field, a batch of defects at a time", arguments: 0..<10)
    func plantedDefects(batch: Int) async throws {
        let batches = PlantedDefectList.batches(count: 10)
        #expect(PlantedDefectList.all.count >= 40)
        #expect(batches.reduce(0) { $0 + $1.count } == PlantedDefectList.all.count, "a defect fits no batch")
        guard batch < batches.count else { return }
        let defects = batches[batch]
        // Shrinking is not what this test is about: a short shrink budget keeps the batches fast.
        let result = try await checkAdapter(
            "--break " + defects.map(\.name).joined(separator: ","), seed: 100 + batch, options: ["--max-failures", "40", "--shrink-seconds", "0.2"])
        #expect(result.status == 1)
        let causes = distinctCauses(result.report)
        for defect in defects {
            #expect(causes.contains { $0.fields.contains(defect.field) }, "\(defect.name) not named by a cause; causes: \(causes)")
        }
        // Defects in different fields that fail with the same character are one cause listing
        // their fields; each defect's field is still named.
        #expect(Set(causes.flatMap(\.fields)).isSuperset(of: defects.map(\.field)))
    }

    @Test("a microchip filter keeping any Character.isNumber is named by a default check in 5 of 5 seeds, in both adapters")
    func chipAnyNumber() async throws {
        for seed in 1...5 {
            let result = try await checkAdapter("--break chip-any-number", seed: seed)
            #expect(result.status == 1)
            let causes = distinctCauses(result.report)
            #expect(causes.contains { $0.fields.contains("chipNumber") }, "seed \(seed): \(causes)")
        }
        guard let python = PythonAdapter.python else { return }
        let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("python-chip-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: reportPath) }
        let result = await runTool([
            "check", "--sut", "\(python) \(PythonAdapter.script) --break chip-any-number", "--seed", "1", "--no-mock", "--no-progress",
            "--shrink-seconds", "1", "--report-json", reportPath,
        ])
        #expect(result.status == 1, "\(result.out)")
        let causes = distinctCauses(try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: reportPath))))
        #expect(causes.contains { $0.fields.contains("chipNumber") }, "Python adapter: \(causes)")
    }

    @Test("five defects planted together give five separate shrunk failures, one per field")
    func fiveDefects() async throws {
        let planted = ["chip-keeps-16": "chipNumber", "phone-max-12": "phone", "email-tld-1": "email", "age-min-0": "age", "date-local-today": "lastSeenDate"]
        let result = try await checkAdapter("--break " + planted.keys.sorted().joined(separator: ","), seed: 3)
        let causes = distinctCauses(result.report)
        #expect(causes.count == 5, "\(causes)")
        #expect(Set(causes.flatMap(\.fields)) == Set(planted.values))
        #expect(causes.allSatisfy { $0.fields.count == 1 })
        let failures = (result.report["groups"]?[0]?["contracts"]?.arrayValue ?? []).flatMap { $0["failures"]?.arrayValue ?? [] }
        let shown = failures.filter { $0["cause"] != nil }
        #expect(shown.count == 5)
        #expect(shown.allSatisfy { $0["shrunkInput"]?.objectValue != nil && $0["cause"]?["shrunk"] == true })
        #expect(result.out.contains("5 distinct causes of failure"))
    }

    @Test("a failure shrinks the fields that play no part to their simplest values")
    func shrinksUnrelatedFields() async throws {
        let result = try await checkAdapter("--break chip-keeps-16")
        let failures = (result.report["groups"]?[0]?["contracts"]?.arrayValue ?? []).flatMap { $0["failures"]?.arrayValue ?? [] }
        let failure = try #require(failures.first { $0["cause"] != nil })
        let inputs = try #require(failure["shrunkInput"]?["inputs"]?.objectValue)
        let chip = try #require(inputs["chipNumber"]?.stringValue)
        #expect(chip.filter(\.isNumber).count == 16)
        #expect((inputs["email"]?.stringValue ?? "").count <= 10)
        #expect((inputs["description"]?.stringValue ?? "").count <= 1)
        #expect(inputs["caregiverPhone"] == nil || inputs["caregiverPhone"] == "")
        #expect(failure["expected"]?.stringValue?.contains("reference model answers") == true)
        #expect(failure["seed"] == "11")
    }

    /// An adapter that never answers a question is a setup mistake: exit 2, one paragraph on
    /// standard error naming the command, what happened and the fix, and no contract report (no
    /// PASS line, no report file). `silent` and `no-flush` are seen waiting for input after
    /// reading the first question (Linux: `/proc`), long before their 60 s time-out: the reason
    /// names what closing their input showed, which the time-out path never does.
    @Test("an adapter that never answers is a configuration error with one paragraph", arguments: [
        ("silent", "when its standard input was closed it exited with status 0", "write one answer line for each question line"),
        ("no-flush", "the answer sat in an output buffer", "flush standard output after each answer line"),
        ("slow", "did not answer its first question within 0.2 s", "raise --sut-timeout"),
    ])
    func neverAnswers(mode: String, happened: String, fix: String) async throws {
        #if !os(Linux)
        if mode != "slow" { return }
        #endif
        let adapter = try #require(ExampleAdapter.path)
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("silent-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: json) }
        let result = await runTool([
            "check", "--sut", "\(adapter) --break \(mode)", "--seed", "4", "--sut-timeout", mode == "slow" ? "0.2" : "60", "--no-progress",
            "--report-json", json,
        ])
        #expect(result.status == RunnerExitCode.configuration.rawValue, "\(result.err)")
        #expect(!result.out.contains("PASS") && !result.out.contains("FAIL"), "\(result.out)")
        let paragraph = result.err.split(separator: "\n").last.map(String.init) ?? ""
        #expect(paragraph.hasPrefix("petspot-contracts check: error: the adapter never answered a question: --sut \"\(adapter) --break \(mode)\""), "\(paragraph)")
        #expect(paragraph.contains(happened), "\(paragraph)")
        #expect(paragraph.contains("Likely fix: ") && paragraph.contains(fix), "\(paragraph)")
        #expect(!FileManager.default.fileExists(atPath: json), "no contract report for a setup error")
    }

    @Test("an adapter that exits at once is a configuration error quoting its standard error")
    func exitsAtOnce() async throws {
        let adapter = try MisbehavingAdapter("echo 'cannot open config.toml' >&2\nexit 3\n")
        defer { adapter.cleanUp() }
        let result = await runTool(["check", "--sut", adapter.command, "--no-progress"])
        #expect(result.status == RunnerExitCode.configuration.rawValue)
        let paragraph = result.err.split(separator: "\n").last.map(String.init) ?? ""
        #expect(paragraph.contains("exited with status 3 before answering its first question (on each of 2 starts)"), "\(paragraph)")
        #expect(paragraph.contains("Its standard error: \"cannot open config.toml\""), "\(paragraph)")
        #expect(paragraph.contains("relative paths start at \(FileManager.default.currentDirectoryPath)"), "\(paragraph)")
        #expect(adapter.pids.count == 2, "started once, and once more in case the first exit was the question's")
        #expect(result.out.split(separator: "\n").count == 1, "the start line only: \(result.out)")
    }

    @Test("an adapter that crashes on its first question but answers after a restart is checked, not a setup error")
    func crashOnFirstQuestionOnly() async throws {
        let result = try await checkAdapter("--break crash-on-id 1")
        #expect(result.status == 1)
        #expect(failedContracts(result.report) == [FlowAnswerChecks.protocolContract], "\(failedContracts(result.report))")
    }

    @Test(
        "the Python adapter (scripts/python_adapter.py) agrees with the reference model and lists the same defects",
        .enabled(if: PythonAdapter.python != nil, "no python3"))
    func pythonAdapter() async throws {
        let python = try #require(PythonAdapter.python)
        let script = PythonAdapter.script
        let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("python-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: reportPath) }
        let result = await runTool([
            "check", "--sut", "\(python) \(script)", "--seed", "12", "--no-mock", "--no-progress", "--report-json", reportPath,
        ])
        #expect(result.status == 0, "\(result.out)")
        let listing = try ChildProcess.run(python, [script, "--list-defects"])
        let names = listing.outputText.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        #expect(names == PlantedDefectList.listed.map(\.name))
    }

    @Test("a command that cannot run is a configuration error (exit 2)")
    func missingCommand() async {
        let result = await runTool(["check", "--sut", "/nonexistent/adapter-binary", "--cases", "3", "--no-mock", "--no-progress"])
        #expect(result.status == RunnerExitCode.configuration.rawValue)
        #expect(result.err.contains("exited with status 127 before answering its first question"), "\(result.err)")
        #expect(result.err.contains("Likely fix: the shell could not find the program: check its path in --sut"))
        // The shell's own complaint comes through the command's output (captured here), not
        // straight to the test process's standard error.
        #expect(result.err.contains("adapter: /bin/sh: "), "\(result.err)")
    }

    @Test("answers are decoded strictly")
    func answerDecoding() {
        #expect(throws: AdapterProtocolError.wrongId(expected: 1, actual: 2)) {
            try AdapterAnswer(line: #"{"v":1,"id":2,"outcome":"blocked","step":"photo","fields":[]}"#, expectedId: 1)
        }
        #expect(throws: AdapterProtocolError.self) { try AdapterAnswer(line: #"{"v":2,"id":1,"outcome":"blocked","step":"photo","fields":[]}"#, expectedId: 1) }
        #expect(throws: AdapterProtocolError.self) { try AdapterAnswer(line: #"{"v":1,"id":1,"outcome":"submitted"}"#, expectedId: 1) }
        #expect(throws: AdapterProtocolError.self) { try AdapterAnswer(line: #"{"v":1,"id":1,"outcome":"blocked","step":"photo","fields":[1]}"#, expectedId: 1) }
        #expect(throws: AdapterProtocolError.self) { try AdapterAnswer(line: "[1,2]", expectedId: 1) }
        let answer = try? AdapterAnswer(line: #"{"v":1,"id":3,"outcome":"blocked","step":"photo","fields":["photo"]}"#, expectedId: 3)
        #expect(answer == .blocked(step: "photo", fields: ["photo"]))
    }
}
