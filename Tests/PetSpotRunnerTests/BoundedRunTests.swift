import Foundation
@testable import PetSpotCLI
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
@testable import PetSpotReport
import PetSpotRunner
import PetSpotRuntime
import PetSpotTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A target that answers its health check and the run's profile probe (through the in-process
/// mock) and lets every other request time out at once; counts what reaches it and can end the
/// run's time after `expireAfter` requests.
final class TimingOutTransport: AnnouncementTransport {
    private let health = InProcessTransport(backend: MockBackend(profile: .production, clock: serverClockAhead))
    private let state = Locked<(count: Int, deadline: RunDeadline?, expireAfter: Int)>((0, nil, .max))
    /// Which requests time out (all but health and the probe by default).
    let timesOut: @Sendable (TransportRequest) -> Bool

    init(timesOut: @escaping @Sendable (TransportRequest) -> Bool = { $0.path != "/api/health" && !isProfileProbe($0) }) {
        self.timesOut = timesOut
    }

    /// Whether `request` is `run`'s profile probe (a target that does not answer it is unreachable).
    static func isProfileProbe(_ request: TransportRequest) -> Bool {
        request.method == "POST" && request.path == "/api/v1/announcements" && request.body == Data(RunCommand.profileProbeBody.utf8)
    }

    /// Requests received so far.
    var count: Int { state.withLock { $0.count } }

    /// Makes request number `count + 1` and later find `deadline` passed.
    func expire(_ deadline: RunDeadline, after count: Int) {
        state.withLock { $0 = ($0.count, deadline, count) }
    }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let expiring = state.withLock { state -> RunDeadline? in
            state.count += 1
            return state.count == state.expireAfter ? state.deadline : nil
        }
        expiring?.expire()
        if timesOut(request) { throw .timedOut }
        return try await health.send(request)
    }
}

/// Runs `run` through `transport` with `arguments` (and `deadline`, if given); the exit code, the
/// JSON report and the console output.
func runBounded(
    _ transport: any AnnouncementTransport, _ arguments: [String], deadline: RunDeadline? = nil
) async throws -> (status: RunnerExitCode, report: JSONValue, out: String, err: String) {
    let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("bounded-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: reportPath) }
    let words = ["--base-url", "http://127.0.0.1:9", "--no-progress", "--report-json", reportPath, "--seed", "11"] + arguments
    let command = try RunCommand(try ParsedArguments(words, for: RunCommand.spec), arguments: words, environment: [:])
    let output = CapturedOutput()
    let status = try await command.execute(transport: transport, output: output.runner, deadline: deadline)
    return (status, try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: reportPath))), output.standardOutput, output.standardError)
}

/// The skip reasons of a JSON report.
func skipReasons(in report: JSONValue) -> [String] {
    (report["groups"]?.arrayValue ?? []).flatMap { group in
        (group["contracts"]?.arrayValue ?? []).compactMap { $0["skipReason"]?.stringValue }
    }
}

@Suite("run is bounded: the breaker and the deadline", .serialized, .onOwnThreads)
struct BoundedRunTests {
    // MARK: The breaker

    @Test("a group stops after --max-timeouts timeouts in a row; the others are skipped with the reason")
    func breakerStopsGroups() async throws {
        let transport = TimingOutTransport()
        let result = try await runBounded(
            transport, ["--cases", "1", "--concurrency", "1", "--max-timeouts", "2", "--max-requests", "400", "--allow-leftovers"])
        #expect(result.status == .contractFailed)
        // The probe and health, then at most 2 requests per backend group: far from the 400 the budget allows.
        let backendGroups = ContractRegistry.groups.filter { $0 is any BackendContractGroup }.count
        #expect(transport.count <= 2 + 2 * backendGroups, "\(transport.count) requests")
        #expect(skipReasons(in: result.report).contains { $0.contains("2 requests in a row timed out (--max-timeouts 2)") })
        #expect(notes(in: result.report.serialized()).contains { $0.contains("create negatives (catalog): 2 requests in a row timed out") })
    }

    @Test("an answer between timeouts starts the count again")
    func breakerCountsInARow() async throws {
        let alternate = Locked(0)
        let transport = TimingOutTransport { request in
            request.path != "/api/health" && !TimingOutTransport.isProfileProbe(request) && alternate.withLock { count -> Bool in
                count += 1
                return count % 2 == 0
            }
        }
        let result = try await runBounded(
            transport, ["--cases", "1", "--concurrency", "1", "--max-timeouts", "2", "--max-requests", "120", "--allow-leftovers"])
        #expect(!skipReasons(in: result.report).contains { $0.contains("in a row timed out") })
        #expect(transport.count > 100)
    }

    @Test("cleanup stops deleting after --max-timeouts timeouts in a row and lists the rest")
    func cleanupBreaker() async throws {
        let transport = TimingOutTransport { $0.method == "DELETE" }
        let budgeted = BudgetedTransport(transport, limit: 10)
        let target = BackendTarget(
            name: "test", transport: budgeted, profile: .production, adminToken: "token", microchips: MicrochipSequence(), concurrency: 1,
            submissions: { [] }, maxConsecutiveTimeouts: 3)
        for _ in 0..<20 { target.remember(UUID().uuidString.lowercased(), microchip: nil) }
        let recorder = ContractRecorder()
        await target.cleanUp(recorder: recorder)
        #expect(transport.count == 3)
        #expect(recorder.leftovers.count == 20)
        #expect(recorder.leftovers.filter { $0.reason.contains("3 requests in a row timed out") }.count == 17)
    }

    // MARK: The deadline

    @Test("past the deadline no request is sent: the run cleans up, reports and fails")
    func deadlineStopsRequests() async throws {
        let transport = TimingOutTransport()
        let deadline = RunDeadline(seconds: 86_400)
        transport.expire(deadline, after: 10)
        let result = try await runBounded(
            transport, ["--cases", "1", "--concurrency", "2", "--max-timeouts", "1000", "--max-requests", "400", "--allow-leftovers"],
            deadline: deadline)
        #expect(result.status == .contractFailed)
        // The 10th request ended the run's time; at most the ones already under way followed.
        #expect(transport.count <= 12, "\(transport.count) requests")
        let failed = failures(of: RunCommand.deadlineContract, in: result.report.serialized())
        #expect(failed.first?["message"]?.stringValue?.hasPrefix("the run's deadline (--deadline 86400 s) passed after") == true)
        #expect(skipReasons(in: result.report).contains { $0.contains("the run's deadline (--deadline 86400 s) passed") })
        #expect(result.err.contains("passed: no new request is sent"))
    }

    @Test("a target that answers health and then nothing ends at --deadline, over HTTP")
    func silentTargetEndsAtDeadline() async throws {
        let server = try HostileServer { request, _ in request.target == "/api/health" || request.isProfileProbe ? .proxy : .silent }
        defer { server.stop() }
        // No token to check (its delete would get no answer either): the groups create, and nothing is answered.
        let result = await runAgainst(
            server, adminToken: nil,
            ["--deadline", "2", "--timeout", "0.5", "--max-timeouts", "1000", "--max-requests", "400", "--concurrency", "4", "--allow-leftovers"])
        #expect(result.status == 1, "\(result.err)")
        #expect(!failures(of: RunCommand.deadlineContract, in: result.json).isEmpty)
        // Without the deadline the budget's 400 requests would each wait their 0.5 s.
        #expect(server.requests.count < 200, "\(server.requests.count) requests")
    }
}

@Suite("run's admin token", .onOwnThreads)
struct AdminTokenTests {
    @Test("an admin token with a control character is a usage error: exit 64, nothing sent, the token not shown", arguments: [
        ("s3cr3t-t0ken\n", "\\n at byte offset 12"), ("s3c\rr3t", "\\r at byte offset 3"), ("\u{1B}[2Js3cr3t", "\\u{1B} at byte offset 0"),
    ])
    func tokenWithControlCharacter(token: String, position: String) async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let result = await runTool(["run", "--base-url", server.url, "--admin-token", token, "--no-progress"])
        #expect(result.status == RunnerExitCode.usage.rawValue)
        #expect(result.err.contains("the admin token from --admin-token contains the control character \(position)"), "\(result.err)")
        #expect(!result.err.contains("s3c") && !result.err.contains("r3t"), "\(result.err)")
        #expect(server.requests.isEmpty)
        // The same from the environment.
        let words = ["--base-url", server.url]
        #expect(throws: RunnerError.usage(
            "the admin token from the PETSPOT_ADMIN_TOKEN environment variable contains the control character \(position) "
                + "(a line break read from a file?): it cannot be sent in an Authorization header; remove it", command: "run"
        )) {
            try RunCommand(try ParsedArguments(words, for: RunCommand.spec), arguments: words, environment: ["PETSPOT_ADMIN_TOKEN": token])
        }
    }
}

/// The second signal, as a separate process.
@Suite("run's second signal, as a separate process", .serialized, .onOwnThreads)
struct SecondSignalTests {
    @Test("a second SIGINT during cleanup lists the ids not deleted, on standard error and in --report-json, then exits 130")
    func secondSignalListsLeftovers() throws {
        let binary = try #require(ToolBinary.path)
        let interrupted = Locked(false)
        // Deletes hang once the run is interrupted: its cleanup is still under way at the second signal.
        let server = try HostileServer { request, _ in
            request.method == "DELETE" && interrupted.withLock({ $0 }) ? .silent : .proxy
        }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("second-signal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jsonPath = directory.appendingPathComponent("report.json").path
        let child = try WatchedChild(binary, [
            "run", "--base-url", server.url, "--cases", "200", "--seed", "5", "--concurrency", "4", "--no-progress", "--timeout", "30",
            "--admin-token", MockBackend.defaultAdminToken, "--report-json", jsonPath,
        ])
        // Counted polls, far above what even a loaded machine needs.
        for _ in 0..<24_000 {
            if server.storedIds.count >= 3 { break }
            usleep(5_000)
        }
        interrupted.withLock { $0 = true }
        child.send(SIGINT)
        // The cleanup has begun when a delete arrives after the signal.
        let deletesBefore = server.requests.filter { $0.method == "DELETE" }.count
        for _ in 0..<24_000 {
            if server.requests.filter({ $0.method == "DELETE" }).count > deletesBefore { break }
            usleep(5_000)
        }
        usleep(200_000)
        child.send(SIGINT)
        let outcome = child.wait(upTo: 600)
        #expect(outcome.status == 130, "\(outcome.err)")
        let stored = server.storedIds
        #expect(!stored.isEmpty)
        for id in stored { #expect(outcome.err.contains("left on target: announcement \(id)"), "\(id) not listed: \(outcome.err)") }
        let report = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: jsonPath)))
        let leftovers = Set(report["leftovers"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
        #expect(stored.isSubset(of: leftovers), "not in the report: \(stored.subtracting(leftovers))")
    }
}
