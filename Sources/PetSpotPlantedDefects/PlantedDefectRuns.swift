import Foundation
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotReport
import PetSpotRunner
import PetSpotSequences

/// The runner's power against the mock's planted backend defects: `run`'s backend groups
/// against an in-process ``MockBackend`` with one ``MockDefect``, in each profile the defect
/// shows in, must fail a contract in a group of the defect's surface.
package enum PlantedDefectRuns {
    /// The groups that must catch a defect of `surface`: every backend group of the registry that
    /// names the surface among its ``BackendContractGroup/surfaces``.
    package static func catchingGroups(_ surface: MockDefect.Surface) -> Set<String> {
        Set(ContractRegistry.groups.compactMap { $0 as? any BackendContractGroup }.filter { $0.surfaces.contains(surface) }.map(\.name))
    }

    /// One run against one planted defect.
    package struct Outcome: Sendable {
        /// The defect.
        package let defect: MockDefect
        /// The profile the mock answered as and the run expected.
        package let profile: BackendProfile
        /// The groups with a failed contract.
        package let failedGroups: Set<String>
        /// `group: contract` of every failed contract.
        package let failedContracts: Set<String>
        /// Requests the run sent (cleanup excepted).
        package let requestsSent: Int
        /// The operations of each failing sequence the stateful group shows (shrunk when it was).
        package let sequenceOperations: [Int]

        /// Whether a group of the defect's surface failed.
        package var caught: Bool { !failedGroups.isDisjoint(with: PlantedDefectRuns.catchingGroups(defect.surface)) }

        /// Whether a failing sequence shrank to at most ``PlantedDefectRuns/maxShrunkOperations`` operations.
        package var hasShortSequence: Bool { sequenceOperations.contains { $0 <= PlantedDefectRuns.maxShrunkOperations } }
    }

    /// The most operations a shrunk failing sequence may have for a sequence or concurrency
    /// defect to count as caught (the tests and the benchmark).
    package static let maxShrunkOperations = 6

    /// Every (defect, profile) pair the mock can show, in declaration order.
    package static var pairs: [(MockDefect, BackendProfile)] {
        MockDefect.allCases.flatMap { defect in
            BackendProfile.allCases.filter { defect.profiles.contains($0) }.map { (defect, $0) }
        }
    }

    /// `run`'s backend groups against an in-process mock of `profile` with `defects` planted,
    /// its clock two days ahead (every date a user may pick today is in its past); in the
    /// production profile its store starts with production's sample rows, as production's does,
    /// so every run also shows that rows the run did not create raise no false alarm.
    /// - Parameter skippingGroups: groups not to run (the tests skip the stateful group for
    ///   defects it does not concern: it is the slowest).
    package static func run(
        _ defects: Set<MockDefect>, profile: BackendProfile, seed: UInt64 = 1, skippingGroups: Set<String> = []
    ) async throws -> (report: ContractReport, requestsSent: Int) {
        let backend = MockBackend(
            profile: profile, defects: defects, clock: { Date().addingTimeInterval(2 * 86_400) }, sampleRows: profile == .production)
        return try await BackendContractRun.report(
            transport: InProcessTransport(backend: backend), profile: profile, adminToken: backend.adminToken, seed: seed,
            skippingGroups: skippingGroups)
    }

    /// The outcome of one planted defect.
    package static func outcome(
        _ defect: MockDefect, profile: BackendProfile, seed: UInt64 = 1, skippingGroups: Set<String> = []
    ) async throws -> Outcome {
        let (report, sent) = try await run([defect], profile: profile, seed: seed, skippingGroups: skippingGroups)
        let failed = report.groups.flatMap { group in
            group.contracts.filter { $0.status == .failed }.map { "\(group.name): \($0.name)" }
        }
        let sequences = report.groups.filter { $0.name == SequenceContracts().name }.flatMap(\.contracts).flatMap(\.failures)
        return Outcome(
            defect: defect, profile: profile, failedGroups: BackendContractRun.failedGroups(report), failedContracts: Set(failed),
            requestsSent: sent, sequenceOperations: sequences.map { operationCount($0.shrunkInput ?? $0.originalInput) })
    }

    /// The operations of a sequence as the report shows it (`{"steps": [...], "clients": [[...]]}`).
    package static func operationCount(_ program: JSONValue?) -> Int {
        let steps = program?["steps"]?.arrayValue?.count ?? 0
        return steps + (program?["clients"]?.arrayValue ?? []).reduce(0) { $0 + ($1.arrayValue?.count ?? 0) }
    }
}
