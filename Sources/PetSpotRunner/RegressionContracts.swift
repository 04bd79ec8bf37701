import Foundation
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotFlowGenerators
import PetSpotHTTP
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
import PetSpotReport
import PetSpotRuntime

/// The kept regressions (`Contracts/catalog/regressions.json`), replayed through the flow code
/// under test on every `check`.
struct RegressionContracts: ContractGroup {
    var name: String { RegressionReplay.group }

    func applies(to session: ContractSession) -> Bool { session.flows != nil }

    func check(_ session: ContractSession) async throws(RunnerError) {
        guard let flows = session.flows else { return }
        let replay = RegressionReplay(
            catalog: session.schemas.documents.regressions, schemas: session.schemas, oracle: flows.oracle, usesMock: flows.usesMock)
        await runOnDedicatedThread { replay.run(recorder: session.recorder, replay: session.replay) }
    }
}
