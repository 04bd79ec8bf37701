import Foundation
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotFlowChecks
import PetSpotModel
import PetSpotReport
import PetSpotRunner

/// Runs the backend groups as `run` does, through any transport, and returns the report: for
/// tests and the planted-defect benchmark, which point it at an in-process mock.
package enum BackendContractRun {
    /// The report of every backend group against `transport`, expecting `profile`.
    /// - Parameters:
    ///   - cases: generated reports the submission group sends (0: none).
    ///   - baseURL: the URL the curl lines of failures name (none when `nil`).
    ///   - skippingGroups: the names of groups not to run.
    ///   - createsWithoutAdminToken: without `adminToken`, whether the groups that create run
    ///     anyway (`run --allow-leftovers`) rather than being skipped.
    package static func report(
        transport: any AnnouncementTransport, profile: BackendProfile, adminToken: String?, cases: Int = 0, seed: UInt64 = 1,
        maxRequests: Int = RunSettings.run.maxRequests, baseURL: URL? = nil, skippingGroups: Set<String> = [], createsWithoutAdminToken: Bool = false
    ) async throws -> (report: ContractReport, requestsSent: Int) {
        let recorder = ContractRecorder()
        let budgeted = BudgetedTransport(transport, limit: maxRequests)
        let (session, backend) = try SessionBuilder(recorder: recorder, seed: seed, replay: "petspot-contracts run --seed \(seed)", cases: cases)
            .running(
                against: budgeted, name: baseURL?.absoluteString ?? "in-process backend", profile: profile, adminToken: adminToken,
                concurrency: RunSettings.run.concurrency, baseURL: baseURL, createsWithoutAdminToken: createsWithoutAdminToken)
        try await ContractRegistry.checkAll(session, skipping: skippingGroups)
        backend.noteFindings(recorder: recorder)
        let report = recorder.report(command: "run", arguments: [], target: backend.name, seed: seed, startedAt: Date())
        return (report, budgeted.requestsSent)
    }

    /// The names of the groups with a failed contract.
    package static func failedGroups(_ report: ContractReport) -> Set<String> {
        Set(report.groups.filter { $0.contracts.contains { $0.status == .failed } }.map(\.name))
    }
}
