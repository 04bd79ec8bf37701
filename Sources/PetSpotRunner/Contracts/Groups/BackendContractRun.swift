import Foundation
import PetSpotContractKit
import PetSpotFlowChecks
import PetSpotModel
import PetSpotReport

/// Runs the backend groups as `run` does, through any transport, and returns the report: for
/// tests and the planted-defect benchmark, which point it at an in-process mock.
package enum BackendContractRun {
    /// The report of every backend group against `transport`, expecting `profile`.
    /// - Parameters:
    ///   - cases: generated reports the submission group sends (0: none).
    ///   - baseURL: the URL the curl lines of failures name (none when `nil`).
    ///   - skippingGroups: the names of groups not to run.
    package static func report(
        transport: any AnnouncementTransport, profile: BackendProfile, adminToken: String?, cases: Int = 0, seed: UInt64 = 1,
        maxRequests: Int = 2000, baseURL: URL? = nil, skippingGroups: Set<String> = []
    ) async throws -> (report: ContractReport, requestsSent: Int) {
        let recorder = ContractRecorder()
        let budgeted = BudgetedTransport(transport, limit: maxRequests)
        let backend = BackendTarget(
            name: baseURL?.absoluteString ?? "in-process backend", transport: budgeted, profile: profile, adminToken: adminToken,
            microchips: MicrochipSequence(), concurrency: 4,
            submissions: { SubmittedReports.generated(count: cases, seed: seed, now: Date()) }, baseURL: baseURL)
        let session = ContractSession(
            recorder: recorder, schemas: try ContractSchemas.shared(), seed: seed, replay: "petspot-contracts run --seed \(seed)",
            cases: cases, progress: nil, flows: nil, backend: backend)
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

extension BackendTarget {
    /// Adds to the report what the run learnt beyond pass and fail: the known production
    /// defects still present (one line), those gone (one notice each: update the catalog), and
    /// the hint that `--profile` looks wrong. Returns the hint.
    @discardableResult
    package func noteFindings(recorder: ContractRecorder) -> String? {
        let sightings = knownDefectSightings
        let hint = profileEvidence.hint(profile: profile)
        var present: [(defect: String, cases: [String])] = []
        for sighting in sightings.sorted(by: { $0.caseId < $1.caseId }) where sighting.stillPresent {
            if let index = present.firstIndex(where: { $0.defect == sighting.defect }) {
                if !present[index].cases.contains(sighting.caseId) { present[index].cases.append(sighting.caseId) }
            } else {
                present.append((sighting.defect, [sighting.caseId]))
            }
        }
        if !present.isEmpty {
            recorder.note("known backend defect still present (the contracts expect production's answer): "
                + present.map { "\($0.cases.joined(separator: ", ")): \($0.defect)" }.joined(separator: "; "))
        }
        // With the wrong profile, the sane answers say nothing about production's defects.
        if hint == nil {
            var noted: Set<String> = []
            for gone in sightings.sorted(by: { $0.caseId < $1.caseId }) where !gone.stillPresent && noted.insert(gone.caseId).inserted {
                let remedy = gone.isCatalogCase
                    ? "update the catalog (drop its knownProductionDefect and expect \(gone.saneAnswer))"
                    : "production's defect seems fixed: update backend-contract.md and the runner's known defects (\(gone.defect))"
                recorder.note("known backend defect no longer present: \(gone.caseId) now answers the sane \(gone.saneAnswer); \(remedy)")
            }
        }
        if let hint { recorder.note(hint) }
        return hint
    }
}
