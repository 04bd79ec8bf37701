import Foundation
import PetSpotContractGroups
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotPropertyEngine
import PetSpotReport
import PetSpotRunner
import PetSpotSubmissionFaults

/// The submission under faults alone, as a default `check` runs it (the in-process strict mock
/// behind the fault proxy): for tests and the planted-defect benchmark.
package enum SubmissionFaultRun {
    /// The report of the group "submission under faults" with `oracle` as the app (the reference
    /// model when `nil`), from `seed`, with `settings`.
    package static func report(
        oracle: (any FlowOracle)?, seed: UInt64, settings: SubmissionSettings = .defaults
    ) async throws -> ContractReport {
        let recorder = ContractRecorder()
        let app = oracle ?? ReferenceOracle()
        let flows = FlowTarget(
            oracle: app, makeGenerator: FlowContracts.defaultGenerator, shrinkSeconds: CheckSettings.defaults.shrinkSeconds, usesMock: true,
            submission: settings)
        let session = try SessionBuilder(recorder: recorder, seed: seed, replay: "petspot-contracts check --seed \(seed)", cases: 0)
            .checking(flows).session
        try await SubmissionFaultContracts().check(session)
        await session.backend?.cleanUp(recorder: recorder)
        return recorder.report(command: "check", arguments: [], target: app.name, seed: seed, startedAt: Date())
    }

    /// What catches a planted defect that makes the app give up on healthy answers: the judged
    /// contract (``SubmissionFaultContracts/judgedContract``).
    package static let judged = "judged"

    /// The contract of the group that fails when a planted defect is caught: `caughtBy` is a
    /// property's short id (``SubmissionProperty``) or ``judged``; `nil` for anything else.
    package static func contract(caughtBy: String) -> String? {
        caughtBy == judged ? SubmissionFaultContracts.judgedContract : SubmissionProperty(rawValue: caughtBy)?.contract
    }

    /// The contracts of the group that the report's app failed, by name.
    package static func failedContracts(_ report: ContractReport) -> Set<String> {
        let group = report.groups.first { $0.name == SubmissionFaultContracts().name }
        return Set(group?.contracts.filter { $0.status == .failed }.map(\.name) ?? [])
    }

    /// The properties (their short ids) the report's app failed.
    package static func failedProperties(_ report: ContractReport) -> Set<String> {
        let failed = failedContracts(report)
        return Set(SubmissionProperty.allCases.filter { failed.contains($0.contract) }.map(\.rawValue))
    }

    /// The faults in the shrunk scenario of each failure of the group, at most.
    package static func mostFaultsShown(_ report: ContractReport) -> Int {
        let group = report.groups.first { $0.name == SubmissionFaultContracts().name }
        let failures = group?.contracts.flatMap(\.failures) ?? []
        return failures.map { failure in failure.steps.filter { $0.outcome.hasPrefix("fault:") }.count }.max() ?? 0
    }
}
