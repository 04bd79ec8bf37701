import Foundation
import PetSpotBackendGroups
@testable import PetSpotCLI
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
import PetSpotReport
import PetSpotRunner
import Testing

/// The list-depth group alone against `transport`: the report, the requests it sent, and the
/// budgeted transport (tests stop it from inside `transport`).
private func runListDepth(
    _ transport: any AnnouncementTransport, depth: ListDepth, adminToken: String? = MockBackend.defaultAdminToken,
    profile: BackendProfile = .strict, maxRequests: Int = 2000, seed: UInt64 = 1, budget: Locked<BudgetedTransport?> = Locked(nil)
) async throws -> (report: ContractReport, sent: Int) {
    let recorder = ContractRecorder()
    let budgeted = BudgetedTransport(transport, limit: maxRequests)
    budget.withLock { $0 = budgeted }
    let (session, _) = try SessionBuilder(recorder: recorder, seed: seed, replay: "petspot-contracts run --seed \(seed)", cases: 0)
        .running(against: budgeted, name: "in-process backend", profile: profile, adminToken: adminToken, concurrency: 4, baseURL: nil, listDepth: depth)
    let others = Set(ContractRegistry.groups.map(\.name)).subtracting([ListDepthContracts().name])
    try await ContractRegistry.checkAll(session, skipping: others)
    return (recorder.report(command: "run", arguments: [], target: "in-process backend", seed: seed, startedAt: Date()), budgeted.requestsSent)
}

/// The list-depth contract's result in `report`.
private func everyMatch(_ report: ContractReport) -> ContractOutcome? {
    report.groups.first { $0.name == ListDepthContracts().name }?.contracts.first { $0.name == ListDepthContracts.everyMatch }
}

/// Counts the creates and photo uploads reaching the transport it wraps.
private final class WriteCounter: AnnouncementTransport {
    let base: any AnnouncementTransport
    let onCreate: @Sendable (Int) -> Void
    private let counts = Locked((creates: 0, uploads: 0))

    init(base: any AnnouncementTransport, onCreate: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.base = base
        self.onCreate = onCreate
    }

    var creates: Int { counts.withLock { $0.creates } }
    var uploads: Int { counts.withLock { $0.uploads } }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        if request.method == "POST" && request.path == "/api/v1/announcements" {
            let created = counts.withLock { counts -> Int in
                counts.creates += 1
                return counts.creates
            }
            onCreate(created)
        } else if request.method == "POST" && request.path.hasSuffix("/photos") {
            counts.withLock { $0.uploads += 1 }
        }
        return try await base.send(request)
    }
}

@Suite("list depth", .serialized)
struct ListDepthContractsTests {
    @Test("the depth drawn from the seed is past 100, varies with the seed, and is the same for a seed")
    func drawnDepth() {
        let drawn = (1...200).map { ListDepth.drawn.count(seed: UInt64($0)) }
        #expect(drawn.allSatisfy { (101...140).contains($0) }, "\(drawn)")
        #expect(Set(drawn).count >= 30, "\(Set(drawn).sorted())")
        #expect(ListDepth.drawn.count(seed: 7) == ListDepth.drawn.count(seed: 7))
        #expect(ListDepth.given(3).count(seed: 7) == 3)
    }

    @Test("on a staging backend with others' rows at the run's point: passes, sends 3N + 2 requests, deletes what it made and nothing else")
    func stagingBackend() async throws {
        let backend = MockBackend(profile: .production, clock: serverClockAhead, sampleRows: true)
        let direct = InProcessTransport(backend: backend)
        // Someone else's 30 announcements with a photo at the run's point, created outside the run.
        let point = ListDepthContracts.point(seed: 1)
        let base = try ContractSchemas.shared().documents.negativeCases
        var others: [String] = []
        for index in 0..<30 {
            var body = base.basePayload(microchipNumber: String(555_000_000_000_000 + index))
            body["locationLatitude"] = .number(JSONNumber(point.lat + 0.001))
            body["locationLongitude"] = .number(JSONNumber(point.lng))
            let created = try await direct.send(BackendTarget.createRequest(.object(body)))
            let answer = try #require(try JSONValue.parse(created.body).objectValue)
            let id = try #require(answer["id"]?.stringValue), password = try #require(answer["managementPassword"]?.stringValue)
            let upload = try await direct.send(photoUploadRequest(
                AnnouncementPath(uuid: try #require(UUID(uuidString: id))), password: password, fileName: "pet.png", contentType: "image/png",
                bytes: SampleImage.png(tag: "someone else \(index)")))
            #expect(upload.status == 201)
            others.append(id)
        }
        let counter = WriteCounter(base: direct)
        let (report, sent) = try await runListDepth(counter, depth: .drawn, profile: .production)
        let count = ListDepth.drawn.count(seed: 1)
        let result = try #require(everyMatch(report))
        #expect(result.status == .passed, "\(result.failures.map(\.message))")
        #expect(result.casesRun == 2, "around the point and unfiltered")
        #expect(counter.creates == count && counter.uploads == count)
        #expect(sent == ListDepthContracts.cost(count), "a create, an upload and a delete each, and 2 lists")
        #expect(Set(backend.storedAnnouncementIdentifiers) == Set(SampleRows.ids + others), "only the run's own were deleted")
        #expect(report.leftovers.isEmpty)
    }

    @Test("a list cut anywhere past 100 rows fails, naming how many of the run's it answered; one not reached passes")
    func cutAnywhere() async throws {
        // A cap at a number no planted defect uses, applied by the transport (newest rows dropped).
        let cap = 117
        func capped(_ backend: MockBackend) -> BrokenBackendTransport {
            BrokenBackendTransport(base: InProcessTransport(backend: backend)) { request, response in
                guard request.method == "GET", request.path == "/api/v1/announcements" || request.path.hasPrefix("/api/v1/announcements?"),
                    var body = (try? JSONValue.parse(response.body))?.objectValue, let rows = body["data"]?.arrayValue
                else { return response }
                body["data"] = .array(Array(rows.prefix(cap)))
                var copy = response
                copy.body = JSONValue.object(body).serializedData()
                return copy
            }
        }
        let past = MockBackend(clock: serverClockAhead)
        let failing = try #require(everyMatch(try await runListDepth(capped(past), depth: .given(cap + 1)).report))
        #expect(failing.status == .failed)
        let message = failing.failures.first?.message ?? ""
        #expect(message.contains("answers \(cap) of the run's \(cap + 1) announcements with a photo, \(cap) rows in all: it leaves out 1"), "\(message)")
        #expect(past.storedAnnouncementCount == 0, "deleted after failing")
        let within = MockBackend(clock: serverClockAhead)
        let passing = try #require(everyMatch(try await runListDepth(capped(within), depth: .given(cap)).report))
        #expect(passing.status == .passed, "\(passing.failures.map(\.message))")
    }

    @Test("without an admin token, with --list-depth 0 or a budget that cannot pay, it is skipped with the reason and creates nothing")
    func skipped() async throws {
        let cases: [(depth: ListDepth, token: String?, maxRequests: Int, reason: String)] = [
            (.drawn, nil, 2000, "no --admin-token given"),
            (.given(0), MockBackend.defaultAdminToken, 2000, "--list-depth 0"),
            (.given(40), MockBackend.defaultAdminToken, 121, "(--max-requests 121) leaves 121 requests and 40 announcements need 122"),
        ]
        for item in cases {
            let backend = MockBackend(clock: serverClockAhead)
            let (report, sent) = try await runListDepth(InProcessTransport(backend: backend), depth: item.depth, adminToken: item.token, maxRequests: item.maxRequests)
            let result = try #require(everyMatch(report))
            #expect(result.status == .skipped)
            #expect(result.skipReason?.contains(item.reason) == true, "\(String(describing: result.skipReason))")
            #expect(sent == 0 && backend.storedAnnouncementCount == 0)
        }
    }

    @Test("stopped half-way, every create it sent has its upload, and cleanup deletes them all")
    func stoppedHalfWay() async throws {
        let backend = MockBackend(clock: serverClockAhead)
        let budget = Locked<BudgetedTransport?>(nil)
        // The run stops granting requests (as at its --deadline or a SIGINT) when the 25th create arrives.
        let counter = WriteCounter(base: InProcessTransport(backend: backend)) { created in
            if created == 25 { budget.withLock { $0?.stopGranting(because: "stopped by the test") } }
        }
        let (report, _) = try await runListDepth(counter, depth: .given(120), budget: budget)
        let result = try #require(everyMatch(report))
        #expect(result.status == .skipped, "\(result.status)")
        #expect(counter.creates >= 25 && counter.creates < 120)
        #expect(counter.uploads == counter.creates, "\(counter.creates) creates, \(counter.uploads) uploads: a pair was cut in half")
        #expect(backend.storedAnnouncementCount == 0, "cleanup deleted what was made")
        #expect(report.leftovers.isEmpty)
    }

    @Test("run --list-depth N makes N announcements at the run's point and replays the flag; without it the seed draws the count")
    func option() async throws {
        let given = ["--base-url", "http://127.0.0.1:9", "--seed", "4", "--list-depth", "3"]
        let command = try RunCommand(try ParsedArguments(given, for: RunCommand.spec), arguments: given, environment: [:])
        #expect(command.listDepth == .given(3))
        #expect(command.target.replayCommand.contains("--list-depth 3"), "\(command.target.replayCommand)")
        let drawn = Array(given.dropLast(2))
        let byDefault = try RunCommand(try ParsedArguments(drawn, for: RunCommand.spec), arguments: drawn, environment: [:])
        #expect(byDefault.listDepth == .drawn)
        #expect(!byDefault.target.replayCommand.contains("--list-depth"))

        let backend = MockBackend(clock: serverClockAhead)
        let point = ListDepthContracts.point(seed: 4)
        let atPoint = Locked(0)
        let transport = BrokenBackendTransport(base: InProcessTransport(backend: backend)) { request, response in
            if request.method == "POST", request.path == "/api/v1/announcements", response.status == 201,
                let latitude = (try? JSONValue.parse(request.body))?["locationLatitude"]?.numberValue?.doubleValue, abs(latitude - point.lat) < 0.01
            {
                atPoint.withLock { $0 += 1 }
            }
            return response
        }
        let result = try await runThrough(transport, ["--seed", "4", "--cases", "2", "--list-depth", "3", "--admin-token", MockBackend.defaultAdminToken])
        #expect(atPoint.withLock { $0 } == 3)
        #expect(result.status == .success, "\(result.out)")
        #expect(backend.storedAnnouncementCount == 0)
    }
}
