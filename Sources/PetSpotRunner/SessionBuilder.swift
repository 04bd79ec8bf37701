import Foundation
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotFlowChecks
import PetSpotModel
import PetSpotReport
import PetSpotRuntime

/// Builds the ``ContractSession`` of one run, the one way every run gets its session: `check`'s
/// (flow answers, and the in-process strict mock as the backend) and `run`'s (a backend over a
/// budgeted transport), for the commands and for the tests and benchmarks that run as they do.
package struct SessionBuilder: Sendable {
    /// Where every case is recorded.
    package let recorder: ContractRecorder
    /// The run's seed.
    package let seed: UInt64
    /// The command line that replays the run.
    package let replay: String
    /// Generated cases per contract (`check`) or reports submitted (`run`).
    package let cases: Int
    /// The live progress line, if any.
    package let progress: ProgressLine?

    /// A builder of sessions recording into `recorder`.
    package init(recorder: ContractRecorder, seed: UInt64, replay: String, cases: Int, progress: ProgressLine? = nil) {
        self.recorder = recorder
        self.seed = seed
        self.replay = replay
        self.cases = cases
        self.progress = progress
    }

    /// `check`'s session: `flows` answer the flow cases; with `flows.usesMock` the backend is a
    /// fresh in-process strict mock that receives what the oracle submits for ``cases`` cases of
    /// `flows`' generator from ``seed``, its credentials learnt by the recorder.
    /// - Returns: the session, and the mock when there is one.
    /// - Throws: ``RunnerError`` (configuration) when the captured contract does not load.
    package func checking(_ flows: FlowTarget) throws(RunnerError) -> (session: ContractSession, mock: InProcessMock?) {
        let mock = flows.usesMock
            ? InProcessMock(oracle: flows.oracle, generator: flows.makeGenerator(), cases: cases, seed: seed, secrets: recorder.secrets) : nil
        let session = ContractSession(
            recorder: recorder, schemas: try ContractSchemas.shared(), seed: seed, replay: replay, cases: cases, progress: progress,
            flows: flows, backend: mock?.target)
        return (session, mock)
    }

    /// `run`'s session: the backend groups against `transport`, a backend called `name` that should
    /// answer as `profile`, which submit ``cases`` valid reports generated from ``seed``; `baseURL`
    /// is what the curl lines of failures name (none when `nil`). Without `adminToken`, the groups
    /// that create announcements are skipped unless `createsWithoutAdminToken` (`run
    /// --allow-leftovers`): what they create is then left on the target and listed. `listDepth` is
    /// `--list-depth`.
    /// - Returns: the session and its backend.
    /// - Throws: ``RunnerError`` (configuration) when the captured contract does not load.
    package func running(
        against transport: BudgetedTransport, name: String, profile: BackendProfile, adminToken: String?, concurrency: Int, baseURL: URL?,
        maxConsecutiveTimeouts: Int = BackendTarget.defaultMaxConsecutiveTimeouts, createsWithoutAdminToken: Bool = false, listDepth: ListDepth = .drawn
    ) throws(RunnerError) -> (session: ContractSession, backend: BackendTarget) {
        let (cases, seed) = (self.cases, self.seed)
        let backend = BackendTarget(
            name: name, transport: transport, profile: profile, adminToken: adminToken, microchips: MicrochipSequence(),
            concurrency: concurrency, submissions: { SubmittedReports.generated(count: cases, seed: seed, now: Date()) },
            baseURL: baseURL, maxConsecutiveTimeouts: maxConsecutiveTimeouts, createsWithoutAdminToken: createsWithoutAdminToken, listDepth: listDepth)
        let session = ContractSession(
            recorder: recorder, schemas: try ContractSchemas.shared(), seed: seed, replay: replay, cases: cases, progress: progress,
            flows: nil, backend: backend)
        return (session, backend)
    }
}
