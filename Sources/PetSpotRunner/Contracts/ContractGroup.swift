import Foundation
import PetSpotFlowGenerators
import PetSpotPropertyEngine
import PetSpotReport

/// One group of contracts: one section of the report and one JUnit test suite.
///
/// Each group lives in its own file under `Groups/` and is listed once in
/// ``ContractRegistry/groups``, which `check` and `run` both read. Adding an endpoint's contracts
/// is one new file and one line in the registry:
///
/// ```swift
/// struct HealthContracts: ContractGroup {
///     let name = "health"
///     func applies(to session: ContractSession) -> Bool { session.backend != nil }
///     func check(_ session: ContractSession) async throws(RunnerError) { ... }
/// }
/// ```
///
/// A group declares its contracts first (so the report lists them even when none of their
/// cases runs), then records every case it checks in the session's recorder. Groups run one after
/// another, in registry order; a group may run its own cases concurrently, up to the session's
/// concurrency.
package protocol ContractGroup: Sendable {
    /// The group's name in reports.
    var name: String { get }
    /// Whether the group has what it needs in `session`: an oracle for flow groups, a backend
    /// for backend groups.
    func applies(to session: ContractSession) -> Bool
    /// Checks the group's contracts in `session`.
    /// - Throws: ``RunnerError`` only when the whole run must stop (the target cannot be reached).
    func check(_ session: ContractSession) async throws(RunnerError)
}

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

/// The flow answers under test: the reference model or an app's adapter, and how cases are made
/// and shrunk.
package struct FlowTarget: Sendable {
    /// Who answers the cases.
    package let oracle: any FlowOracle
    /// Makes the generator of cases; every run that must see the same cases from the same seed
    /// takes a new one (the boundary generator keeps its cycle through the catalogue).
    package let makeGenerator: @Sendable () -> Gen<FlowCase>
    /// Seconds the shrinker may spend on one failure.
    package let shrinkSeconds: Double
    /// Whether the run also has the in-process strict mock (regressions that send a create
    /// request need it).
    package let usesMock: Bool
    /// Seconds the flow cases may take before the run stops (coverage decides the count).
    package let budgetSeconds: Double
    /// Distinct causes of failure shrunk and shown at most.
    package let maxFailures: Int
    /// Stops the flow property runs early (an interrupted `check`), if given.
    package let stopSignal: StopSignal?
    /// How the app's own submission is driven through faults (`nil`: it is not).
    package let submission: SubmissionSettings?

    /// A flow target.
    package init(
        oracle: any FlowOracle, makeGenerator: @escaping @Sendable () -> Gen<FlowCase>, shrinkSeconds: Double, usesMock: Bool,
        budgetSeconds: Double = 60, maxFailures: Int = 10, stopSignal: StopSignal? = nil, submission: SubmissionSettings? = nil
    ) {
        self.stopSignal = stopSignal
        self.submission = submission
        self.oracle = oracle
        self.makeGenerator = makeGenerator
        self.shrinkSeconds = shrinkSeconds
        self.usesMock = usesMock
        self.budgetSeconds = budgetSeconds
        self.maxFailures = maxFailures
    }

    /// Whether the oracle is an adapter program (not the reference model).
    package var isAdapter: Bool { !(oracle is ReferenceOracle) }
}
