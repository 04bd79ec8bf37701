import Foundation
import PetSpotAdapterDriving
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel
import PetSpotPropertyEngine
import PetSpotReport
import PetSpotRuntime

/// The app's own submission (create, photo upload, alert, Try Again, Cancel) driven through a
/// network that fails on purpose: the runner is the network (``FaultProxy``), in front of the
/// backend under test.
///
/// Generated scenarios (``SubmissionScenario``: a valid report, faults on the requests the app
/// sends, Cancels) run on the app (the adapter, protocol version 2; without `--sut`, the
/// reference model), and each run is judged by the ``SubmissionProperty`` properties. The same
/// scenario runs on the reference model, which follows report-flows.md's rule (or, with
/// `--submission-rule later`, the later iteration's): a property the app breaks and the
/// reference keeps is the app's deviation, a failure shrunk to its smallest scenario; a property
/// the reference breaks too is what the specification's rule does to users, reported once as a
/// finding with its shrunk scenario and never as the app's failure, so an app that follows the
/// specification passes. The group is bounded in time (``SubmissionFaultCheck/timeBound(_:)``):
/// when the bound stops it, the contracts not reached are skipped with the reason and the time
/// bound's own contract fails.
///
/// The first submission question declares the adapter's version: a version 2 answer goes on;
/// `{"v": 1, "id": N, "outcome": "unsupported"}` (the adapter speaks only version 1) makes the
/// group say so in a note at the top of the report and skip its contracts (or, with
/// `--require-submission`, fail); anything else (a crash, an exit, a time-out, a line that is no
/// answer) fails the protocol contract, naming what happened.
package struct SubmissionFaultContracts: BackendContractGroup {
    package let name = SubmissionSettings.groupName
    package let surfaces: Set<MockDefect.Surface> = []
    /// The protocol contract of version 2.
    package static let protocolContract = "the adapter answers every submission question (protocol version 2)"
    /// The contract that the scenarios end within the group's time bound.
    package static let timeBoundContract = "the scenarios end within the group's time bound (scenarios × (3 s + 4 × the request time-out) + shrinking)"
    /// The contract that the scenarios can be judged (``SubmissionFaultCheck/tooManyUnjudged(_:of:)``).
    package static let judgedContract =
        "the scenarios are judged: the app waits for healthy answers (a scenario runs at most \(ScenarioExecutor.runsPerScenario) times)"

    /// The contracts the scenarios are judged by: each property, the time bound, the judged contract
    /// (an adapter's run adds ``protocolContract`` first).
    package static let scenarioContracts = SubmissionProperty.allCases.map(\.contract) + [timeBoundContract, judgedContract]

    /// The group.
    package init() {}

    /// Applies when the session has a backend and submission scenarios to run (or one to replay).
    package func applies(to session: ContractSession) -> Bool {
        guard session.backend != nil, let settings = session.flows?.submission else { return false }
        return settings.scenarios > 0 || settings.replayScenario != nil
    }

    package func contracts(in session: ContractSession) -> [String] {
        (session.flows?.isAdapter == true ? [Self.protocolContract] : []) + Self.scenarioContracts
    }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        guard let flows = backend.session.flows, let settings = flows.submission else { return }
        let session = backend.session, target = backend.target
        let proxy = FaultProxy(forward: { target.sendOutsideBudgetNow($0) })
        let proxyURL: URL
        do {
            proxyURL = try proxy.start()
        } catch {
            for contract in contracts(in: session) { backend.skip(contract, reason: "the fault proxy could not listen on 127.0.0.1: \(error)") }
            return
        }
        defer { proxy.stop() }
        // The photos the app reads: removed when the group ends, however it ends, and by the
        // signal trap's cleanup when the runner exits on a signal before that.
        let photos = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-sut-\(getpid())-\(UUID().uuidString.prefix(8))")
        let removal = SignalTrap.shared.register(.cleanup { try? FileManager.default.removeItem(at: photos) })
        try? FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: photos)
            removal.end()
        }
        let reference = ReferenceSubmittingApp(rule: settings.rule)
        let adapter = flows.oracle as? AdapterOracle
        let executor = ScenarioExecutor(
            proxy: proxy, proxyURL: proxyURL, target: target, requestTimeout: settings.requestTimeout, photoDirectory: photos)
        let check = SubmissionFaultCheck(
            group: name, app: adapter.map { AdapterSubmittingApp(oracle: $0, heldAnswerSeconds: executor.holdLimit) } ?? reference,
            reference: reference, appIsReference: adapter == nil, executor: executor, settings: settings, seed: session.seed,
            replay: session.replay, stopSignal: flows.stopSignal, redactor: target.redactor, progress: session.progress)
        let contracts = contracts(in: session)
        await runOnDedicatedThread { check.run(recorder: session.recorder, contracts: contracts) }
    }
}
