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
        PhotoContracts(),
        AdminDeleteContracts(),
        MessagesContracts(),
        SequenceContracts(),
        // Last: it also reports what every answer of the run shared (CORS, Content-Type).
        RoutingContracts(),
    ]

    /// Checks every group that applies to `session`, in order (but those named in `skipping`:
    /// tests leave out groups a planted defect does not concern), then deletes what the backend
    /// groups created (or lists it as leftovers).
    package static func checkAll(_ session: ContractSession, skipping: Set<String> = []) async throws(RunnerError) {
        for group in groups where group.applies(to: session) && !skipping.contains(group.name) {
            try await group.check(session)
        }
        await session.backend?.cleanUp(recorder: session.recorder)
    }
}
