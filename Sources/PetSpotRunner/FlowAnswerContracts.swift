import Foundation
import PetSpotAdapterDriving
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotFlowChecks
import PetSpotPropertyEngine
import PetSpotJSON
import PetSpotModel
import PetSpotFlowGenerators
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotReport
import PetSpotRuntime

/// The flow answers of sut-protocol.md: every generated case asked of the flow code under test
/// (the reference model, or an app's adapter with `check --sut`), every answer checked against
/// the schemas, the status by flow, nothing extra and (for an adapter) the reference model.
package struct FlowAnswerContracts: ContractGroup {
    package let name = "flow answers"

    package init() {}

    package func applies(to session: ContractSession) -> Bool { session.flows != nil }

    package func check(_ session: ContractSession) async throws(RunnerError) {
        guard let flows = session.flows else { return }
        let contracts = FlowContracts(
            oracle: flows.oracle, validators: session.schemas.payloadValidators, makeGenerator: flows.makeGenerator,
            cases: session.cases, seed: session.seed, shrinkSeconds: flows.shrinkSeconds, budgetSeconds: flows.budgetSeconds,
            maxFailures: flows.maxFailures, replay: session.replay, checksBackend: flows.usesMock, stopSignal: flows.stopSignal)
        let name = self.name
        _ = await runOnDedicatedThread { contracts.run(group: name, recorder: session.recorder, progress: session.progress) }
        // An adapter that never answered is a setup mistake: one paragraph and exit 2, no report
        // (unless the run was interrupted, which has its own report and exit code).
        if let adapter = flows.oracle as? AdapterOracle, let failure = adapter.setupFailure, flows.stopSignal?.isStopped != true {
            adapter.finish()
            session.progress?.finish()
            throw .configuration(failure.paragraph, command: "check")
        }
    }
}
