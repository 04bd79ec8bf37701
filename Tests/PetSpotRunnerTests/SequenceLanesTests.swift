import Foundation
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
import PetSpotPlantedDefects
import PetSpotReport
import PetSpotRunner
import PetSpotSequences
import Testing

/// A transport that holds every request a moment (as a network would) and counts the requests
/// in flight: the most at once, and the most at once of the sequence group's clients.
final class InFlightCounter: AnnouncementTransport {
    let base: any AnnouncementTransport
    private let counts = Locked((inFlight: 0, most: 0, sent: 0))

    init(base: any AnnouncementTransport) {
        self.base = base
    }

    /// The most requests that were in flight at once, and the requests sent.
    var most: Int { counts.withLock { $0.most } }
    var sent: Int { counts.withLock { $0.sent } }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        counts.withLock { counts in
            counts.inFlight += 1
            counts.sent += 1
            counts.most = max(counts.most, counts.inFlight)
        }
        defer { counts.withLock { $0.inFlight -= 1 } }
        try? await Task.sleep(for: .milliseconds(2))
        return try await base.send(request)
    }
}

@Suite("sequences and concurrency: programs side by side")
struct SequenceLanesTests {
    @Test("with --concurrency 4 programs run side by side: more requests at once than one program sends, never more than 4")
    func programsSideBySide() async throws {
        let backend = MockBackend(profile: .strict, clock: serverClockAhead)
        let counter = InFlightCounter(base: InProcessTransport(backend: backend))
        let sequences = SequenceContracts().name
        let others = Set(ContractRegistry.groups.map(\.name)).subtracting([sequences])
        let (report, _) = try await BackendContractRun.report(
            transport: counter, profile: .strict, adminToken: backend.adminToken, skippingGroups: others)
        let group = try #require(report.groups.first { $0.name == sequences })
        // One program sends at most 3 requests at once (3 clients): 4 needs two programs at once.
        #expect(counter.most == 4, "at most \(counter.most) requests in flight at once of \(counter.sent)")
        #expect(!group.contracts.contains { $0.status == .failed }, "the unbroken mock fails no contract side by side")
        #expect(group.summary?.contains("sequences at once") == true, "\(group.summary ?? "no summary")")
    }
}
