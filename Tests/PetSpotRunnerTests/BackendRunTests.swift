import Foundation
import PetSpotBackendGroups
@testable import PetSpotCLI
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotFlowChecks
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
import PetSpotPlantedDefects
@testable import PetSpotReport
import PetSpotRunner
import PetSpotRuntime
import PetSpotSequences
import Testing

/// A transport that passes every request to the in-process mock and then rewrites the answers
/// `rewrite` chooses: a deliberately broken backend rule.
struct BrokenBackendTransport: AnnouncementTransport {
    let base: InProcessTransport
    let rewrite: @Sendable (TransportRequest, TransportResponse) -> TransportResponse

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        rewrite(request, try await base.send(request))
    }
}

/// A transport that counts the requests reaching the one it wraps.
final class CountingTransport: AnnouncementTransport {
    let base: any AnnouncementTransport
    private let sent = Locked(0)

    init(base: any AnnouncementTransport) { self.base = base }

    var count: Int { sent.withLock { $0 } }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        sent.withLock { $0 += 1 }
        return try await base.send(request)
    }
}

/// Runs `run` through `transport` with the command line `arguments`; returns the exit code and JSON report.
func runThrough(_ transport: any AnnouncementTransport, _ arguments: [String]) async throws -> (status: RunnerExitCode, report: JSONValue, out: String) {
    let result = try await runThrough(transport, arguments, output: CapturedOutput())
    return (result.status, result.report, result.out)
}

/// Runs `run` through `transport` with `arguments` (`--no-progress` unless `progress`), writing to
/// `output`, with the progress line on `progressClock` if given.
func runThrough(
    _ transport: any AnnouncementTransport, _ arguments: [String], output: CapturedOutput, progress: Bool = false,
    progressClock: ProgressLine.Elapsed? = nil
) async throws -> (status: RunnerExitCode, report: JSONValue, out: String, err: String) {
    let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: reportPath) }
    let words = ["--base-url", "http://127.0.0.1:9", "--report-json", reportPath] + (progress ? [] : ["--no-progress"]) + arguments
    let command = try RunCommand(try ParsedArguments(words, for: RunCommand.spec), arguments: words, environment: [:])
    let status = try await command.execute(transport: transport, output: output.runner, progressClock: progressClock)
    return (status, try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: reportPath))), output.standardOutput, output.standardError)
}

/// A transport that keeps what the command had printed when its first request came, and every
/// status answered.
final class WitnessTransport: AnnouncementTransport {
    let base: any AnnouncementTransport
    let output: CapturedOutput
    private let state = Locked<(printedBeforeFirst: String?, statuses: [Int])>((nil, []))

    init(_ base: any AnnouncementTransport, output: CapturedOutput) {
        self.base = base
        self.output = output
    }

    /// Standard output as it was when the first request came.
    var printedBeforeFirstRequest: String { state.withLock { $0.printedBeforeFirst ?? "" } }
    /// The status of every answer, in order.
    var statuses: [Int] { state.withLock { $0.statuses } }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let printed = output.standardOutput
        state.withLock { if $0.printedBeforeFirst == nil { $0.printedBeforeFirst = printed } }
        let response = try await base.send(request)
        state.withLock { $0.statuses.append(response.status) }
        return response
    }
}

/// A server clock two days ahead: every date a user anywhere may pick today is in its past, so
/// these tests do not depend on the time of day.
let serverClockAhead: @Sendable () -> Date = { Date().addingTimeInterval(2 * 86_400) }

@Suite("backend contracts", .serialized)
struct BackendRunTests {
    @Test("run passes against the HTTP mock on loopback, both profiles (production with its sample rows), and cleans up", arguments: BackendProfile.allCases)
    func runOverHTTP(profile: BackendProfile) async throws {
        // As `petspot-contracts mock` serves them: production's store starts with its sample rows.
        var options = MockServerOptions(port: 0, profile: profile)
        options.sampleRows = profile == .production
        let server = MockHTTPServer(options: options, clock: serverClockAhead)
        let port = try server.start()
        defer { server.stop() }
        let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID().uuidString).json").path
        let junitPath = reportPath + ".xml"
        defer {
            try? FileManager.default.removeItem(atPath: reportPath)
            try? FileManager.default.removeItem(atPath: junitPath)
        }
        let result = await runTool([
            "run", "--base-url", "http://127.0.0.1:\(port)", "--profile", profile.rawValue, "--cases", "12", "--seed", "3",
            "--admin-token", MockBackend.defaultAdminToken, "--no-progress", "--report-json", reportPath, "--junit", junitPath,
        ])
        #expect(result.status == 0, "\(result.out)")
        let report = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: reportPath)))
        #expect(failedContracts(report).isEmpty)
        #expect(report["leftovers"]?.arrayValue?.isEmpty == true)
        #expect(server.backend.storedAnnouncementIdentifiers == (profile == .production ? SampleRows.ids : []), "everything created was deleted")
        #expect(!result.out.contains(MockBackend.defaultAdminToken))
        // The deliberately wrong credentials the run sends are masked, never the tool's own name.
        #expect(report["replay"]?.stringValue?.hasPrefix("petspot-contracts run ") == true, "\(String(describing: report["replay"]))")
        let submission = try #require(report["groups"]?.arrayValue?.first { $0["name"] == .string(SubmissionContracts().name) })
        let create = try #require(submission["contracts"]?.arrayValue?.first { $0["name"] == .string(SubmissionContracts.create) })
        #expect((create["casesRun"]?.numberValue?.intValue ?? 0) > 0)
        #expect(FileManager.default.fileExists(atPath: junitPath))
    }

    @Test("without an admin token and with --allow-leftovers, the run says so first, creates, and lists every leftover")
    func leftovers() async throws {
        let backend = MockBackend(profile: .production, clock: serverClockAhead)
        let output = CapturedOutput()
        let witness = WitnessTransport(InProcessTransport(backend: backend), output: output)
        let result = try await runThrough(witness, ["--cases", "3", "--seed", "5", "--allow-leftovers"], output: output)
        let leftovers = result.report["leftovers"]?.arrayValue ?? []
        #expect(leftovers.count == backend.storedAnnouncementCount)
        #expect(!leftovers.isEmpty)
        #expect(result.out.contains("left on target"))
        #expect(
            witness.printedBeforeFirstRequest.contains("no admin token (--admin-token or PETSPOT_ADMIN_TOKEN) and --allow-leftovers: every announcement"),
            "\(witness.printedBeforeFirstRequest)")
        #expect(result.report["replay"]?.stringValue?.contains(" --allow-leftovers") == true, "a replay leaves what the run left")
    }

    /// Issue 28: a run without a token left 41 announcements on the target and said so only at
    /// the end. Now it says first what it skips and why, creates nothing, and does not pass.
    @Test("without an admin token the run says first what it skips and why, creates nothing, and fails its coverage")
    func withoutAdminToken() async throws {
        let backend = MockBackend(profile: .production, clock: serverClockAhead)
        let output = CapturedOutput()
        let witness = WitnessTransport(InProcessTransport(backend: backend), output: output)
        let result = try await runThrough(witness, ["--cases", "3", "--seed", "5"], output: output)
        let first = witness.printedBeforeFirstRequest
        #expect(first.hasPrefix("petspot-contracts run: no admin token (--admin-token or PETSPOT_ADMIN_TOKEN): nothing the run creates could be deleted"), "\(first)")
        for name in [SubmissionContracts().name, ListContracts().name, SequenceContracts().name] { #expect(first.contains(name), "\(name): \(first)") }
        #expect(first.contains("only \(HealthContracts().name), \(DerivedCreateContracts().name) run"), "\(first)")
        #expect(first.contains("for full coverage give the server's admin token") && first.contains("--allow-leftovers"))
        #expect(!witness.statuses.contains(201), "a request created an announcement")
        #expect(backend.storedAnnouncementCount == 0)
        #expect(result.report["leftovers"]?.arrayValue?.isEmpty == true)
        let groups = result.report["groups"]?.arrayValue ?? []
        let submission = try #require(groups.first { $0["name"] == .string(SubmissionContracts().name) })
        #expect(submission["contracts"]?.arrayValue?.allSatisfy { $0["skipReason"]?.stringValue == BackendTarget.createRefusalReason } == true)
        #expect(failedContracts(result.report) == [RunCommand.coverageContract], "\(failedContracts(result.report))")
        #expect(result.status == .contractFailed)
        let coverage = failures(of: RunCommand.coverageContract, in: result.report.serialized()).first?["message"]?.stringValue ?? ""
        #expect(coverage.contains("no admin token: the groups that create announcements were skipped"), "\(coverage)")
    }

    /// Every group drives the progress line (the registry's loop begins each, or each batch of
    /// groups side by side by its first), not only those that count cases. The clock moves 6 s on
    /// each reading, so each begin is due a line.
    @Test("the progress line names every group (or its batch) as it begins, N/M, on a pipe")
    func progressNamesEveryGroup() async throws {
        let backend = MockBackend(profile: .strict, clock: serverClockAhead)
        let clock = Locked(Duration.zero)
        let result = try await runThrough(
            InProcessTransport(backend: backend), ["--cases", "1", "--seed", "5", "--admin-token", MockBackend.defaultAdminToken],
            output: CapturedOutput(), progress: true, progressClock: { clock.withLock { $0 += .seconds(6); return $0 } })
        let groups = (result.report["groups"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }.filter { $0 != RunCommand.coverageGroup }
        #expect(groups.count >= 10)
        // A batch line covers its first group and the `K` after it.
        var covered = Set<Int>()
        for (index, name) in groups.enumerated() where result.err.contains("run: group \(index + 1)/\(groups.count): \(name)") {
            covered.insert(index)
            let batch = #/ and (\d+) more groups side by side/#
            if let line = result.err.split(separator: "\n").first(where: { $0.contains("group \(index + 1)/\(groups.count): \(name) and") }),
               let more = line.firstMatch(of: batch).flatMap({ Int($0.1) }) {
                covered.formUnion(index...(index + more))
            }
        }
        #expect(covered == Set(groups.indices), "groups not shown: \(groups.indices.filter { !covered.contains($0) }.map { groups[$0] }): \(result.err)")
        #expect(result.err.contains("more groups side by side"), "the groups between health and the sequences run side by side: \(result.err)")
    }

    @Test("a refused admin token is a setup error: exit 2 after two requests, nothing created, the token not shown")
    func refusedAdminToken() async throws {
        let backend = MockBackend(profile: .production, clock: serverClockAhead)
        let counting = CountingTransport(base: InProcessTransport(backend: backend))
        let token = "not-the-servers-token-5f2a"
        do {
            _ = try await runThrough(counting, ["--cases", "3", "--seed", "5", "--admin-token", token])
            Issue.record("a refused admin token ran the contracts")
        } catch let error as RunnerError {
            #expect(error.exitCode == .configuration)
            #expect(error.message.contains("the admin token (--admin-token) was refused") && error.message.contains("401 UNAUTHENTICATED"), "\(error.message)")
            #expect(!error.message.contains(token))
        }
        #expect(backend.storedAnnouncementCount == 0)
        #expect(counting.count == 2, "the profile probe and one delete of an unknown id, nothing more: \(counting.count)")
    }

    @Test("a base URL under which there is no create route is a setup error: exit 2 after one request", arguments: [[], ["--profile", "strict"]])
    func noCreateRoute(profileWords: [String]) async throws {
        // What a base URL with a wrong path prefix meets: the server's 404 envelope for every route.
        let backend = MockBackend(profile: .strict, clock: serverClockAhead)
        let everywhere404 = BrokenBackendTransport(base: InProcessTransport(backend: backend)) { _, response in
            var missing = response
            missing.status = 404
            missing.body = Data(#"{"error":{"requestId":"r","code":"NOT_FOUND","message":"Resource not found"}}"#.utf8)
            return missing
        }
        let counting = CountingTransport(base: everywhere404)
        do {
            _ = try await runThrough(counting, ["--cases", "3", "--seed", "5", "--admin-token", MockBackend.defaultAdminToken] + profileWords)
            Issue.record("a base URL with no create route under it ran the contracts")
        } catch let error as RunnerError {
            #expect(error.exitCode == .configuration)
            #expect(error.message.contains("the base URL does not lead to the announcements API"), "\(error.message)")
        }
        #expect(counting.count == 1, "the probe alone: \(counting.count)")
    }

    @Test("the budget counts every request sent, and no more go out than it allows", arguments: [1, 7, 30, 120, 400])
    func budgetCountsRequestsSent(limit: Int) async throws {
        let backend = MockBackend(profile: .production, clock: serverClockAhead)
        let counting = CountingTransport(base: InProcessTransport(backend: backend))
        // Without an admin token nothing is deleted at cleanup: every request the mock sees is budgeted.
        let result = try await runThrough(counting, ["--cases", "5", "--seed", "5", "--max-requests", String(limit), "--allow-leftovers"])
        let arrived = counting.count
        #expect(arrived <= limit, "\(arrived) requests reached the backend with --max-requests \(limit)")
        let note = result.report["notes"]?.arrayValue?.compactMap(\.stringValue).first { $0.contains("budgeted requests sent") } ?? ""
        #expect(note.contains("; \(arrived) budgeted requests sent"), "the report counts \(note), the backend saw \(arrived)")
        if limit < 400 {
            #expect(arrived == limit, "a small budget is spent to the last request: \(arrived) of \(limit)")
        }
    }

    @Test("the request budget bounds the run")
    func budget() async throws {
        let backend = MockBackend(profile: .production, clock: serverClockAhead)
        let result = try await runThrough(
            InProcessTransport(backend: backend),
            ["--cases", "5", "--seed", "5", "--max-requests", "30", "--admin-token", MockBackend.defaultAdminToken])
        #expect(result.report["notes"]?.arrayValue?.contains { $0.stringValue?.contains("request budget") == true } == true)
        #expect(backend.storedAnnouncementCount == 0)
    }

    @Test("a backend whose create answers a 5-digit password fails the create contract")
    func brokenPassword() async throws {
        let transport = BrokenBackendTransport(base: InProcessTransport(backend: MockBackend(profile: .production, clock: serverClockAhead))) { request, response in
            guard request.method == "POST", request.path == "/api/v1/announcements", response.status == 201,
                case .object(var body)? = try? JSONValue.parse(response.body)
            else { return response }
            body["managementPassword"] = "12345"
            var changed = response
            changed.body = JSONValue.object(body).serializedData()
            return changed
        }
        let result = try await runThrough(transport, ["--cases", "3", "--seed", "9", "--admin-token", MockBackend.defaultAdminToken])
        #expect(result.status == .contractFailed)
        #expect(failedContracts(result.report).contains(SubmissionContracts.create))
        #expect(!result.out.contains("\"12345\""), "the password is redacted")
    }

    @Test("a backend that answers 403 instead of 401 without credentials fails that photo case")
    func brokenAuthorizationRule() async throws {
        let transport = BrokenBackendTransport(base: InProcessTransport(backend: MockBackend(profile: .production, clock: serverClockAhead))) { request, response in
            guard request.path.hasSuffix("/photos"), response.status == 401 else { return response }
            var changed = response
            changed.status = 403
            changed.body = Data(#"{"error":{"requestId":"x","code":"UNAUTHORIZED","message":"no"}}"#.utf8)
            return changed
        }
        let result = try await runThrough(transport, ["--cases", "0", "--seed", "9", "--admin-token", MockBackend.defaultAdminToken])
        #expect(result.status == .contractFailed)
        let failed = failedContracts(result.report)
        #expect(failed.contains { $0.hasPrefix("auth-missing:") })
        #expect(failed.allSatisfy { $0.hasPrefix("auth-") || $0.hasPrefix("photo, ") }, "\(failed)")
    }

    @Test("a backend that accepts null for age fails the derived and catalog cases naming it")
    func brokenNullRule() async throws {
        let transport = BrokenBackendTransport(base: InProcessTransport(backend: MockBackend(profile: .production, clock: serverClockAhead))) { request, response in
            guard request.method == "POST", request.path == "/api/v1/announcements",
                let body = try? JSONValue.parse(request.body), body["age"] == .null, response.status == 400
            else { return response }
            return TransportResponse(status: 201, headers: response.headers, body: Data("{}".utf8))
        }
        let result = try await runThrough(transport, ["--cases", "0", "--seed", "9", "--admin-token", MockBackend.defaultAdminToken])
        #expect(result.status == .contractFailed)
        let failed = failedContracts(result.report)
        #expect(failed.contains(SchemaDerivedCases.Category.nullValue.contractName))
        #expect(result.out.contains("nullValue:age"))
    }

    @Test("check runs the in-process strict mock: catalog, derived and photo cases hold")
    func checkInProcess() async throws {
        let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: reportPath) }
        let result = await runTool(["check", "--cases", "60", "--seed", "21", "--no-progress", "--report-json", reportPath])
        let report = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: reportPath)))
        #expect(result.status == (failedContracts(report).isEmpty ? 0 : 1))
        let groups = report["groups"]?.arrayValue ?? []
        for name in [CreateCatalogContracts().name, DerivedCreateContracts().name, PhotoUploadCatalogContracts().name, FlowAnswerContracts().name] {
            let group = try #require(groups.first { $0["name"] == .string(name) }, "group \(name)")
            let failed = group["contracts"]?.arrayValue?.filter { $0["status"] == "failed" }.compactMap { $0["name"]?.stringValue } ?? []
            #expect(failed.isEmpty, "\(name): \(failed)")
        }
        let submission = try #require(groups.first { $0["name"] == .string(SubmissionContracts().name) })
        let upload = try #require(submission["contracts"]?.arrayValue?.first { $0["name"] == .string(SubmissionContracts.upload) })
        #expect((upload["casesRun"]?.numberValue?.intValue ?? 0) > 0)
        #expect(!result.out.contains("still holds"))
    }

    @Test("schema-derived cases cover every category and are rejected by the schema")
    func derivedCases() throws {
        let schemas = try ContractSchemas.shared()
        let cases = SchemaDerivedCases.make(schema: schemas.documents[.createRequest], base: schemas.documents.negativeCases.basePayload) { body in
            !schemas.violations(of: body, against: .createRequest).isEmpty
        }
        #expect(Set(cases.map(\.category)) == Set(SchemaDerivedCases.Category.allCases))
        #expect(cases.contains { $0.id == "dropRequired:species" && $0.expected.code == "MISSING_VALUE" })
        #expect(cases.contains { $0.id == "unknownKey:caregiverPhone" && $0.expected.code == "INVALID_FIELD" })
        #expect(cases.contains { $0.id == "bounds:locationLatitude:above" })
    }

    @Test("microchips are unique per run and never the seeded one")
    func microchips() {
        let sequence = MicrochipSequence()
        let numbers = (0..<1000).map { _ in sequence.next() }
        #expect(Set(numbers).count == 1000)
        #expect(numbers.allSatisfy { $0.count == 15 && $0 != "123456789012345" && $0.hasPrefix(sequence.prefix) })
        #expect(MicrochipSequence().prefix != sequence.prefix || MicrochipSequence().prefix != sequence.prefix)
    }
}

/// A transport that remembers the management password of every announcement created through it.
final class PasswordSpyTransport: AnnouncementTransport {
    let base: any AnnouncementTransport
    let passwords = Locked<[String: String]>([:])

    init(_ base: any AnnouncementTransport) { self.base = base }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let response = try await base.send(request)
        if response.status == 201, let body = try? JSONValue.parse(response.body), let id = body["id"]?.stringValue,
            let password = body["managementPassword"]?.stringValue
        {
            passwords.withLock { $0[id] = password }
        }
        return response
    }
}

/// Every failure of a report with its curl line and the status the report shows.
func reproductions(_ report: ContractReport) -> [(contract: String, curl: String, status: Int)] {
    report.groups.flatMap { group in
        group.contracts.flatMap { contract in
            contract.failures.compactMap { failure -> (String, String, Int)? in
                guard let curl = failure.reproduce, let status = failure.actual.flatMap({ Int($0.prefix(3)) }) else { return nil }
                return ("\(group.name): \(contract.name)", curl, status)
            }
        }
    }
}

@Suite("run against the loopback mock", .serialized)
struct RunReproductionTests {
    /// Runs the backend groups over loopback against a production mock with `defects`, then
    /// replays every failure's curl line with /bin/sh; returns the contracts replayed.
    func replayFailures(_ defects: Set<MockDefect>, adminToken: String?) async throws -> Set<String> {
        var options = MockServerOptions(port: 0, profile: .production)
        options.defects = defects
        let server = MockHTTPServer(options: options, clock: serverClockAhead)
        let port = try server.start()
        defer { server.stop() }
        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let spy = PasswordSpyTransport(URLSessionTransport(baseURL: base))
        let (report, _) = try await BackendContractRun.report(
            transport: spy, profile: .production, adminToken: adminToken, baseURL: base, createsWithoutAdminToken: adminToken == nil)
        let lines = reproductions(report)
        let text = report.consoleText + report.groups.flatMap { $0.contracts.flatMap { $0.failures.map { $0.message } } }.joined()
        #expect(!text.contains(MockBackend.defaultAdminToken))
        let passwords = spy.passwords.withLock { $0 }
        for password in passwords.values { #expect(!text.contains("\"\(password)\""), "a management password is printed") }
        var replayed = Set<String>()
        for (contract, curl, status) in lines {
            // The announcement a line names (if any) gives the password the replay needs.
            var environment = ["PETSPOT_ADMIN_TOKEN": MockBackend.defaultAdminToken]
            if let id = passwords.keys.first(where: { curl.contains($0) }) { environment["PETSPOT_MANAGEMENT_PASSWORD"] = passwords[id] }
            let output = String(decoding: try runShell(curl, environment: environment), as: UTF8.self)
            let answered = output.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
            #expect(answered == status, "\(contract): the report shows \(status), the curl line got \(output.prefix(200))\n\(curl)")
            replayed.insert(contract)
        }
        return replayed
    }

    @Test("every failing request's curl line, run by /bin/sh against the loopback mock, gets the same status; no secret printed")
    func curlReproducesTheStatus() async throws {
        let withToken = try await replayFailures(
            [.listLatitudeUnchecked, .deleteUnknown204, .routingGzipIgnored, .createMicrochipMax15], adminToken: MockBackend.defaultAdminToken)
        // Without a token nothing is deleted, so the photo group's announcement is still there for the replay.
        let withoutToken = try await replayFailures([.photoAPNGAccepted], adminToken: nil)
        let replayed = withToken.union(withoutToken)
        for needed in [
            "\(ListContracts().name): lat=91", "\(AdminDeleteContracts().name): \(AdminDeleteContracts.unknown)",
            "\(RoutingContracts().name): \(RoutingContracts.gzip)", "\(AcceptanceContracts().name): \(AcceptanceContracts.longMicrochip)",
            "\(PhotoContracts().name): \(PhotoContracts.animated)",
        ] {
            #expect(replayed.contains { $0.hasPrefix(needed) }, "no replayed line for \(needed): \(replayed.sorted())")
        }
    }

    @Test("run with the production profile against the default strict mock says which profile it expected and suggests the other")
    func profileHint() async throws {
        let server = MockHTTPServer(options: MockServerOptions(port: 0, profile: .strict), clock: serverClockAhead)
        let port = try server.start()
        defer { server.stop() }
        let result = await runTool([
            "run", "--base-url", "http://127.0.0.1:\(port)", "--profile", "production", "--cases", "0", "--admin-token",
            MockBackend.defaultAdminToken, "--no-progress",
        ])
        #expect(result.status == 1)
        #expect(result.out.contains("note: hint: the run expected the production profile"))
        #expect(result.out.contains("rerun with --profile strict"))
        #expect(!result.out.contains(MockBackend.defaultAdminToken))
        let lines = result.out.split(separator: "\n")
        #expect(lines.last?.hasPrefix("FAILED: ") == true, "the verdict closes the output, after the hint: \(lines.suffix(3))")
        let strict = await runTool([
            "run", "--base-url", "http://127.0.0.1:\(port)", "--profile", "strict", "--cases", "0", "--admin-token",
            MockBackend.defaultAdminToken, "--no-progress",
        ])
        #expect(strict.status == 0, "\(strict.out.suffix(2000))")
        #expect(!strict.out.contains("hint:"))
    }

    /// `mock` defaults to strict and a real backend is production: without `--profile`, `run`
    /// tells which from one request before the first contract, says so in its first line, and
    /// keeps it in the replay line.
    @Test("run without --profile detects the target's profile before the first contract", arguments: BackendProfile.allCases)
    func detectsProfile(profile: BackendProfile) async throws {
        let backend = MockBackend(profile: profile, clock: serverClockAhead)
        let counting = CountingTransport(base: InProcessTransport(backend: backend))
        let result = try await runThrough(counting, ["--cases", "2", "--seed", "5", "--admin-token", MockBackend.defaultAdminToken])
        #expect(result.status == .success, "\(result.out.suffix(3000))")
        let first = result.out.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.contains("profile \(profile.rawValue) (detected: POST /api/v1/announcements {} answered 400 MISSING_VALUE"), "\(first)")
        #expect(result.report["replay"]?.stringValue?.hasSuffix("--profile \(profile.rawValue)") == true)
        #expect(!result.out.contains("hint:"))
        #expect(backend.storedAnnouncementCount == 0, "the probe creates nothing")
    }

    @Test("an answer to the profile probe that neither profile words is read as production, and said so")
    func undetectedProfile() async throws {
        let strict = MockBackend(profile: .strict, clock: serverClockAhead)
        let rewording = BrokenBackendTransport(base: InProcessTransport(backend: strict)) { request, response in
            guard request.body == Data(RunCommand.profileProbeBody.utf8) else { return response }
            var changed = response
            changed.body = Data(#"{"error":{"code":"BAD","message":"nope"}}"#.utf8)
            return changed
        }
        let result = try await runThrough(rewording, ["--cases", "0", "--seed", "5"])
        let first = result.out.split(separator: "\n").first { $0.hasPrefix("petspot-contracts run: http") }.map(String.init) ?? ""
        #expect(first.contains("profile production (detected: POST /api/v1/announcements {} answered 400 BAD \"nope\", neither profile's wording"), "\(first)")
    }

    @Test("a backend without production's known defects passes them with a notice to update the catalog")
    func knownDefectsGone() async throws {
        // Production's answers everywhere, except the sane 400 for a photo under another part name.
        let production = MockBackend(profile: .production, clock: serverClockAhead)
        let transport = BrokenBackendTransport(base: InProcessTransport(backend: production)) { request, response in
            guard request.path.hasSuffix("/photos"), response.status == 500,
                String(decoding: request.body.prefix(200), as: UTF8.self).contains("name=\"file\"")
            else { return response }
            var sane = response
            sane.status = 400
            sane.body = Data(#"{"error":{"requestId":"r","code":"MISSING_FILE","message":"Photo field is required","field":"photo"}}"#.utf8)
            return sane
        }
        let (report, _) = try await BackendContractRun.report(transport: transport, profile: .production, adminToken: MockBackend.defaultAdminToken)
        #expect(!report.hasFailures)
        let notice = try #require(report.notes.first { $0.hasPrefix("known backend defect no longer present: file-under-other-name") })
        #expect(notice.contains("update the catalog"))
        let present = try #require(report.notes.first { $0.hasPrefix("known backend defect still present") })
        #expect(!present.contains("file-under-other-name"))
    }

    @Test("production's known defects pass with one line saying they are still present")
    func knownDefectsStillPresent() async throws {
        let (report, _) = try await PlantedDefectRuns.run([], profile: .production)
        let line = try #require(report.notes.first { $0.hasPrefix("known backend defect still present") })
        #expect(line.contains("file-under-other-name"))
        #expect(line.contains("body-not-json"))
        #expect(!report.notes.contains { $0.hasPrefix("known backend defect no longer present") })
    }
}
