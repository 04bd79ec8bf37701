import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PetSpotConcurrency
import PetSpotJSON
import PetSpotMockBackend
import PetSpotProcess
import PetSpotSubmissionFaults
import PetSpotTestSupport
import Testing

// The adapters' historic builds (`--release`), their declared protocol version (`--protocol`)
// and the protocol breaks the runner must judge (sut-protocol.md), for the example adapter and
// the Python adapter alike.

/// An adapter run over questions it reads from a file: nothing is written to a pipe, so an
/// adapter that dies early cannot take the test process with it. Its standard output and error
/// are collected as it writes them; it is stopped after `limit` seconds.
final class FileFedAdapter: Sendable {
    private let child: ChildProcess
    private let questionFile: URL
    private let limit: Double

    init(_ command: [String], questions: [JSONObject], limit: Double = 90) throws {
        questionFile = FileManager.default.temporaryDirectory.appendingPathComponent("questions-\(UUID().uuidString).jsonl")
        let text = questions.map { JSONValue.object($0).serialized() + "\n" }.joined()
        try Data(text.utf8).write(to: questionFile)
        self.limit = limit
        child = try ChildProcess(command[0], Array(command.dropFirst()), input: .file(questionFile.path))
    }

    deinit { try? FileManager.default.removeItem(at: questionFile) }

    /// Whether the adapter is still running.
    var isRunning: Bool { child.isRunning }

    /// Waits for the adapter to exit (at most `limit` seconds, then it is stopped) and its output to end.
    func finish() async -> AdapterTranscript {
        let child = self.child, limit = self.limit
        let exit = await onOwnThread { child.waitForExit(timeout: limit) ?? child.terminate() }
        try? FileManager.default.removeItem(at: questionFile)
        return AdapterTranscript(
            status: exit?.code ?? -1,
            lines: String(decoding: child.collectedOutput(waitingUpTo: 5), as: UTF8.self).split(separator: "\n").map(String.init),
            standardError: String(decoding: child.collectedError(waitingUpTo: 5), as: UTF8.self))
    }
}

/// Everything an adapter run showed.
struct AdapterTranscript {
    let status: Int32
    let lines: [String]
    let standardError: String

    /// Every line parsed as a JSON object (a line that is not one fails the test).
    func answers(sourceLocation: SourceLocation = #_sourceLocation) throws -> [JSONObject] {
        try lines.map { line in
            try #require(try? JSONValue.parse(line).objectValue, "not a JSON object: \(line)", sourceLocation: sourceLocation)
        }
    }
}

extension SubmissionAdapterKind {
    /// The adapters this machine can run (the Python one needs a python3).
    static let runnable = allCases.filter { $0 != .python || PythonAdapter.python != nil }

    /// Runs the adapter with `extra` arguments over `questions` until it exits.
    func transcript(_ extra: [String], _ questions: [JSONObject]) async throws -> AdapterTranscript {
        await (try FileFedAdapter(command(extra), questions: questions)).finish()
    }
}

/// The questions these tests ask, at 2026-11-21 12:00 UTC.
enum ReleaseQuestions {
    static let context = JSONValue.object(JSONObject([("timeZone", "UTC"), ("now", "2026-11-21T12:00:00Z")]))
    static let photo = JSONValue.object(JSONObject([("fileName", "rex.jpg"), ("mimeType", "image/jpeg"), ("byteCount", 2048)]))

    /// A valid Missing report with every field filled; `changes` replace or (with `.null`) empty inputs.
    static func missing(_ changes: [String: JSONValue] = [:]) -> JSONObject {
        inputs([
            ("chipNumber", "12345-6789"), ("photo", photo), ("lastSeenDate", "2026-11-20"), ("species", "DOG"), ("breed", " Beagle "),
            ("sex", "MALE"), ("age", "3"), ("petName", "Rex"), ("latitude", "52.2297"), ("longitude", " 21.0122"),
            ("description", "Red collar"), ("phone", "+48 600-700-800"), ("email", " owner@example.com "), ("reward", "$50"),
        ], changes)
    }

    /// A valid Found report.
    static func found(_ changes: [String: JSONValue] = [:]) -> JSONObject {
        inputs([
            ("chipNumber", "12345"), ("photo", photo), ("lastSeenDate", "2026-11-20"), ("species", "CAT"), ("breed", "Tabby"),
            ("sex", "FEMALE"), ("latitude", "-33.9"), ("longitude", "151.2"), ("description", "Friendly"), ("phone", "600700800"),
            ("email", "finder@example.com"), ("caregiverPhone", "600 700 801"), ("currentAddress", "1 Main St"),
        ], changes)
    }

    private static func inputs(_ members: [(String, JSONValue)], _ changes: [String: JSONValue]) -> JSONObject {
        var inputs = JSONObject(members)
        for (key, value) in changes { inputs[key] = value }
        return inputs
    }

    /// A version 1 question.
    static func v1(_ id: Int, _ flow: String, _ inputs: JSONObject) -> JSONObject {
        JSONObject([("v", 1), ("id", .number(JSONNumber(id))), ("flow", .string(flow)), ("context", context), ("inputs", .object(inputs))])
    }

    /// A version 2 submit against a port nothing is expected to answer on (127.0.0.1:9): only
    /// questions answered before any request is sent use it.
    static func submit(_ id: Int, _ flow: String, _ inputs: JSONObject) -> JSONObject {
        var question = v1(id, flow, inputs)
        question["v"] = 2
        question["op"] = "submit"
        question["baseURL"] = "http://127.0.0.1:9"
        question["requestTimeout"] = 1
        question["photoPath"] = "/nonexistent/photo.jpg"
        return question
    }

    static func tryAgain(_ id: Int, report: Int) -> JSONObject { Version2.tryAgain(id: id, report: report) }
    static func cancel(_ id: Int, report: Int) -> JSONObject { Version2.cancel(id: id, report: report) }

    /// A question of a version neither adapter speaks.
    static func version3(_ id: Int) -> JSONObject {
        JSONObject([("v", 3), ("id", .number(JSONNumber(id))), ("op", "teleport"), ("flow", "missing")])
    }

    /// The answer `{"v": version, "id": id, "outcome": outcome}`, nothing else.
    static func bare(_ version: Int, _ id: Int, _ outcome: String) -> JSONObject {
        JSONObject([("v", .number(JSONNumber(version))), ("id", .number(JSONNumber(id))), ("outcome", .string(outcome))])
    }

    /// Questions of every kind that need no network: both flows, blocked and submitted, the
    /// coordinates the first builds treat apart, version 2 questions answered before any request
    /// (blocked, the Found flow of a build without it) and a version 3 question.
    static let withoutNetwork: [JSONObject] = [
        v1(1, "missing", missing()),
        v1(2, "found", found()),
        v1(3, "missing", missing(["latitude": .null, "longitude": " \u{A0}"])),
        v1(4, "missing", missing(["latitude": "", "longitude": "21"])),
        v1(5, "missing", missing(["age": "0", "latitude": .null, "longitude": .null])),
        v1(6, "found", found(["latitude": .null, "longitude": .null])),
        v1(7, "missing", missing(["email": "not an address"])),
        submit(8, "missing", missing(["phone": "12"])),
        submit(9, "found", found(["species": .null])),
        version3(10),
    ]
}

@Suite("adapter releases and protocol versions", .onOwnThreads)
struct AdapterReleaseTests {
    @Test("--protocol 1 answers every version 2 question unsupported, its own version in v, and still answers version 1",
          arguments: SubmissionAdapterKind.runnable)
    func protocolOne(_ kind: SubmissionAdapterKind) async throws {
        let questions = [
            ReleaseQuestions.v1(1, "missing", ReleaseQuestions.missing()),
            ReleaseQuestions.submit(2, "missing", ReleaseQuestions.missing()),
            ReleaseQuestions.tryAgain(3, report: 2), ReleaseQuestions.cancel(4, report: 2), ReleaseQuestions.version3(5),
        ]
        let declared = try await kind.transcript(["--protocol", "1"], questions)
        #expect(declared.status == 0, "\(declared.standardError)")
        let answers = try declared.answers()
        try #require(answers.count == 5, "\(declared.lines)")
        #expect(answers[0]["v"] == 1 && answers[0]["outcome"] == "submitted" && answers[0]["payload"]?["petName"] == "Rex", "\(answers[0])")
        for (index, id) in (2...5).enumerated() {
            #expect(answers[index + 1] == ReleaseQuestions.bare(1, id, "unsupported"))
            #expect(answers[index + 1].keys == ["v", "id", "outcome"], "\(answers[index + 1])")
        }
    }

    @Test("by default a version 3 question is answered unsupported with v 2, and version 2 is spoken",
          arguments: SubmissionAdapterKind.runnable)
    func versionAboveTheSpokenOne(_ kind: SubmissionAdapterKind) async throws {
        let run = try await kind.transcript([], [ReleaseQuestions.version3(7), ReleaseQuestions.submit(8, "missing", ReleaseQuestions.missing(["phone": "12"]))])
        #expect(run.status == 0, "\(run.standardError)")
        let answers = try run.answers()
        try #require(answers.count == 2, "\(run.lines)")
        #expect(answers[0] == ReleaseQuestions.bare(2, 7, "unsupported"))
        #expect(answers[1]["v"] == 2 && answers[1]["outcome"] == "blocked" && answers[1]["fields"] == ["phone"], "\(answers[1])")
    }

    @Test("--release 1.0: only the Missing flow, no petName, breed or age, 0.0 and 0.0 for two empty coordinates, version 1 only",
          arguments: SubmissionAdapterKind.runnable)
    func firstBuilds(_ kind: SubmissionAdapterKind) async throws {
        let run = try await kind.transcript(["--release", "1.0"], ReleaseQuestions.withoutNetwork)
        #expect(run.status == 0, "\(run.standardError)")
        let answers = try run.answers()
        try #require(answers.count == 10, "\(run.lines)")
        let payload = try #require(answers[0]["payload"]?.objectValue, "\(answers[0])")
        #expect(payload["petName"] == nil && payload["breed"] == nil && payload["age"] == nil, "\(payload)")
        #expect(payload["status"] == "MISSING" && payload["microchipNumber"] == "123456789" && payload["reward"] == "$50", "\(payload)")
        #expect(answers[1] == ReleaseQuestions.bare(1, 2, "unavailable"))
        let empty = try #require(answers[2]["payload"]?.objectValue, "both coordinates empty must not block: \(answers[2])")
        #expect(empty["locationLatitude"] == 0 && empty["locationLongitude"] == 0, "\(empty)")
        #expect(answers[3]["outcome"] == "blocked" && answers[3]["step"] == "description" && answers[3]["fields"] == ["latitude"], "\(answers[3])")
        #expect(answers[4]["outcome"] == "blocked" && answers[4]["step"] == "description" && answers[4]["fields"] == ["age"], "\(answers[4])")
        #expect(answers[5] == ReleaseQuestions.bare(1, 6, "unavailable"))
        #expect(answers[6]["outcome"] == "blocked" && answers[6]["fields"] == ["email"], "\(answers[6])")
        #expect(answers[7] == ReleaseQuestions.bare(1, 8, "unsupported"))
        #expect(answers[8] == ReleaseQuestions.bare(1, 9, "unsupported"))
        #expect(answers[9] == ReleaseQuestions.bare(1, 10, "unsupported"))
    }

    @Test("--release 1.0 --protocol 2: a Found submit is unavailable, with v 2", arguments: SubmissionAdapterKind.runnable)
    func firstBuildsOverVersion2(_ kind: SubmissionAdapterKind) async throws {
        let run = try await kind.transcript(
            ["--release", "1.0", "--protocol", "2"],
            [ReleaseQuestions.submit(1, "found", ReleaseQuestions.found()), ReleaseQuestions.submit(2, "missing", ReleaseQuestions.missing(["age": "41"]))])
        #expect(run.status == 0, "\(run.standardError)")
        let answers = try run.answers()
        try #require(answers.count == 2, "\(run.lines)")
        #expect(answers[0] == ReleaseQuestions.bare(2, 1, "unavailable"))
        #expect(answers[1]["v"] == 2 && answers[1]["outcome"] == "blocked" && answers[1]["fields"] == ["age"], "\(answers[1])")
    }

    @Test("--release 1.4: both flows, petName, breed and age sent, status MISSING for both", arguments: SubmissionAdapterKind.runnable)
    func beforeStatusByFlow(_ kind: SubmissionAdapterKind) async throws {
        let run = try await kind.transcript(["--release", "1.4"], Array(ReleaseQuestions.withoutNetwork.prefix(2)))
        let answers = try run.answers()
        try #require(answers.count == 2, "\(run.lines)")
        let missing = try #require(answers[0]["payload"]?.objectValue), found = try #require(answers[1]["payload"]?.objectValue)
        #expect(missing["status"] == "MISSING" && missing["petName"] == "Rex" && missing["breed"] == "Beagle" && missing["age"] == 3, "\(missing)")
        #expect(found["status"] == "MISSING" && found["breed"] == "Tabby", "\(found)")
    }

    @Test("--release 2.0 answers exactly as the default", arguments: SubmissionAdapterKind.runnable)
    func currentIsTheDefault(_ kind: SubmissionAdapterKind) async throws {
        let named = try await kind.transcript(["--release", "2.0"], ReleaseQuestions.withoutNetwork)
        let unnamed = try await kind.transcript([], ReleaseQuestions.withoutNetwork)
        #expect(named.lines.count == 10 && named.lines == unnamed.lines, "\(named.lines)\n\(unnamed.lines)")
        let statuses = try unnamed.answers().prefix(2).map { $0["payload"]?["status"] }
        #expect(statuses == ["MISSING", "FOUND"])
    }

    @Test(
        "the Python adapter answers as the example adapter for every release, protocol and answer-changing break",
        .enabled(if: PythonAdapter.python != nil, "no python3"),
        arguments: [
            [], ["--release", "1.0"], ["--release", "1.4"], ["--release", "2.0"], ["--protocol", "1"], ["--release", "1.0", "--protocol", "2"],
            ["--release", "1.4", "--protocol", "1"], ["--break", "wrong-v"], ["--release", "1.0", "--break", "wrong-v,age-max-41"],
        ])
    func parity(_ arguments: [String]) async throws {
        let swift = try await SubmissionAdapterKind.example.transcript(arguments, ReleaseQuestions.withoutNetwork)
        let python = try await SubmissionAdapterKind.python.transcript(arguments, ReleaseQuestions.withoutNetwork)
        #expect(swift.status == 0 && python.status == 0, "\(swift.standardError)\(python.standardError)")
        let swiftAnswers = try swift.answers(), pythonAnswers = try python.answers()
        #expect(swiftAnswers.count == ReleaseQuestions.withoutNetwork.count)
        for (index, question) in ReleaseQuestions.withoutNetwork.enumerated() where index < min(swiftAnswers.count, pythonAnswers.count) {
            #expect(swiftAnswers[index] == pythonAnswers[index], "question \(question["id"] ?? .null): \(swiftAnswers[index]) \(pythonAnswers[index])")
        }
    }

    @Test("wrong-v answers every question with v 3, and only that differs", arguments: SubmissionAdapterKind.runnable)
    func wrongVersion(_ kind: SubmissionAdapterKind) async throws {
        let broken = try await kind.transcript(["--break", "wrong-v"], ReleaseQuestions.withoutNetwork).answers()
        let correct = try await kind.transcript([], ReleaseQuestions.withoutNetwork).answers()
        #expect(broken.count == 10 && broken.allSatisfy { $0["v"] == 3 }, "\(broken)")
        #expect(broken.map { var answer = $0; answer["v"] = nil; return answer } == correct.map { var answer = $0; answer["v"] = nil; return answer })
    }

    @Test("banner prints one line naming the release on standard output before the first answer", arguments: SubmissionAdapterKind.runnable)
    func banner(_ kind: SubmissionAdapterKind) async throws {
        let questions = Array(ReleaseQuestions.withoutNetwork.prefix(3))
        let broken = try await kind.transcript(["--release", "1.4", "--break", "banner"], questions)
        let correct = try await kind.transcript(["--release", "1.4"], questions)
        #expect(broken.status == 0)
        #expect(broken.lines.first == "PetSpot adapter 1.4 ready", "\(broken.lines)")
        #expect(Array(broken.lines.dropFirst()) == correct.lines)
        #expect(correct.lines.count == 3)
    }

    @Test("crash-on-submit: the first version 2 question kills the adapter with a crash report on standard error",
          arguments: SubmissionAdapterKind.runnable)
    func crashOnSubmit(_ kind: SubmissionAdapterKind) async throws {
        let questions = [
            ReleaseQuestions.v1(1, "missing", ReleaseQuestions.missing()), ReleaseQuestions.submit(2, "missing", ReleaseQuestions.missing(["phone": "12"])),
            ReleaseQuestions.v1(3, "missing", ReleaseQuestions.missing()),
        ]
        let run = try await kind.transcript(["--break", "crash-on-submit"], questions)
        #expect(run.status == (kind == .example ? 70 : 1), "\(run.standardError)")
        #expect(try run.answers().map { $0["id"] } == [1])
        switch kind {
        case .example: #expect(run.standardError.contains("Fatal error: Unexpectedly found nil while unwrapping an Optional value"), "\(run.standardError)")
        case .python: #expect(run.standardError.contains("Traceback") && run.standardError.contains("KeyError: 'baseUrl'"), "\(run.standardError)")
        }
        // An adapter that declares version 1 never reaches its submission code.
        let declared = try await kind.transcript(["--protocol", "1", "--break", "crash-on-submit"], questions)
        #expect(declared.status == 0 && declared.lines.count == 3, "\(declared.standardError)")
    }

    @Test("a bad --release or --protocol is refused naming the flag, and --help lists both", arguments: SubmissionAdapterKind.runnable)
    func usage(_ kind: SubmissionAdapterKind) async throws {
        for (arguments, flag) in [(["--release", "1.2"], "--release"), (["--release"], "--release"), (["--protocol", "3"], "--protocol")] {
            let run = try await kind.transcript(arguments, [])
            #expect(run.status != 0 && run.lines.isEmpty, "\(arguments)")
            #expect(run.standardError.contains(flag), "\(arguments): \(run.standardError)")
        }
        let help = try await kind.transcript(["--help"], [])
        #expect(help.status == 0)
        for word in ["--release 1.0", "--release 1.4", "--protocol 1|2", "crash-on-submit", "banner", "wrong-v", "ignore-request-timeout", "timeout-in-milliseconds"] {
            #expect(help.lines.contains { $0.contains(word) }, "--help lacks \(word)")
        }
    }

    @Test("--release 1.4 submits a Found report to the backend as MISSING; 2.0 as FOUND", arguments: SubmissionAdapterKind.runnable)
    func beforeStatusByFlowOverHTTP(_ kind: SubmissionAdapterKind) async throws {
        let photo = try PhotoFile()
        defer { photo.remove() }
        var inputs = Version2.missingInputs(chip: nil, photo: photo)
        for key in ["petName", "age", "reward"] { inputs[key] = nil }
        for (release, status) in [("1.4", "MISSING"), ("2.0", "FOUND")] {
            let server = MockHTTPServer(options: MockServerOptions(port: 0))
            let port = try server.start()
            defer { server.stop() }
            let question = Version2.submit(id: 1, flow: "found", inputs: inputs, baseURL: "http://127.0.0.1:\(port)", photo: photo)
            let run = try await kind.transcript(["--release", release], [question])
            let answers = try run.answers()
            try #require(answers.count == 1, "\(run.lines) \(run.standardError)")
            let password = try #require(Version2.expectSubmitted(answers[0], id: 1))
            let stored = try photo.onlyAnnouncement(in: server.backend, password: password)
            #expect(stored["status"] == .string(status), "--release \(release): \(stored)")
        }
    }

    @Test("ignore-request-timeout waits for a held answer past the question's requestTimeout; without it the alert comes first",
          arguments: SubmissionAdapterKind.runnable)
    func ignoreRequestTimeout(_ kind: SubmissionAdapterKind) async throws {
        let photo = try PhotoFile()
        defer { photo.remove() }
        func question(_ network: SwitchedNetwork) -> JSONObject {
            Version2.submit(id: 1, inputs: Version2.missingInputs(chip: nil, photo: photo), baseURL: network.baseURL, timeout: 0.5, photo: photo)
        }
        // Without the break, the app gives up on the held create: the no-connection alert. (The
        // network lets a held request through after 20 s, the create then the upload: an app
        // that waited would end submitted.)
        let unreleased = try SwitchedNetwork()
        defer { unreleased.stop() }
        unreleased.set(.hold)
        let correct = try await kind.transcript([], [question(unreleased)]).answers()
        try #require(correct.count == 1)
        Version2.expectAlert(correct[0], id: 1, Alert.noConnection)
        // With it, the app still waits when the create is let through 2 s after it arrived, well
        // past 0.5 s, and the report gets through.
        let network = try SwitchedNetwork()
        defer { network.stop() }
        network.set(.hold)
        let broken = try FileFedAdapter(kind.command(["--break", "ignore-request-timeout"]), questions: [question(network)])
        while network.creates == 0 && broken.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .seconds(2))
        network.release()
        let answers = try await broken.finish().answers()
        try #require(answers.count == 1)
        #expect(Version2.expectSubmitted(answers[0], id: 1) != nil)
    }

    /// The scenario `--submission-scenario 1.6` replays: one fault, an answer held (the seventh
    /// kind, ``SubmissionScenario/faultWeights``) on the first request, then the plainest
    /// Missing report without a microchip.
    static let heldCreate = "1.6"

    @Test("check fails an app that ignores its request time-out (exit 1), naming the wait and the time-out, and one that reads it as milliseconds; the app keeping it passes",
          arguments: SubmissionAdapterKind.runnable)
    func checkCatchesIgnoredTimeout(_ kind: SubmissionAdapterKind) async throws {
        func check(_ extra: [String]) async throws -> (status: Int32, report: JSONValue, out: String) {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("timeout-\(UUID().uuidString).json").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let command = try kind.command(extra).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            let result = await runTool([
                "check", "--seed", "1", "--sut", command, "--submission-timeout", "0.3", "--submission-scenario", Self.heldCreate,
                "--no-progress", "--report-json", path,
            ])
            return (result.status, try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: path))), result.out)
        }
        let timeout = "the app gives up on a held answer by the request time-out it was given"
        func outcome(_ report: JSONValue) -> JSONValue? {
            report["groups"]?.arrayValue?.first { $0["name"] == "submission under faults" }?["contracts"]?.arrayValue?.first { $0["name"]?.stringValue == timeout }
        }
        let broken = try await check(["--break", "ignore-request-timeout"])
        #expect(broken.status == 1, "\(broken.out)")
        let failed = try #require(outcome(broken.report), "\(broken.out)")
        #expect(failed["status"] == "failed")
        let message = failed["failures"]?[0]?["message"]?.stringValue ?? ""
        #expect(message.contains("still waited for the held answer to request 1 (POST /api/v1/announcements (create)) after 10.3"), "\(message)")
        #expect(message.contains("request time-out of 0.3 s"), "\(message)")
        #expect(broken.report["groups"]?.arrayValue?.count == 1, "a replayed scenario runs alone")
        let correct = try await check([])
        #expect(correct.status == 0, "\(correct.out)")
        #expect(outcome(correct.report)?["status"] == "passed")
        // Gives up long before its time-out: the held answer shows it, or no answer comes in time at all.
        let hasty = try await check(["--break", "timeout-in-milliseconds"])
        #expect(hasty.status == 1, "\(hasty.out)")
        let failedContracts = Set(hasty.report["groups"]?.arrayValue?.flatMap { $0["contracts"]?.arrayValue ?? [] }
            .filter { $0["status"] == "failed" }.compactMap { $0["name"]?.stringValue } ?? [])
        #expect(failedContracts.contains(timeout) || failedContracts.contains(SubmissionFaultContracts.judgedContract), "\(failedContracts)")
    }
}
