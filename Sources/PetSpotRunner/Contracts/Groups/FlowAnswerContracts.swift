import Foundation
import PetSpotPropertyEngine
import PetSpotJSON
import PetSpotModel
import PetSpotFlowGenerators

/// The flow contracts of sut-protocol.md, checked as properties over generated flow cases.
///
/// Each contract is one property of the package's engine run with the run's seed, so every
/// contract sees the same sequence of cases (an adapter is asked each distinct case once: its
/// oracle caches answers). A property stops at its first failing case and shrinks it by
/// re-asking the oracle about simpler candidates; the report shows the shrunk case, the
/// original, both answers, the seed and the replay command. Protocol failures (a crash, a
/// timeout, a malformed answer) depend on the adapter's state as much as on the input, so
/// they are reported as the case that caused them, unshrunk.
public struct FlowContracts: Sendable {
    /// Who answers the cases.
    public let oracle: any FlowOracle
    /// Schema validators for submitted payloads (create-request first).
    public let validators: [PayloadValidator]
    /// The generator of cases.
    public let generator: Gen<FlowCase>
    /// Cases per contract.
    public let cases: Int
    /// The run's seed.
    public let seed: UInt64
    /// Seconds the shrinker may spend on one failure.
    public let shrinkSeconds: Double
    /// The command line that replays this run.
    public let replay: String

    /// Creates the contract set.
    public init(
        oracle: any FlowOracle, validators: [PayloadValidator], generator: Gen<FlowCase>, cases: Int, seed: UInt64,
        shrinkSeconds: Double, replay: String
    ) {
        self.oracle = oracle
        self.validators = validators
        self.generator = generator
        self.cases = cases
        self.seed = seed
        self.shrinkSeconds = shrinkSeconds
        self.replay = replay
    }

    /// The generator `check` uses: either flow, valid-by-construction and hostile inputs half each.
    public static let defaultGenerator: Gen<FlowCase> = .oneOf(FlowGenerators.flowCase(.valid), FlowGenerators.flowCase(.hostile))

    private struct Contract {
        let name: String
        let shrinks: Bool
        let failure: @Sendable (FlowCase, FlowExchange) -> String?
    }

    private var contracts: [Contract] {
        let validators = self.validators
        var list: [Contract] = []
        let isAdapter = !(oracle is ReferenceOracle)
        if isAdapter {
            list.append(Contract(name: FlowAnswerChecks.protocolContract, shrinks: false) { _, exchange in
                FlowAnswerChecks.protocolFailure(exchange)
            })
        }
        list.append(Contract(name: FlowAnswerChecks.schemaContract, shrinks: true) { _, exchange in
            FlowAnswerChecks.schemaFailure(exchange, validators: validators)
        })
        list.append(Contract(name: FlowAnswerChecks.statusContract, shrinks: true) { flowCase, exchange in
            FlowAnswerChecks.statusFailure(exchange, flow: flowCase.flow)
        })
        list.append(Contract(name: FlowAnswerChecks.nothingExtraContract, shrinks: true) { _, exchange in
            FlowAnswerChecks.nothingExtraFailure(exchange)
        })
        if isAdapter {
            list.append(Contract(name: FlowAnswerChecks.sameAsReferenceContract, shrinks: true) { flowCase, exchange in
                FlowAnswerChecks.referenceMismatch(exchange, reference: Self.referenceAnswer(flowCase))
            })
        }
        return list
    }

    /// The names of the contracts this set checks, in order.
    public var contractNames: [String] { contracts.map(\.name) }

    /// How many contracts check each case: the protocol and reference contracts only for an adapter.
    package static func contractCount(adapter: Bool) -> Int { adapter ? 5 : 3 }

    static func referenceAnswer(_ flowCase: FlowCase) -> AdapterAnswer {
        AdapterAnswer(ReferenceModel.evaluate(flow: flowCase.flow, inputs: flowCase.inputs, context: flowCase.context))
    }

    /// Checks every contract, recording into `recorder` under `group`; synchronous (run it off
    /// the cooperative thread pool: an adapter blocks on pipes).
    public func run(group: String, recorder: ContractRecorder, progress: ProgressLine?) {
        for contract in contracts { recorder.declare(group: group, contract: contract.name) }
        for contract in contracts {
            check(contract, group: group, recorder: recorder, progress: progress)
        }
    }

    /// What the property run has seen so far, shared with the watchdog.
    private final class Watch: @unchecked Sendable {
        // Unchecked: every member is guarded by `lock`.
        let lock = NSLock()
        var casesChecked = 0
        var firstFailure: (flowCase: FlowCase, message: String, index: Int)?
        var shrinkingSince: ContinuousClock.Instant?
        var result: PropertyResult<FlowCase>?
    }

    private struct UncheckedProperty: @unchecked Sendable {
        // Unchecked: handed to exactly one thread, never shared.
        let property: Property<FlowCase>
    }

    private func check(_ contract: Contract, group: String, recorder: ContractRecorder, progress: ProgressLine?) {
        let start = ContinuousClock.now
        let watch = Watch()
        let oracle = self.oracle
        let property = Property(contract.name, generator) { flowCase in
            let exchange = oracle.answer(flowCase)
            let failure = contract.failure(flowCase, exchange)
            let counts = watch.lock.withLock { () -> Bool in
                guard watch.firstFailure == nil else { return false }
                if let failure {
                    watch.firstFailure = (flowCase, failure, watch.casesChecked)
                    watch.shrinkingSince = ContinuousClock.now
                }
                watch.casesChecked += 1
                return true
            }
            if counts { progress?.advance(failed: failure == nil ? 0 : 1) }
            if let failure { throw RequirementFailure(failure) }
            return true
        }
        let configuration = PropertyConfiguration(
            cases: cases, seed: seed, shrinks: contract.shrinks, maxShrinkSteps: 5_000, shrinkStallLimit: 1_000,
            shrinkTimeLimit: .milliseconds(Int64(shrinkSeconds * 1000)), readsEnvironment: false)
        // The property runs on its own thread under a watchdog: should shrinking overrun its
        // time limit by more than a grace period (the engine checks its deadline only between
        // replays), the first failing case is reported unshrunk instead of hanging the run.
        let finished = DispatchSemaphore(value: 0)
        let handed = UncheckedProperty(property: property)
        let thread = Thread {
            let outcome = handed.property.check(configuration)
            watch.lock.withLock { watch.result = outcome }
            finished.signal()
        }
        thread.stackSize = 16 * 1024 * 1024
        thread.start()
        let grace = Duration.milliseconds(Int64(shrinkSeconds * 1000)) + .seconds(5)
        var result: PropertyResult<FlowCase>?
        while result == nil {
            if finished.wait(timeout: .now() + 0.1) == .success {
                result = watch.lock.withLock { watch.result }
                continue
            }
            let (since, first, checked) = watch.lock.withLock { (watch.shrinkingSince, watch.firstFailure, watch.casesChecked) }
            if let since, let first, ContinuousClock.now - since > grace {
                let seconds = Self.seconds(since: start)
                if checked > 1 { recorder.pass(group: group, contract: contract.name, count: checked - 1) }
                recorder.fail(group: group, contract: contract.name, unshrunkReport(first.flowCase, message: first.message, index: first.index), seconds: seconds)
                recorder.note("\(contract.name): shrinking did not finish within \(ContractReport.plainNumber(shrinkSeconds)) s + 5 s; the failing case is shown unshrunk")
                return
            }
        }
        guard let result else { return }
        let seconds = Self.seconds(since: start)
        switch result {
        case .passed(let pass):
            recorder.pass(group: group, contract: contract.name, count: pass.cases, seconds: seconds)
        case .failed(let failure):
            if failure.caseIndex > 0 {
                recorder.pass(group: group, contract: contract.name, count: failure.caseIndex)
            }
            recorder.fail(group: group, contract: contract.name, report(failure, contractShrinks: contract.shrinks), seconds: seconds)
        case .gaveUp(let giveUp):
            recorder.pass(group: group, contract: contract.name, count: giveUp.cases, seconds: seconds)
            recorder.note("\(contract.name): generation gave up after \(giveUp.cases) cases: \(giveUp.reason)")
        case .coverageNotMet(let shortfall):
            recorder.pass(group: group, contract: contract.name, count: shortfall.labels.total, seconds: seconds)
        case .stopped(let stop):
            recorder.pass(group: group, contract: contract.name, count: stop.cases, seconds: seconds)
            recorder.note("\(contract.name): stopped after \(stop.cases) cases (cancelled)")
        }
    }

    private func unshrunkReport(_ flowCase: FlowCase, message: String, index: Int) -> ContractFailure {
        let exchange = oracle.answer(flowCase)
        let actual = exchange.answerLine ?? {
            if case .failure(let error) = exchange.result { return "(no answer: \(error.description))" }
            return "(no answer)"
        }()
        return ContractFailure(
            message: message + " (not shrunk)",
            caseId: "question id \(exchange.id), case \(index + 1) of seed \(seed)",
            request: ReportedRequest(method: "QUESTION", path: oracle is ReferenceOracle ? "reference model" : "adapter stdin", body: exchange.question),
            expected: "reference model answers " + Self.referenceAnswer(flowCase).json(id: exchange.id).serialized(),
            actual: actual, originalInput: flowCase.json, seed: seed, replay: replay)
    }

    private func report(_ failure: PropertyFailure<FlowCase>, contractShrinks: Bool) -> ContractFailure {
        let shrunk = failure.shrunk
        let exchange = oracle.answer(shrunk)
        let reference = Self.referenceAnswer(shrunk)
        let actual = exchange.answerLine ?? {
            if case .failure(let error) = exchange.result { return "(no answer: \(error.description))" }
            return "(no answer)"
        }()
        var message = failure.message
        if failure.shrinkSteps > 0 || failure.shrunk != failure.original {
            message += " (shrunk in \(failure.shrinkSteps) steps)"
        }
        return ContractFailure(
            message: message,
            caseId: "question id \(exchange.id), case \(failure.caseIndex + 1) of seed \(failure.seed)",
            request: ReportedRequest(method: "QUESTION", path: oracle is ReferenceOracle ? "reference model" : "adapter stdin", body: exchange.question),
            expected: "reference model answers " + reference.json(id: exchange.id).serialized(),
            actual: actual,
            shrunkInput: contractShrinks ? shrunk.json : nil,
            originalInput: contractShrinks && failure.original == shrunk ? nil : failure.original.json,
            seed: failure.seed, replay: replay)
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// The flow answers of sut-protocol.md: every generated case asked of the flow code under test
/// (the reference model, or an app's adapter with `check --sut`), every answer checked against
/// the schemas, the status by flow, nothing extra and (for an adapter) the reference model.
struct FlowAnswerContracts: ContractGroup {
    let name = "flow answers"

    func applies(to session: ContractSession) -> Bool { session.flows != nil }

    func check(_ session: ContractSession) async throws(RunnerError) {
        guard let flows = session.flows else { return }
        let contracts = FlowContracts(
            oracle: flows.oracle, validators: session.schemas.payloadValidators, generator: flows.generator,
            cases: session.cases, seed: session.seed, shrinkSeconds: flows.shrinkSeconds, replay: session.replay)
        let name = self.name
        await runOnDedicatedThread { contracts.run(group: name, recorder: session.recorder, progress: session.progress) }
        if let adapter = flows.oracle as? AdapterOracle, let status = adapter.commandNotRunnable {
            adapter.finish()
            session.progress?.finish()
            throw .configuration(
                "--sut '\(adapter.command)' could not be run (the shell exited with status \(status): command not found or not executable)",
                command: "check")
        }
    }
}
