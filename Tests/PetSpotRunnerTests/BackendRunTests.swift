import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
import Testing
@testable import PetSpotRunner

/// A transport that passes every request to the in-process mock and then rewrites the answers
/// `rewrite` chooses: a deliberately broken backend rule.
struct BrokenBackendTransport: AnnouncementTransport {
    let base: InProcessTransport
    let rewrite: @Sendable (TransportRequest, TransportResponse) -> TransportResponse

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        rewrite(request, try await base.send(request))
    }
}

/// Runs `run` through `transport` with the command line `arguments`; returns the exit code and JSON report.
func runThrough(_ transport: any AnnouncementTransport, _ arguments: [String]) async throws -> (status: RunnerExitCode, report: JSONValue, out: String) {
    let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: reportPath) }
    let words = ["--base-url", "http://127.0.0.1:9", "--no-progress", "--report-json", reportPath] + arguments
    let command = try RunCommand(try ParsedArguments(words, for: RunCommand.spec), arguments: words, environment: [:])
    let output = RunnerOutput.capturing()
    let status = try await command.execute(transport: transport, output: output)
    return (status, try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: reportPath))), output.standardOutput)
}

/// A server clock two days ahead: every date a user anywhere may pick today is in its past, so
/// these tests do not depend on the time of day.
let serverClockAhead: @Sendable () -> Date = { Date().addingTimeInterval(2 * 86_400) }

@Suite("backend contracts", .serialized)
struct BackendRunTests {
    @Test("run passes against the HTTP mock on loopback, both profiles, and cleans up", arguments: BackendProfile.allCases)
    func runOverHTTP(profile: BackendProfile) async throws {
        let server = MockHTTPServer(options: MockServerOptions(port: 0, profile: profile), clock: serverClockAhead)
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
        #expect(server.backend.storedAnnouncementCount == 0, "everything created was deleted")
        #expect(!result.out.contains(MockBackend.defaultAdminToken))
        let submission = try #require(report["groups"]?.arrayValue?.first { $0["name"] == .string(SubmissionContracts().name) })
        let create = try #require(submission["contracts"]?.arrayValue?.first { $0["name"] == .string(SubmissionContracts.create) })
        #expect((create["casesRun"]?.numberValue?.intValue ?? 0) > 0)
        #expect(FileManager.default.fileExists(atPath: junitPath))
    }

    @Test("without an admin token, created announcements are listed as leftovers")
    func leftovers() async throws {
        let backend = MockBackend(profile: .production, clock: serverClockAhead)
        let result = try await runThrough(InProcessTransport(backend: backend), ["--cases", "3", "--seed", "5"])
        let leftovers = result.report["leftovers"]?.arrayValue ?? []
        #expect(leftovers.count == backend.storedAnnouncementCount)
        #expect(!leftovers.isEmpty)
        #expect(result.out.contains("left on target"))
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
        #expect(failed.allSatisfy { $0.hasPrefix("auth-") })
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
