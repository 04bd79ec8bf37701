import Foundation
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotPlantedDefects
import PetSpotReport
import PetSpotRunner
import Testing

/// What the groups of the registry saw: each one's start and end, in order.
private final class GroupLog: Sendable {
    private let events = Locked<[String]>([])
    private let started = Locked(Set<String>())

    func start(_ name: String) {
        events.withLock { $0.append("start \(name)") }
        started.withLock { _ = $0.insert(name) }
    }

    func end(_ name: String) { events.withLock { $0.append("end \(name)") } }

    func hasStarted(_ names: Set<String>) -> Bool { started.withLock { names.isSubset(of: $0) } }

    var all: [String] { events.withLock { $0 } }

    /// The position of `event` in the log (`Int.max` when absent).
    func position(_ event: String) -> Int { all.firstIndex(of: event) ?? .max }
}

/// A group that records its start and end; one that waits for `partners` waits until they have
/// all started too, or 2,000 looks (seconds, on any machine) have passed.
private struct LoggingGroup: ContractGroup {
    let name: String
    let runsAlone: Bool
    var partners: Set<String> = []
    let log: GroupLog

    func applies(to session: ContractSession) -> Bool { true }

    func check(_ session: ContractSession) async throws(RunnerError) {
        log.start(name)
        var looks = 0
        while !log.hasStarted(partners), looks < 2000 {
            try? await Task.sleep(for: .milliseconds(1))
            looks += 1
        }
        log.end(name)
    }
}

@Suite("groups side by side")
struct GroupsSideBySideTests {
    /// A `run` session against the in-process mock (its backend runs groups side by side).
    static func runSession(concurrency: Int = 4) throws -> ContractSession {
        let backend = MockBackend(profile: .strict, clock: serverClockAhead)
        let transport = BudgetedTransport(InProcessTransport(backend: backend), limit: 100)
        return try SessionBuilder(recorder: ContractRecorder(), seed: 1, replay: "petspot-contracts run --seed 1", cases: 0)
            .running(
                against: transport, name: "in-process", profile: .strict, adminToken: backend.adminToken, concurrency: concurrency,
                baseURL: nil).session
    }

    @Test("the groups between two that run alone run at once; those that run alone have the run to themselves")
    func batchesBetweenGroupsAlone() async throws {
        let log = GroupLog()
        let registry: [any ContractGroup] = [
            LoggingGroup(name: "first", runsAlone: true, log: log),
            LoggingGroup(name: "b", runsAlone: false, partners: ["b", "c"], log: log),
            LoggingGroup(name: "c", runsAlone: false, partners: ["b", "c"], log: log),
            LoggingGroup(name: "last", runsAlone: true, log: log),
        ]
        try await ContractRegistry.checkAll(try Self.runSession(), from: registry)
        #expect(log.position("end first") < log.position("start b"), "\(log.all)")
        #expect(log.position("end first") < log.position("start c"), "\(log.all)")
        #expect(max(log.position("start b"), log.position("start c")) < min(log.position("end b"), log.position("end c")), "b and c ran one after the other: \(log.all)")
        #expect(max(log.position("end b"), log.position("end c")) < log.position("start last"), "\(log.all)")
    }

    @Test("the registry runs health first and routing last, each alone, and the sequences alone")
    func registryOrder() {
        let alone = ContractRegistry.groups.filter(\.runsAlone).map(\.name)
        #expect(alone == ["health", "sequences and concurrency", "routing and shared HTTP behaviour"])
        let backendGroups = ContractRegistry.groups.compactMap { $0 as? any BackendContractGroup }
        #expect(backendGroups.first?.name == "health")
        #expect(backendGroups.last?.name == "routing and shared HTTP behaviour")
    }

    @Test("groups side by side share --concurrency: never more requests in flight than it allows, and no contract fails")
    func sharedConcurrency() async throws {
        let backend = MockBackend(profile: .strict, clock: serverClockAhead)
        let counter = InFlightCounter(base: InProcessTransport(backend: backend))
        let (report, _) = try await BackendContractRun.report(
            transport: counter, profile: .strict, adminToken: backend.adminToken, cases: 2,
            skippingGroups: ["sequences and concurrency", "list depth"])
        #expect(counter.most == RunSettings.run.concurrency, "at most \(counter.most) requests in flight at once of \(counter.sent)")
        let failed = report.groups.flatMap { group in group.contracts.filter { $0.status == .failed }.map { "\(group.name): \($0.name)" } }
        #expect(failed.isEmpty, "\(failed)")
    }
}
