import Foundation
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotPropertyEngine
import PetSpotReport
import PetSpotRuntime

/// Everything the contract groups of one run share: the recorder, the contract, the seed and
/// replay line, and the targets (an oracle for flow answers, a backend for HTTP contracts).
package final class ContractSession: Sendable {
    /// Where every case is recorded.
    package let recorder: ContractRecorder
    /// The captured contract, compiled.
    package let schemas: ContractSchemas
    /// The run's seed.
    package let seed: UInt64
    /// The command line that replays the run.
    package let replay: String
    /// Generated cases per contract (`check`) or reports submitted (`run`).
    package let cases: Int
    /// The live progress line, if any.
    package let progress: ProgressLine?
    /// Who answers flow cases, when the run checks flow answers.
    package let flows: FlowTarget?
    /// The backend the run checks, if any.
    package let backend: BackendTarget?

    /// A session.
    package init(
        recorder: ContractRecorder, schemas: ContractSchemas, seed: UInt64, replay: String, cases: Int,
        progress: ProgressLine?, flows: FlowTarget?, backend: BackendTarget?
    ) {
        self.recorder = recorder
        self.schemas = schemas
        self.seed = seed
        self.replay = replay
        self.cases = cases
        self.progress = progress
        self.flows = flows
        self.backend = backend
        recorder.setReplay(replay)
    }
}
