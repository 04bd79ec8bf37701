import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PetSpotConcurrency
import PetSpotHTTP
import PetSpotJSON
import PetSpotMockBackend
import PetSpotProcess
import PetSpotTestSupport
import Testing

// The adapters' submission (protocol version 2): the example adapter and the Python adapter
// driven with v2 lines through a pipe, against the mock over HTTP on 127.0.0.1.

/// An adapter process driven one question at a time through its standard input and output,
/// both pipes from the test (``ChildProcess``): it is terminated, with its process group, when
/// this object goes, on every path out of the test.
///
/// Blocking reads and waits run on threads of their own, not on the concurrency pool, so that a
/// slow adapter does not starve the tests that run beside it. Writing to an adapter that is gone
/// is ``AdapterGone``, never a trap.
final class SubmissionAdapterProcess: Sendable {
    /// Seconds a question may wait for its answer: a hang, not a measure (the slowest scenario
    /// answers within seconds).
    static let answerLimit = 300.0
    private let process: ChildProcess

    /// Starts `command` (an executable and its arguments).
    init(_ command: [String]) throws {
        process = try ChildProcess(command[0], Array(command.dropFirst()), input: .pipe, output: .pipe, error: .collected)
    }

    /// Writes `question` as one line and returns the answer line, parsed.
    func ask(_ question: JSONObject) async throws -> JSONObject {
        let text = JSONValue.object(question).serialized()
        do {
            try process.writeLine(text)
        } catch {
            throw AdapterGone(question: "\(text) (\(error))")
        }
        let process = self.process
        guard let line = await onOwnThread({ process.readLine(timeout: Self.answerLimit) }) else {
            let errors = String(decoding: process.collectedError(waitingUpTo: 0), as: UTF8.self)
            throw AdapterGone(question: text + (errors.isEmpty ? "" : "; its standard error: \(errors)"))
        }
        guard let answer = try JSONValue.parse(line).objectValue else {
            throw AdapterGone(question: "answer is not an object: \(line)")
        }
        return answer
    }

    /// Closes standard input and returns the exit status (terminating the adapter after `seconds`).
    func finish(within seconds: Double = 300) async -> Int32 {
        process.closeInput()
        let process = self.process
        return await onOwnThread {
            let exit = process.waitForExit(timeout: seconds) ?? process.terminate()
            return exit?.code ?? 128 + SIGKILL
        }
    }

    struct AdapterGone: Error, CustomStringConvertible {
        let question: String
        var description: String { "the adapter gave no answer line (its output ended, or it hung) to \(question)" }
    }
}

/// Runs `work` on a thread of its own and returns what it returns.
func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}

/// The two adapters that speak version 2.
enum SubmissionAdapterKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case example, python

    var testDescription: String { rawValue }

    /// The command line, with `extra` arguments (`--break`, `--submission-rule`).
    func command(_ extra: [String] = []) throws -> [String] {
        switch self {
        case .example: [try #require(ExampleAdapter.path, "petspot-example-adapter not found beside the test bundle")] + extra
        case .python: [try #require(PythonAdapter.python, "no python3"), PythonAdapter.script] + extra
        }
    }

    func start(_ extra: [String] = []) throws -> SubmissionAdapterProcess { try SubmissionAdapterProcess(command(extra)) }
}

/// A report's photo: a JPEG file of random bytes (after the JPEG signature), removed by `remove()`.
struct PhotoFile {
    let path: String
    let bytes: [UInt8]

    init() throws {
        bytes = [0xFF, 0xD8, 0xFF, 0xE0] + (0..<2000).map { _ in UInt8.random(in: 0...255) }
        path = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID().uuidString).jpg").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// Whether announcement `id` of `backend` has this photo, byte for byte.
    func isStored(in backend: MockBackend, id: String) -> Bool { backend.storedPhoto(id: id)?.bytes == bytes }

    /// The one announcement `backend` stores, expected to open with `password` and to hold this
    /// photo.
    func onlyAnnouncement(in backend: MockBackend, password: String) throws -> JSONValue {
        #expect(backend.storedAnnouncementCount == 1)
        let id = try #require(backend.storedAnnouncementIdentifiers.first)
        #expect(backend.verifiesManagementPassword(password, id: id))
        #expect(isStored(in: backend, id: id), "the stored photo is not the file's bytes")
        return try #require(backend.storedAnnouncement(id: id))
    }
}

/// The alert texts of report-flows.md.
enum Alert {
    static let noConnection = "No connection. Please check your network and try again."
    static let wentWrong = "Something went wrong. Please try again later."
}

/// Questions of protocol version 2.
enum Version2 {
    /// A microchip number no other report uses.
    static func uniqueChip() -> String { "98" + String(UInt64.random(in: 1_000_000_000_000...9_999_999_999_999)) }

    /// The inputs of a valid Missing report; every optional text filled, the microchip when given.
    static func missingInputs(chip: String?, photo: PhotoFile) -> JSONObject {
        var inputs = JSONObject([
            ("photo", .object(JSONObject([("fileName", "rex.jpg"), ("mimeType", "image/jpeg"), ("byteCount", .number(JSONNumber(photo.bytes.count)))]))),
            ("lastSeenDate", "2025-06-01"), ("species", "DOG"), ("breed", "Beagle"), ("sex", "MALE"), ("age", "3"), ("petName", "Rex"),
            ("latitude", "52.2297"), ("longitude", "21.0122"), ("description", "Red collar"), ("phone", "+48 600-700-800"),
            ("email", "owner@example.com"), ("reward", "$50"),
        ])
        if let chip { inputs["chipNumber"] = .string(chip) }
        return inputs
    }

    /// A `submit` question.
    static func submit(
        id: Int, flow: String = "missing", inputs: JSONObject, baseURL: String, timeout: Double = 10, photo: PhotoFile
    ) -> JSONObject {
        JSONObject([
            ("v", 2), ("id", .number(JSONNumber(id))), ("op", "submit"), ("flow", .string(flow)),
            ("context", .object(JSONObject([("timeZone", "Europe/Warsaw"), ("now", "2025-06-15T12:00:00Z")]))),
            ("inputs", .object(inputs)), ("baseURL", .string(baseURL)), ("requestTimeout", .number(JSONNumber(timeout))),
            ("photoPath", .string(photo.path)),
        ])
    }

    static func tryAgain(id: Int, report: Int) -> JSONObject {
        JSONObject([("v", 2), ("id", .number(JSONNumber(id))), ("op", "tryAgain"), ("report", .number(JSONNumber(report)))])
    }

    static func cancel(id: Int, report: Int) -> JSONObject {
        JSONObject([("v", 2), ("id", .number(JSONNumber(id))), ("op", "cancel"), ("report", .number(JSONNumber(report)))])
    }

    /// The answer `submitted` must be: exactly these keys.
    static func expectSubmitted(_ answer: JSONObject, id: Int, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        #expect(answer.keys == ["v", "id", "outcome", "managementPassword"], "\(answer)", sourceLocation: sourceLocation)
        #expect(answer["v"] == 2 && answer["id"] == .number(JSONNumber(id)) && answer["outcome"] == "submitted", "\(answer)", sourceLocation: sourceLocation)
        return answer["managementPassword"]?.stringValue
    }

    /// The answer must be the alert with `message`, exactly these keys.
    static func expectAlert(_ answer: JSONObject, id: Int, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.keys == ["v", "id", "outcome", "message"], "\(answer)", sourceLocation: sourceLocation)
        #expect(answer["v"] == 2 && answer["id"] == .number(JSONNumber(id)) && answer["outcome"] == "alert", "\(answer)", sourceLocation: sourceLocation)
        #expect(answer["message"]?.stringValue == message, "\(answer)", sourceLocation: sourceLocation)
    }

    /// A short text for an answer: `submitted`, `cancelled`, `alert: MESSAGE`, `blocked`.
    static func summary(_ answer: JSONObject) -> String {
        let outcome = answer["outcome"]?.stringValue ?? "?"
        return outcome == "alert" ? "alert: \(answer["message"]?.stringValue ?? "?")" : outcome
    }
}

/// The mock behind a network the test switches: the mock backend in-process, served by an HTTP
/// server whose handler answers, fails, drops or holds each request as ``mode`` says, and records
/// every request.
final class SwitchedNetwork: Sendable {
    enum Mode: Sendable {
        /// Every request reaches the mock.
        case healthy
        /// Every request is answered with this status (an error envelope), the mock untouched.
        case status(Int)
        /// Photo uploads are answered with this status; creates reach the mock.
        case uploadsFail(Int)
        /// The connection is closed without an answer, the mock untouched.
        case drop
        /// The request reaches the mock once ``release()`` is called (or after 20 s).
        case hold
        /// The request reaches the mock after this many seconds.
        case delay(Double)
    }

    private struct State {
        var mode = Mode.healthy
        var requests: [String] = []
        var released = false
    }

    let backend = MockBackend()
    private let state = Locked(State())
    private let server: HTTPServer
    let baseURL: String

    init() throws {
        let backend = self.backend
        let state = self.state
        server = HTTPServer(configuration: HTTPServer.Configuration()) { request in
            let mode = state.withLock { state in
                state.requests.append("\(request.method) \(request.path)")
                return state.mode
            }
            let failed = { (status: Int) in
                HTTPResponse(status: status, headers: ["Content-Type": "application/json"],
                             body: Array(#"{"error":{"requestId":"t","code":"INJECTED","message":"injected"}}"#.utf8))
            }
            switch mode {
            case .healthy: return backend.answer(request)
            case .status(let status): return failed(status)
            case .uploadsFail(let status): return request.path.hasSuffix("/photos") ? failed(status) : backend.answer(request)
            case .drop: throw CancellationError()
            case .hold:
                let deadline = Date(timeIntervalSinceNow: 20)
                while !state.withLock({ $0.released }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
                return backend.answer(request)
            case .delay(let seconds):
                Thread.sleep(forTimeInterval: seconds)
                return backend.answer(request)
            }
        }
        baseURL = "http://127.0.0.1:\(try server.start())"
    }

    /// What the network does from now on.
    func set(_ mode: Mode) { state.withLock { $0.mode = mode } }

    /// Lets held requests through.
    func release() { state.withLock { $0.released = true } }

    /// Every request so far, as `METHOD PATH`.
    var requests: [String] { state.withLock { $0.requests } }

    /// How many creates were sent.
    var creates: Int { requests.filter { $0 == "POST /api/v1/announcements" }.count }

    /// The stored announcement `password` opens, and whether it has a photo.
    func announcement(openedBy password: String) -> (id: String, hasPhoto: Bool)? {
        backend.storedAnnouncementIdentifiers.first { backend.verifiesManagementPassword(password, id: $0) }
            .map { ($0, backend.storedPhoto(id: $0) != nil) }
    }

    func stop() {
        release()
        server.stop()
    }
}

/// The scenarios every version 2 adapter must pass, run for each adapter.
enum AdapterSubmissionScenario: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case submitsValidReports, serverErrorSaysSomethingWentWrong, closedPortSaysNoConnection, cancelKeepsInputsAndTryAgainSubmits
    case timeoutSaysNoConnectionBeforeTheAnswer, fractionalTimeoutIsNotCut, blockedReportSendsNothing
    case specRuleRepeatsBothRequests, laterRuleRetriesOnlyTheUpload, badQuestionsEndWithAReason

    var testDescription: String { rawValue }

    func run(_ kind: SubmissionAdapterKind) async throws {
        let photo = try PhotoFile()
        defer { photo.remove() }
        switch self {
        case .submitsValidReports: try await Self.submitsValidReports(kind, photo)
        case .serverErrorSaysSomethingWentWrong: try await Self.serverError(kind, photo)
        case .closedPortSaysNoConnection: try await Self.closedPort(kind, photo)
        case .cancelKeepsInputsAndTryAgainSubmits: try await Self.cancelThenTryAgain(kind, photo)
        case .timeoutSaysNoConnectionBeforeTheAnswer: try await Self.timeout(kind, photo)
        case .fractionalTimeoutIsNotCut: try await Self.fractionalTimeout(kind, photo)
        case .blockedReportSendsNothing: try await Self.blocked(kind, photo)
        case .specRuleRepeatsBothRequests: try await Self.partialFailure(kind, photo, rule: "spec")
        case .laterRuleRetriesOnlyTheUpload: try await Self.partialFailure(kind, photo, rule: "later")
        case .badQuestionsEndWithAReason: try await Self.badQuestions(kind, photo)
        }
    }

    /// A Missing and a Found report against the mock over HTTP; a v1 question between them.
    static func submitsValidReports(_ kind: SubmissionAdapterKind, _ photo: PhotoFile) async throws {
        let server = MockHTTPServer(options: MockServerOptions(port: 0))
        let port = try server.start()
        defer { server.stop() }
        let adapter = try kind.start()
        let chip = Version2.uniqueChip()
        let inputs = Version2.missingInputs(chip: chip, photo: photo)
        let answer = try await adapter.ask(Version2.submit(id: 41, inputs: inputs, baseURL: "http://127.0.0.1:\(port)", photo: photo))
        let password = try #require(Version2.expectSubmitted(answer, id: 41))
        let stored = try photo.onlyAnnouncement(in: server.backend, password: password)
        #expect(stored["microchipNumber"]?.stringValue == chip && stored["petName"] == "Rex" && stored["status"] == "MISSING")
        // Version 1 still answers with the payload, and sends nothing.
        var payloadQuestion = Version2.submit(id: 42, inputs: inputs, baseURL: "http://127.0.0.1:\(port)", photo: photo)
        payloadQuestion["v"] = 1
        let payloadAnswer = try await adapter.ask(payloadQuestion)
        #expect(payloadAnswer["v"] == 1 && payloadAnswer["outcome"] == "submitted" && payloadAnswer["payload"]?["petName"] == "Rex")
        #expect(server.backend.storedAnnouncementCount == 1)
        var found = inputs
        for key in ["petName", "age", "reward"] { found[key] = nil }
        found["chipNumber"] = nil
        let foundAnswer = try await adapter.ask(Version2.submit(id: 43, flow: "found", inputs: found, baseURL: "http://127.0.0.1:\(port)", photo: photo))
        #expect(Version2.expectSubmitted(foundAnswer, id: 43) != nil)
        #expect(server.backend.storedAnnouncementCount == 2)
        #expect(await adapter.finish() == 0)
    }

    /// Every request answered 503 by the mock's fault plan.
    static func serverError(_ kind: SubmissionAdapterKind, _ photo: PhotoFile) async throws {
        let server = MockHTTPServer(options: MockServerOptions(port: 0, faults: try FaultPlan(parsing: "503:1")))
        let port = try server.start()
        defer { server.stop() }
        let adapter = try kind.start()
        let answer = try await adapter.ask(
            Version2.submit(id: 1, inputs: Version2.missingInputs(chip: Version2.uniqueChip(), photo: photo), baseURL: "http://127.0.0.1:\(port)", photo: photo))
        Version2.expectAlert(answer, id: 1, Alert.wentWrong)
        #expect(server.backend.storedAnnouncementCount == 0)
        #expect(await adapter.finish() == 0)
    }

    /// A base URL on a port nothing listens on (a mock's, stopped).
    static func closedPort(_ kind: SubmissionAdapterKind, _ photo: PhotoFile) async throws {
        let server = MockHTTPServer(options: MockServerOptions(port: 0))
        let port = try server.start()
        server.stop()
        let adapter = try kind.start()
        let answer = try await adapter.ask(
            Version2.submit(id: 7, inputs: Version2.missingInputs(chip: nil, photo: photo), baseURL: "http://127.0.0.1:\(port)", photo: photo))
        Version2.expectAlert(answer, id: 7, Alert.noConnection)
        #expect(await adapter.finish() == 0)
    }

    /// The create refused (409: the microchip is taken), Cancel, the microchip freed, Try Again:
    /// the same report, every input, is submitted.
    static func cancelThenTryAgain(_ kind: SubmissionAdapterKind, _ photo: PhotoFile) async throws {
        let server = MockHTTPServer(options: MockServerOptions(port: 0))
        let port = try server.start()
        defer { server.stop() }
        let chip = Version2.uniqueChip()
        let taken = server.backend.answer(HTTPRequest(
            method: "POST", target: "/api/v1/announcements", headers: ["Content-Type": "application/json"],
            body: Array(#"{"species":"CAT","sex":"FEMALE","lastSeenDate":"2025-06-01","locationLatitude":1,"locationLongitude":2,"email":"a@example.com","status":"MISSING","microchipNumber":"\#(chip)"}"#.utf8)))
        #expect(taken.status == 201)
        let adapter = try kind.start()
        let first = try await adapter.ask(
            Version2.submit(id: 5, inputs: Version2.missingInputs(chip: chip, photo: photo), baseURL: "http://127.0.0.1:\(port)", photo: photo))
        Version2.expectAlert(first, id: 5, Alert.wentWrong)
        let cancelled = try await adapter.ask(Version2.cancel(id: 6, report: 5))
        #expect(cancelled.keys == ["v", "id", "outcome"] && cancelled["v"] == 2 && cancelled["id"] == 6 && cancelled["outcome"] == "cancelled", "\(cancelled)")
        server.backend.removeAllAnnouncements()
        let again = try await adapter.ask(Version2.tryAgain(id: 7, report: 5))
        let password = try #require(Version2.expectSubmitted(again, id: 7))
        let stored = try photo.onlyAnnouncement(in: server.backend, password: password)
        for (key, value) in [("microchipNumber", chip), ("petName", "Rex"), ("breed", "Beagle"), ("description", "Red collar"), ("reward", "$50")] {
            #expect(stored[key]?.stringValue == value, "\(key) after Cancel and Try Again: \(stored[key] ?? .null)")
        }
        #expect(await adapter.finish() == 0)
    }

    /// The answer held past a fractional request timeout: the alert comes while it is still held.
    static func timeout(_ kind: SubmissionAdapterKind, _ photo: PhotoFile) async throws {
        let network = try SwitchedNetwork()
        defer { network.stop() }
        network.set(.hold)
        let adapter = try kind.start()
        let answer = try await adapter.ask(
            Version2.submit(id: 3, inputs: Version2.missingInputs(chip: nil, photo: photo), baseURL: network.baseURL, timeout: 0.5, photo: photo))
        Version2.expectAlert(answer, id: 3, Alert.noConnection)
        #expect(network.backend.storedAnnouncementCount == 0, "the answer came before the request was let through")
        network.release()
        #expect(await adapter.finish() == 0)
    }

    /// A timeout under a second (0.9 s), every answer 0.2 s late: cut to whole seconds (0) the
    /// timeout would fail every request at once. Three tries, so that a loaded machine does not fail it.
    static func fractionalTimeout(_ kind: SubmissionAdapterKind, _ photo: PhotoFile) async throws {
        let network = try SwitchedNetwork()
        defer { network.stop() }
        network.set(.delay(0.2))
        let adapter = try kind.start()
        var answers = [try await adapter.ask(
            Version2.submit(id: 1, inputs: Version2.missingInputs(chip: nil, photo: photo), baseURL: network.baseURL, timeout: 0.9, photo: photo))]
        for id in 2...3 where answers.last?["outcome"] != "submitted" { answers.append(try await adapter.ask(Version2.tryAgain(id: id, report: 1))) }
        #expect(answers.last?["outcome"] == "submitted", "\(answers.map(Version2.summary))")
        #expect(await adapter.finish() == 0)
    }

    /// A report the flow refuses is answered `blocked` (version 2) and sends no request.
    static func blocked(_ kind: SubmissionAdapterKind, _ photo: PhotoFile) async throws {
        let network = try SwitchedNetwork()
        defer { network.stop() }
        let adapter = try kind.start()
        var inputs = Version2.missingInputs(chip: nil, photo: photo)
        inputs["phone"] = "12"
        let answer = try await adapter.ask(Version2.submit(id: 9, inputs: inputs, baseURL: network.baseURL, photo: photo))
        #expect(answer.keys == ["v", "id", "outcome", "step", "fields"], "\(answer)")
        #expect(answer["v"] == 2 && answer["id"] == 9 && answer["outcome"] == "blocked" && answer["step"] == "contactDetails")
        #expect(answer["fields"] == ["phone"])
        #expect(network.requests.isEmpty)
        #expect(await adapter.finish() == 0)
    }

    /// The create answered 201, the upload 503, then a healthy network and Try Again. The spec's
    /// rule repeats both requests (a microchip then meets its own announcement: 409); the later
    /// rule uploads to the kept announcement.
    static func partialFailure(_ kind: SubmissionAdapterKind, _ photo: PhotoFile, rule: String) async throws {
        let network = try SwitchedNetwork()
        defer { network.stop() }
        network.set(.uploadsFail(503))
        let adapter = try kind.start(rule == "spec" ? [] : ["--submission-rule", rule])
        let first = try await adapter.ask(
            Version2.submit(id: 1, inputs: Version2.missingInputs(chip: Version2.uniqueChip(), photo: photo), baseURL: network.baseURL, photo: photo))
        Version2.expectAlert(first, id: 1, Alert.wentWrong)
        network.set(.healthy)
        let again = try await adapter.ask(Version2.tryAgain(id: 2, report: 1))
        if rule == "spec" {
            Version2.expectAlert(again, id: 2, Alert.wentWrong)
            #expect(network.creates == 2)
            #expect(network.backend.storedAnnouncementCount == 1)
        } else {
            let password = try #require(Version2.expectSubmitted(again, id: 2))
            #expect(network.creates == 1)
            #expect(network.backend.storedAnnouncementCount == 1)
            #expect(network.announcement(openedBy: password)?.hasPhoto == true)
        }
        #expect(await adapter.finish() == 0)
    }

    /// A question that is not a valid version 2 question ends the adapter with a reason (exit 2
    /// for the example, a non-zero exit for Python), never an answer made up.
    static func badQuestions(_ kind: SubmissionAdapterKind, _ photo: PhotoFile) async throws {
        let adapter = try kind.start()
        await #expect(throws: SubmissionAdapterProcess.AdapterGone.self) { _ = try await adapter.ask(Version2.tryAgain(id: 2, report: 1)) }
        #expect(await adapter.finish() != 0)
    }
}

/// A submission defect, the scenario that shows it, and what the scenario shows with and without it.
struct SubmissionDefectCase: Sendable, CustomTestStringConvertible {
    let defect: String
    let correct: String
    let broken: String
    let scenario: @Sendable (SubmissionAdapterProcess, SwitchedNetwork, PhotoFile) async throws -> String

    var testDescription: String { defect }

    /// Runs the scenario on `kind`, with the defect planted or not.
    func observe(_ kind: SubmissionAdapterKind, planted: Bool) async throws -> String {
        let network = try SwitchedNetwork()
        defer { network.stop() }
        let photo = try PhotoFile()
        defer { photo.remove() }
        let adapter = try kind.start(planted ? ["--break", defect] : [])
        let seen = try await scenario(adapter, network, photo)
        network.release()
        #expect(await adapter.finish() == 0)
        return seen
    }

    static func submit(_ adapter: SubmissionAdapterProcess, _ network: SwitchedNetwork, _ photo: PhotoFile, chip: String?, timeout: Double = 10) async throws -> String {
        Version2.summary(try await adapter.ask(
            Version2.submit(id: 1, inputs: Version2.missingInputs(chip: chip, photo: photo), baseURL: network.baseURL, timeout: timeout, photo: photo)))
    }

    /// Uploads fail, then the network heals and the user taps Try Again: the second answer, and
    /// whether the announcement its password opens has the photo.
    static func retryAfterFailedUpload(_ adapter: SubmissionAdapterProcess, _ network: SwitchedNetwork, _ photo: PhotoFile) async throws -> String {
        network.set(.uploadsFail(503))
        _ = try await submit(adapter, network, photo, chip: nil)
        network.set(.healthy)
        let again = try await adapter.ask(Version2.tryAgain(id: 2, report: 1))
        guard let password = again["managementPassword"]?.stringValue else { return Version2.summary(again) }
        return "submitted, the shown password's announcement has the photo: \(network.announcement(openedBy: password)?.hasPhoto ?? false)"
    }

    static let all: [SubmissionDefectCase] = [
        SubmissionDefectCase(
            defect: "submit-success-despite-upload-failure", correct: "alert: \(Alert.wentWrong)", broken: "submitted",
            scenario: { adapter, network, photo in
                network.set(.uploadsFail(503))
                return try await submit(adapter, network, photo, chip: nil)
            }),
        SubmissionDefectCase(
            defect: "submit-timeout-says-went-wrong", correct: "alert: \(Alert.noConnection)", broken: "alert: \(Alert.wentWrong)",
            scenario: { adapter, network, photo in
                network.set(.hold)
                return try await submit(adapter, network, photo, chip: nil, timeout: 0.5)
            }),
        SubmissionDefectCase(
            defect: "submit-server-error-says-no-connection", correct: "alert: \(Alert.wentWrong)", broken: "alert: \(Alert.noConnection)",
            scenario: { adapter, network, photo in
                network.set(.status(503))
                return try await submit(adapter, network, photo, chip: nil)
            }),
        SubmissionDefectCase(
            defect: "submit-cancel-clears-optional", correct: "submitted without: []",
            broken: "submitted without: [\"breed\", \"description\", \"microchipNumber\", \"petName\", \"reward\"]",
            scenario: { adapter, network, photo in
                network.set(.status(503))
                _ = try await submit(adapter, network, photo, chip: Version2.uniqueChip())
                _ = try await adapter.ask(Version2.cancel(id: 2, report: 1))
                network.set(.healthy)
                let again = try await adapter.ask(Version2.tryAgain(id: 3, report: 1))
                let stored = network.backend.storedAnnouncementIdentifiers.compactMap(network.backend.storedAnnouncement(id:))
                let missing = ["breed", "description", "microchipNumber", "petName", "reward"].filter { key in stored.first?[key]?.stringValue == nil }
                return "\(Version2.summary(again)) without: \(missing)"
            }),
        SubmissionDefectCase(
            defect: "submit-retry-drops-microchip", correct: "submitted, microchip sent: true", broken: "submitted, microchip sent: false",
            scenario: { adapter, network, photo in
                network.set(.drop)
                _ = try await submit(adapter, network, photo, chip: Version2.uniqueChip())
                network.set(.healthy)
                let again = try await adapter.ask(Version2.tryAgain(id: 2, report: 1))
                let stored = network.backend.storedAnnouncementIdentifiers.compactMap(network.backend.storedAnnouncement(id:))
                return "\(Version2.summary(again)), microchip sent: \(stored.first?["microchipNumber"]?.stringValue != nil)"
            }),
        SubmissionDefectCase(
            defect: "submit-retry-stale-password", correct: "submitted, the shown password's announcement has the photo: true",
            broken: "alert: \(Alert.wentWrong)", scenario: retryAfterFailedUpload),
        SubmissionDefectCase(
            defect: "submit-upload-to-first-id", correct: "submitted, the shown password's announcement has the photo: true",
            broken: "submitted, the shown password's announcement has the photo: false", scenario: retryAfterFailedUpload),
        SubmissionDefectCase(
            defect: "submit-double-create", correct: "submitted after 1 creates", broken: "submitted after 2 creates",
            scenario: { adapter, network, photo in
                "\(try await submit(adapter, network, photo, chip: nil)) after \(network.creates) creates"
            }),
        SubmissionDefectCase(
            defect: "submit-upload-answer-needs-body", correct: "submitted", broken: "alert: \(Alert.wentWrong)",
            scenario: { adapter, network, photo in try await submit(adapter, network, photo, chip: nil) }),
        SubmissionDefectCase(
            defect: "submit-shows-first-password", correct: "submitted, the shown password's announcement has the photo: true",
            broken: "submitted, the shown password's announcement has the photo: false", scenario: retryAfterFailedUpload),
        SubmissionDefectCase(
            defect: "submit-retry-untrimmed", correct: #"submitted, breed stored: "Beagle", petName stored: "Rex""#,
            broken: #"submitted, breed stored: "  Beagle ", petName stored: " Rex""#,
            scenario: { adapter, network, photo in
                // The first attempt fails (503), so Try Again builds the body again.
                network.set(.status(503))
                var inputs = Version2.missingInputs(chip: nil, photo: photo)
                inputs["breed"] = "  Beagle "
                inputs["petName"] = " Rex"
                _ = try await adapter.ask(Version2.submit(id: 1, inputs: inputs, baseURL: network.baseURL, photo: photo))
                network.set(.healthy)
                let again = try await adapter.ask(Version2.tryAgain(id: 2, report: 1))
                let stored = network.backend.storedAnnouncementIdentifiers.compactMap(network.backend.storedAnnouncement(id:)).first
                return "\(Version2.summary(again)), breed stored: \(stored?["breed"]?.serialized() ?? "none"), "
                    + "petName stored: \(stored?["petName"]?.serialized() ?? "none")"
            }),
    ]
}

@Suite("the example adapter's submission (protocol version 2)", .serialized, .onOwnThreads)
struct ExampleAdapterSubmissionTests {
    @Test("the example adapter submits, alerts, cancels and tries again as report-flows.md says", arguments: AdapterSubmissionScenario.allCases)
    func example(_ scenario: AdapterSubmissionScenario) async throws {
        try await scenario.run(.example)
    }

    @Test(
        "the Python adapter submits, alerts, cancels and tries again as report-flows.md says", .enabled(if: PythonAdapter.python != nil, "no python3"),
        arguments: AdapterSubmissionScenario.allCases)
    func python(_ scenario: AdapterSubmissionScenario) async throws {
        try await scenario.run(.python)
    }

    @Test("each submission defect of the example adapter changes what the app does", arguments: SubmissionDefectCase.all)
    func exampleDefect(_ defectCase: SubmissionDefectCase) async throws {
        let correct = try await defectCase.observe(.example, planted: false)
        #expect(correct == defectCase.correct, "without the defect")
        let broken = try await defectCase.observe(.example, planted: true)
        #expect(broken == defectCase.broken, "with the defect planted")
    }

    @Test(
        "each submission defect of the Python adapter changes what the app does", .enabled(if: PythonAdapter.python != nil, "no python3"),
        arguments: SubmissionDefectCase.all)
    func pythonDefect(_ defectCase: SubmissionDefectCase) async throws {
        let correct = try await defectCase.observe(.python, planted: false)
        #expect(correct == defectCase.correct, "without the defect")
        let broken = try await defectCase.observe(.python, planted: true)
        #expect(broken == defectCase.broken, "with the defect planted")
    }

    @Test("--list-defects lists the eleven submission defects: field submission, the property's short id, a summary")
    func listed() throws {
        let submission = PlantedDefectList.listed.filter { $0.field == "submission" }
        #expect(submission.map(\.name) == SubmissionDefectCase.all.map(\.defect))
        let adapter = try #require(ExampleAdapter.path)
        let lines = try ChildProcess.run(adapter, ["--list-defects"]).outputText.split(separator: "\n")
        let properties: Set<String> = ["alert", "time-out", "leaves-flow", "inputs-kept", "gets-through", "one-announcement"]
        for line in lines where line.contains("\tsubmission\t") {
            let columns = line.split(separator: "\t").map(String.init)
            #expect(columns.count == 4 && properties.contains(columns[2]) && !columns[3].isEmpty, "\(line)")
        }
    }
}
