import Foundation
import PetSpotBackendGroups
import PetSpotContractGroups
import PetSpotFlowGenerators
import PetSpotPropertyEngine
import PetSpotReport
import PetSpotRuntime
import PetSpotSequences
import PetSpotSubmissionFaults

/// The groups of contracts, in the order every command checks them.
package enum ContractRegistry {
    /// Every group: flow answers and kept regressions (`check`), then the backend's surfaces
    /// (`check` against the in-process mock, `run` against a real backend).
    package static let groups: [any ContractGroup] = [
        FlowAnswerContracts(),
        RegressionContracts(),
        HealthContracts(),
        SubmissionContracts(),
        SubmissionFaultContracts(),
        CreateCatalogContracts(),
        DerivedCreateContracts(),
        PhotoUploadCatalogContracts(),
        AcceptanceContracts(),
        EchoContracts(),
        DetailsContracts(),
        ListContracts(),
        ListDepthContracts(),
        PhotoContracts(),
        AdminDeleteContracts(),
        MessagesContracts(),
        SequenceContracts(),
        // Last: it also reports what every answer of the run shared (CORS, Content-Type).
        RoutingContracts(),
    ]

    /// The groups that applied and ``checkAll(_:skipping:stoppingOn:holdingBack:)`` did not start.
    package struct GroupsNotRun: Sendable {
        /// Those left when the run was interrupted.
        package var interrupted: [String] = []
        /// Those the caller held back.
        package var heldBack: [String] = []
    }

    /// Checks every group of `registry` that applies to `session` (but those named in `skipping`:
    /// tests leave out groups a planted defect does not concern), then deletes what the backend groups
    /// created (or lists it as leftovers). Groups start in registry order; against a backend that
    /// runs groups side by side (``BackendTarget/sideBySide``, `run` and `can-i-deploy`, with
    /// `--concurrency` above 1) the groups between two that run alone (``ContractGroup/runsAlone``)
    /// run at once, sharing the target's cap on requests in flight, so a run against a distant
    /// backend waits on its latency once for all of them; the report keeps registry order (each
    /// group's contracts are declared before any group of the batch starts). The session's progress line shows each
    /// group as it begins (`group 5/14: details`; a batch by its first group), whether or not the
    /// group counts cases.
    ///
    /// Once `interruption` has a signal no further group starts, and the report notes it with the
    /// groups not run (`run` passes none: its transport stops granting requests instead, and each
    /// group skips what it could not send). A group for which `holdsBack` is `true` when its turn
    /// comes does not start either (`check`: an adapter that answered no question submits nothing,
    /// so the groups after the flow answers would pass on their own).
    /// - Returns: the groups not started, and why.
    @discardableResult
    package static func checkAll(
        _ session: ContractSession, skipping: Set<String> = [], stoppingOn interruption: RunInterruption? = nil,
        holdingBack holdsBack: (any ContractGroup) -> Bool = { _ in false }, from registry: [any ContractGroup] = groups
    ) async throws(RunnerError) -> GroupsNotRun {
        let applying = registry.filter { $0.applies(to: session) && !skipping.contains($0.name) }
        // One request in flight at a time gains nothing from groups at once.
        let sideBySide = (session.backend?.sideBySide ?? false) && (session.backend?.concurrency ?? 1) > 1
        var notRun = GroupsNotRun()
        var next = 0
        while next < applying.count {
            var end = next + 1
            if sideBySide && !applying[next].runsAlone {
                while end < applying.count && !applying[end].runsAlone { end += 1 }
            }
            let batch = Array(next..<end)
            next = end
            let shown = batch.count == 1 ? applying[batch[0]].name : "\(applying[batch[0]].name) and \(batch.count - 1) more groups side by side"
            session.progress?.beginGroup(shown, number: batch[0] + 1, of: applying.count)
            var starting: [any ContractGroup] = []
            for index in batch {
                let group = applying[index]
                if interruption?.signal != nil {
                    notRun.interrupted.append(group.name)
                } else if holdsBack(group) {
                    notRun.heldBack.append(group.name)
                } else {
                    starting.append(group)
                }
            }
            try await checkSideBySide(starting, session)
        }
        if let signal = interruption?.signal {
            let unrun = notRun.interrupted.joined(separator: ", ")
            session.recorder.note("interrupted by \(SignalTrap.name(signal))" + (unrun.isEmpty ? "" : "; not run: \(unrun)"))
            InterruptedRun.record(
                signal, unchecked: unrun.isEmpty ? "the groups under way started no case after it" : "not run: \(unrun)",
                in: session.recorder, seed: session.seed, replay: session.replay)
        }
        await session.backend?.cleanUp(recorder: session.recorder)
        return notRun
    }

    /// Checks `batch` at once (one group: just that one), its contracts declared first in
    /// registry order; the first error a group throws is thrown once all have ended.
    private static func checkSideBySide(_ batch: [any ContractGroup], _ session: ContractSession) async throws(RunnerError) {
        guard batch.count > 1 else {
            if let group = batch.first { try await group.check(session) }
            return
        }
        for case let group as any BackendContractGroup in batch {
            for contract in group.contracts(in: session) { session.recorder.declare(group: group.name, contract: contract) }
        }
        let errors = await withTaskGroup(of: RunnerError?.self) { tasks in
            for group in batch {
                tasks.addTask {
                    do throws(RunnerError) {
                        try await group.check(session)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            var errors: [RunnerError] = []
            for await error in tasks { if let error { errors.append(error) } }
            return errors
        }
        if let error = errors.first { throw error }
    }
}
