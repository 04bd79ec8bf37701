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

    /// Checks every group that applies to `session`, in order (but those named in `skipping`:
    /// tests leave out groups a planted defect does not concern), then deletes what the backend
    /// groups created (or lists it as leftovers). The session's progress line shows each group as
    /// it begins (`group 5/14: details`), whether or not the group counts cases.
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
        holdingBack holdsBack: (any ContractGroup) -> Bool = { _ in false }
    ) async throws(RunnerError) -> GroupsNotRun {
        var notRun = GroupsNotRun()
        let applying = groups.filter { $0.applies(to: session) && !skipping.contains($0.name) }
        for (index, group) in applying.enumerated() {
            session.progress?.beginGroup(group.name, number: index + 1, of: applying.count)
            if interruption?.signal != nil {
                notRun.interrupted.append(group.name)
                continue
            }
            if holdsBack(group) {
                notRun.heldBack.append(group.name)
                continue
            }
            try await group.check(session)
        }
        if let signal = interruption?.signal {
            session.recorder.note(
                "interrupted by \(SignalTrap.name(signal))"
                    + (notRun.interrupted.isEmpty ? "" : "; not run: \(notRun.interrupted.joined(separator: ", "))"))
        }
        await session.backend?.cleanUp(recorder: session.recorder)
        return notRun
    }
}
