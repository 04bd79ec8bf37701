import Foundation
import PetSpotConcurrency
import PetSpotPropertyEngine
import PetSpotJSON
import PetSpotModel
import PetSpotFlowGenerators
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotReport
import PetSpotRuntime

/// The flow contracts of sut-protocol.md, checked over generated flow cases until every entry of
/// the boundary catalogue has been reached, then every distinct cause of failure shrunk.
///
/// **Exploring.** One property of the package's engine runs the cases of
/// ``FlowGenerators/boundaryCases()``: every case is asked once (the oracle caches answers), and
/// every contract is checked on its answer. A failing case does not stop the run: its causes
/// (``FailureCause``: the contract, the fields that differ, the kind of difference) are
/// collected, so an app with many defects gets them all named in one run. Every catalogue entry
/// is a coverage requirement of the property (``BoundaryCatalogue``); the engine decides them
/// statistically and runs more cases while one is undecided. The run stops early at the time
/// budget, which is then judged by the observed shares.
///
/// **Shrinking.** Each distinct cause, in the order found, is shrunk by the engine: the same
/// property from the same seed, failing only on cases with that cause, finds the same first case
/// again (its answers come from the cache) and shrinks it while the cause stays. Fields that play
/// no part shrink back to their simplest valid value. A cause whose shrunk case carries the same
/// offending characters as a group's first cause, in other fields, joins that group
/// (``CauseGroup``): one failure that lists the fields. ``maxFailures`` counts groups; past it
/// every cause is still recorded, unshrunk.
///
/// **No false pass.** A contract none of whose cases reached an answer fails; so do an unmet
/// coverage requirement and a generator give-up, each with its reason. An adapter that never
/// answered is not explored further (``SetupCheckedOracle/failedSetup``).
public struct FlowContracts: Sendable {
    /// Who answers the cases.
    let oracle: any FlowOracle
    /// Schema validators for submitted payloads (create-request first).
    let validators: [PayloadValidator]
    /// Makes the generator of cases (a new one per run, see ``FlowGenerators/boundaryCases()``).
    let makeGenerator: @Sendable () -> Gen<FlowCase>
    /// Cases before coverage is judged (more run while a requirement is undecided, up to ten
    /// times as many).
    let cases: Int
    /// The run's seed.
    let seed: UInt64
    /// Seconds the shrinker may spend on one failure.
    let shrinkSeconds: Double
    /// Seconds the exploration may take.
    let budgetSeconds: Double
    /// Groups of causes shrunk and shown at most (every other cause is listed unshrunk).
    let maxFailures: Int
    /// The command line that replays this run.
    let replay: String
    /// Whether every submitted payload is also sent to a strict in-process mock (create only).
    let checksBackend: Bool
    /// Ends the property runs early when stopped (exploring and shrinking alike).
    let stopSignal: StopSignal?

    /// Creates the contract set: `oracle` answers the cases; `validators` check every submitted
    /// payload (``ContractSchemas/payloadValidators``, or ``PayloadValidator/modelDecoder``);
    /// `cases` run from `seed` before coverage is judged, within `budgetSeconds`; each cause of
    /// at most `maxFailures` groups is shrunk for up to `shrinkSeconds`; `replay` is the command
    /// line a failure names to replay the run; with `checksBackend`, every submitted payload is
    /// also sent to a strict in-process mock; `stopSignal` ends the runs early when stopped.
    public init(
        oracle: any FlowOracle, validators: [PayloadValidator], makeGenerator: @escaping @Sendable () -> Gen<FlowCase> = FlowContracts.defaultGenerator,
        cases: Int, seed: UInt64, shrinkSeconds: Double, budgetSeconds: Double = CheckSettings.defaults.budgetSeconds,
        maxFailures: Int = CheckSettings.defaults.maxFailures, replay: String,
        checksBackend: Bool = true, stopSignal: StopSignal? = nil
    ) {
        self.stopSignal = stopSignal
        self.checksBackend = checksBackend
        self.oracle = oracle
        self.validators = validators
        self.makeGenerator = makeGenerator
        self.cases = cases
        self.seed = seed
        self.shrinkSeconds = shrinkSeconds
        self.budgetSeconds = budgetSeconds
        self.maxFailures = maxFailures
        self.replay = replay
    }

    /// The generator `check` uses: ``FlowGenerators/boundaryCases()``.
    @Sendable public static func defaultGenerator() -> Gen<FlowCase> { FlowGenerators.boundaryCases() }

    /// The share of cases each catalogue entry must reach, in percent: a sixth of the share the
    /// generator plants it in, so that a default run decides every requirement after about four
    /// cycles through the catalogue.
    static var requiredPercent: Double { FlowGenerators.scheduledShare / 6 }

    /// The contract that the strict mock creates every submitted report.
    public static let backendContract = "the strict mock answers 201 to every submitted payload"

    /// The contract that every boundary of the catalogue reaches its rule.
    public static let coverageContract = "every boundary of the catalogue reaches its rule (coverage)"

    var isAdapter: Bool { !(oracle is ReferenceOracle) }

    /// The names of the contracts this set checks, in order.
    public var contractNames: [String] {
        (isAdapter ? [FlowAnswerChecks.protocolContract] : [])
            + [FlowAnswerChecks.schemaContract, FlowAnswerChecks.statusContract, FlowAnswerChecks.nothingExtraContract]
            + (isAdapter ? [FlowAnswerChecks.sameAsReferenceContract] : []) + (checksBackend ? [Self.backendContract] : [])
            + [Self.coverageContract]
    }

    /// What one run found, for benchmarks and tests.
    public struct Outcome: Sendable {
        /// Cases generated and asked.
        package var cases: Int
        /// Seconds from the start of the run to the first failing case, if any failed.
        package var firstFailureSeconds: Double?
        /// Every distinct cause found, in the order found.
        package var causes: [FailureCause]
        /// Whether every coverage requirement was met.
        package var coverageMet: Bool
    }

    /// What is known about one case: its exchange, the reference model's outcome, and its causes.
    struct Evaluation: Sendable {
        let exchange: FlowExchange
        let reference: ReportOutcome
        let causes: [(cause: FailureCause, message: String)]
        /// The catalogue entries this case showed to the rules (none when it was not answered).
        let reached: [Boundary]
        var labels: [String] { reached.map(\.label) }
        var answered: Bool {
            if case .success = exchange.result { return true }
            return false
        }
    }

    /// A cause's first case and the cases that showed it.
    package struct CauseRecord: Sendable {
        /// The order the cause was found in (0 first).
        package let order: Int
        /// The first case that showed it.
        package let firstCase: FlowCase
        /// That case's index in the run.
        package let index: Int
        /// The indexes of every case that showed it.
        package var cases: Set<Int>
        /// How many cases showed it.
        package var count: Int { cases.count }

        /// A record.
        package init(order: Int, firstCase: FlowCase, index: Int, cases: Set<Int>) {
            self.order = order
            self.firstCase = firstCase
            self.index = index
            self.cases = cases
        }
    }

    struct Exploration: Sendable {
        var cases = 0
        var answered = 0
        var failing: [String: Int] = [:]
        var causes: [FailureCause: CauseRecord] = [:]
        var hits: [Int] = Array(repeating: 0, count: BoundaryCatalogue.entries.count)
        var firstFailure: Duration?
        /// The flows the app answered `unavailable` for.
        var unavailableFlows: Set<ReportFlowKind> = []
    }

    private struct BudgetReached: Error, CustomStringConvertible {
        var description: String { "the time budget was reached" }
    }

    private struct SetupFailed: Error, CustomStringConvertible {
        var description: String { "the adapter never answered a question" }
    }

    private struct CauseFound: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Asks and checks `flowCase`, once per distinct case.
    private func evaluate(_ flowCase: FlowCase, cache: Locked<[FlowCase: Evaluation]>) -> Evaluation {
        if let known = cache.withLock({ $0[flowCase] }) { return known }
        let exchange = oracle.answer(flowCase)
        let reference = ReferenceModel.evaluate(flow: flowCase.flow, inputs: flowCase.inputs, context: flowCase.context)
        var causes = FlowAnswerChecks.causes(
            exchange, flowCase: flowCase, validators: validators, reference: isAdapter ? AdapterAnswer(reference) : nil)
        if checksBackend, case .success(.submitted(let payload)) = exchange.result, let refusal = Self.backendRefusal(payload, at: flowCase.context.now) {
            causes.append(refusal)
        }
        var reached: [Boundary] = []
        // An unavailable flow reaches none of its rules.
        if case .success(let answer) = exchange.result, answer != .unavailable { reached = flowCase.reachedBoundaries(outcome: reference) }
        let evaluation = Evaluation(exchange: exchange, reference: reference, causes: causes, reached: reached)
        cache.withLock { $0[flowCase] = evaluation }
        return evaluation
    }

    private func property(_ name: String, body: @escaping (FlowCase) throws -> Bool) -> Property<FlowCase> {
        var property = Property(name, makeGenerator(), body)
        let percent = Self.requiredPercent
        for boundary in BoundaryCatalogue.entries { property = property.requireCoverage(boundary.label, atLeast: percent) }
        return property
    }

    private func configuration(shrinks: Bool) -> PropertyConfiguration {
        var configuration = PropertyConfiguration(
            cases: cases, seed: seed, shrinks: shrinks, maxShrinkSteps: 2_000, shrinkStallLimit: 300,
            shrinkTimeLimit: .milliseconds(Int64(shrinkSeconds * 1000)), readsEnvironment: false)
        configuration.stopSignal = stopSignal
        return configuration
    }

    /// Checks every contract, recording into `recorder` under `group`; synchronous (run it off
    /// the cooperative thread pool: an adapter blocks on pipes). Read the results with
    /// ``ContractRecorder/report(command:arguments:target:seed:startedAt:)``.
    @discardableResult
    public func run(group: String, recorder: ContractRecorder) -> Outcome {
        run(group: group, recorder: recorder, progress: nil)
    }

    /// ``run(group:recorder:)`` with `check`'s live progress line.
    @discardableResult
    package func run(group: String, recorder: ContractRecorder, progress: ProgressLine?) -> Outcome {
        for contract in contractNames { recorder.declare(group: group, contract: contract) }
        let start = ContinuousClock.now
        let cache = Locked<[FlowCase: Evaluation]>([:])
        let state = Locked(Exploration())
        let budget = Duration.milliseconds(Int64(budgetSeconds * 1000))

        // Exploring: every case checked, causes collected, boundaries labelled.
        let setup = oracle as? any SetupCheckedOracle
        let exploration = property("flow answers") { flowCase in
            if ContinuousClock.now - start > budget { throw BudgetReached() }
            // An adapter that never answered (a setup mistake) is asked nothing more.
            if setup?.failedSetup == true { throw SetupFailed() }
            let evaluation = evaluate(flowCase, cache: cache)
            // A case answered while the run was being stopped may have been cut short: not counted.
            if stopSignal?.isStopped == true { return true }
            for text in evaluation.labels { label(text) }
            state.withLock { state in
                let index = state.cases
                state.cases += 1
                if evaluation.answered { state.answered += 1 }
                if case .success(.unavailable) = evaluation.exchange.result { state.unavailableFlows.insert(flowCase.flow) }
                for boundary in evaluation.reached { state.hits[boundary.index] += 1 }
                var contracts: Set<String> = []
                for (cause, _) in evaluation.causes {
                    contracts.insert(cause.contract)
                    if state.causes[cause] == nil {
                        state.causes[cause] = CauseRecord(order: state.causes.count, firstCase: flowCase, index: index, cases: [])
                    }
                    state.causes[cause]!.cases.insert(index)
                }
                for contract in contracts { state.failing[contract, default: 0] += 1 }
                if !contracts.isEmpty && state.firstFailure == nil { state.firstFailure = ContinuousClock.now - start }
            }
            progress?.advance(failed: evaluation.causes.isEmpty ? 0 : 1)
            return true
        }
        let result = exploration.check(configuration(shrinks: false))
        let explored = state.withLock { $0 }
        let exploreSeconds = Self.seconds(since: start)

        // Coverage: the engine's verdict, or at the budget the observed shares.
        let percent = Self.requiredPercent
        var unmet: Set<String> = []
        var verdict: String
        var problem: String?
        switch result {
        case .passed:
            verdict = "every requirement met after \(explored.cases) cases"
        case .coverageNotMet(let shortfall):
            unmet = Set(shortfall.misses.map(\.label))
            verdict = "\(unmet.count) requirement(s) not met after \(explored.cases) cases"
        case .gaveUp(let giveUp):
            verdict = "generation gave up after \(giveUp.cases) cases"
            problem = "generation gave up after \(giveUp.cases) cases: \(giveUp.reason)"
            unmet = Set(BoundaryCatalogue.entries.map(\.label))
        case .failed(let failure):
            let budgetReached = failure.message == BudgetReached().description
            for boundary in BoundaryCatalogue.entries {
                let hits = explored.hits[boundary.index]
                if hits == 0 || Double(hits) * 100 < percent * Double(max(1, explored.cases)) { unmet.insert(boundary.label) }
            }
            verdict = budgetReached
                ? "the time budget of \(ContractReport.plainNumber(budgetSeconds)) s was reached after \(explored.cases) cases"
                : "the run stopped after \(explored.cases) cases: \(failure.message)"
            if !budgetReached { problem = verdict }
        case .stopped(let stop):
            verdict = "stopped after \(stop.cases) cases (cancelled)"
            problem = verdict
            unmet = Set(BoundaryCatalogue.entries.map(\.label))
        }
        let rows = BoundaryCatalogue.entries.map { boundary in
            BoundaryCoverage.Row(
                field: boundary.field.name, rule: boundary.rule, boundaryClass: boundary.boundaryClass.rawValue, detail: boundary.detail,
                hits: explored.hits[boundary.index], requiredPercent: percent, met: !unmet.contains(boundary.label))
        }
        recorder.setCoverage(BoundaryCoverage(cases: explored.cases, rows: rows, verdict: verdict))

        // Shrinking: each distinct cause once, in the order found (nothing to shrink when the
        // adapter never answered); causes that fail the same way in other fields join the
        // first one's group. --max-failures counts groups; every cause found is listed, those
        // past the cap unshrunk.
        let (ordered, facets) = setup?.failedSetup != true ? Self.distinct(explored.causes) : ([], [:])
        var groups: [CauseGroup] = []
        var unshrunk: [(key: FailureCause, value: CauseRecord)] = []
        var shrinks = 0
        var shrinkTime: [String: Double] = [:]
        for (cause, record) in ordered {
            let full = groups.count >= maxFailures
            // Past the cap a cause is only worth shrinking when it may join a group (it carries
            // a group's offending character), and only so many times.
            if full {
                let first = CauseSignature(cause, in: record.firstCase)
                let hopeful = groups.contains { group in
                    guard let characters = group.signature?.characters, !characters.isEmpty, let first else { return false }
                    return !characters.isDisjoint(with: first.characters)
                }
                if !hopeful || shrinks >= maxFailures * 3 || stopSignal?.isStopped == true {
                    unshrunk.append((cause, record))
                    continue
                }
            }
            let shrinkStart = ContinuousClock.now
            var (failure, shown) = shrunkFailure(cause, record, cache: cache)
            shrinkTime[cause.contract, default: 0] += Self.seconds(since: shrinkStart)
            shrinks += 1
            if let also = facets[cause], !also.isEmpty {
                failure.message += " (also shows as: " + also.map { "[\($0.contract)] \($0.kind)" }.joined(separator: "; ") + ")"
            }
            let member = CauseGroup.Member(cause: cause, record: record, shown: shown)
            if let index = groups.firstIndex(where: { $0.admits(member) }) {
                groups[index].add(member)
            } else if !full {
                groups.append(CauseGroup(member, failure: failure))
            } else {
                unshrunk.append((cause, record))
            }
        }
        var failures: [String: [ContractFailure]] = [:]
        for group in groups { failures[group.members[0].cause.contract, default: []].append(group.groupedFailure) }
        for (cause, record) in unshrunk {
            failures[cause.contract, default: []].append(ContractFailure(
                message: "\(cause): not shrunk: --max-failures \(maxFailures) causes were shown first (raise it to shrink this one)",
                caseId: "first seen in case \(record.index + 1) of seed \(seed), \(record.count) case\(record.count == 1 ? "" : "s") with this cause",
                seed: seed, replay: replay,
                cause: ContractFailure.Cause(fields: cause.fields, kind: cause.kind, cases: record.count, shrunk: false)))
        }

        // Recording.
        for contract in contractNames where contract != Self.coverageContract {
            var contractFailures = failures[contract] ?? []
            let isProtocol = contract == FlowAnswerChecks.protocolContract
            let checked = isProtocol ? explored.cases : explored.answered
            var failed = explored.failing[contract] ?? 0
            if !isProtocol && explored.cases > 0 && explored.answered == 0 {
                failed = 1
                contractFailures.append(ContractFailure(
                    message: "not checked: no case reached an answer (the adapter answered none of \(explored.cases) questions)",
                    seed: seed, replay: replay))
            }
            // Every case is checked against every contract at once: the exploration's time is the
            // coverage contract's (it decides how many cases run), a contract's own time is the
            // shrinking of its causes, so the rows add up to the group's time.
            recorder.record(
                group: group, contract: contract, casesRun: max(checked, failed), casesFailed: failed, failures: contractFailures,
                seconds: shrinkTime[contract] ?? 0)
        }
        var coverageFailures: [ContractFailure] = []
        if let problem {
            coverageFailures.append(ContractFailure(message: problem, seed: seed, replay: replay))
        } else if !unmet.isEmpty {
            let missed = rows.filter { !$0.met }.map { "\($0.field): \($0.detail) (\($0.hits) hits)" }
            // Entries of fields only flows the app answered unavailable for have: time cannot help.
            let unreachable = BoundaryCatalogue.entries.filter { boundary in
                unmet.contains(boundary.label)
                    && ReportFlowKind.allCases.filter { boundary.field.spec.placement.step(in: $0) != nil }.allSatisfy(explored.unavailableFlows.contains)
            }
            let unavailable = explored.unavailableFlows.map(FlowAnswerChecks.flowName).sorted().joined(separator: " and ")
            let remedy = explored.unavailableFlows.isEmpty
                ? "Raise --budget, or make the adapter answer faster."
                : "The \(unavailable) flow's cases reach no rule: the app answered unavailable to them"
                    + (unreachable.count == unmet.count ? "." : "; for the other entries raise --budget, or make the adapter answer faster.")
            coverageFailures.append(ContractFailure(
                message: "\(missed.count) boundary value(s) of the catalogue reached their rule too rarely (\(verdict); "
                    + "each must reach it in \(ContractReport.percent(percent))% of cases): "
                    + missed.prefix(12).joined(separator: "; ") + (missed.count > 12 ? "; ..." : "")
                    + ". " + remedy,
                seed: seed, replay: replay))
        }
        recorder.record(
            group: group, contract: Self.coverageContract, casesRun: explored.cases, casesFailed: coverageFailures.count,
            failures: coverageFailures, seconds: exploreSeconds)
        return Outcome(
            cases: explored.cases, firstFailureSeconds: explored.firstFailure.map(Self.seconds), causes: ordered.map(\.key),
            coverageMet: unmet.isEmpty && problem == nil)
    }

    /// Why a strict in-process mock (a fresh one, its clock at `instant`) does not create
    /// `payload`, or `nil` when it answers 201. The failure is a cause like any other, so it is
    /// shrunk: a report the backend refuses is shown at its simplest.
    static func backendRefusal(_ payload: JSONValue, at instant: Date) -> (cause: FailureCause, message: String)? {
        let backend = MockBackend(profile: .strict, clock: { instant })
        let response = backend.answer(InProcessTransport.httpRequest(TransportRequest(
            method: "POST", path: "/api/v1/announcements", headers: [("Content-Type", "application/json")],
            body: payload.serializedData())))
        guard response.status != 201 else { return nil }
        let error = (try? JSONValue.parse(response.bodyText))?["error"]
        let code = error?["code"]?.stringValue ?? "no error code"
        let fields = error?["field"]?.stringValue.map { [FlowAnswerChecks.fieldName($0)] } ?? []
        return (
            FailureCause(contract: backendContract, fields: fields, kind: "refused by the backend (\(response.status) \(code))"),
            "the strict mock answers \(response.status) \(response.bodyText)")
    }

    /// The distinct causes, in the order found, and for each the causes folded into it: a cause
    /// whose failing cases all show another cause of the same fields with at least as many
    /// cases (the same defect seen by another contract, or a narrower kind of it) is one of its
    /// facets, not a defect of its own.
    package static func distinct(_ causes: [FailureCause: CauseRecord]) -> (
        causes: [(key: FailureCause, value: CauseRecord)], facets: [FailureCause: [FailureCause]]
    ) {
        // Heaviest first; on a tie the comparison with the reference model, which explains most.
        func rank(_ cause: FailureCause) -> Int { cause.contract == FlowAnswerChecks.sameAsReferenceContract ? 0 : 1 }
        let byWeight = causes.sorted {
            ($1.value.count, rank($0.key), $0.value.order) < ($0.value.count, rank($1.key), $1.value.order)
        }
        var roots: [(key: FailureCause, value: CauseRecord)] = []
        var facets: [FailureCause: [FailureCause]] = [:]
        for entry in byWeight {
            let folding = entry.key.contract != FlowAnswerChecks.protocolContract
            if folding, let root = roots.first(where: {
                $0.key.fields == entry.key.fields && $0.key.contract != FlowAnswerChecks.protocolContract
                    && entry.value.cases.isSubset(of: $0.value.cases)
            }) {
                facets[root.key, default: []].append(entry.key)
            } else {
                roots.append(entry)
            }
        }
        return (roots.sorted { $0.value.order < $1.value.order }, facets)
    }

    /// The failure shown for `cause`: its first case shrunk while the cause stays; and that case.
    private func shrunkFailure(
        _ cause: FailureCause, _ record: CauseRecord, cache: Locked<[FlowCase: Evaluation]>
    ) -> (failure: ContractFailure, shown: FlowCase) {
        let shrinks = cause.contract != FlowAnswerChecks.protocolContract
        let search = property(cause.contract) { flowCase in
            let evaluation = evaluate(flowCase, cache: cache)
            for text in evaluation.labels { label(text) }
            if let found = evaluation.causes.first(where: { $0.cause == cause }) { throw CauseFound(message: found.message) }
            return true
        }
        var shown = record.firstCase
        var original: FlowCase?
        var note = ""
        if case .failed(let failure) = search.check(configuration(shrinks: shrinks)) {
            shown = failure.shrunk
            if failure.shrunk != failure.original { original = failure.original }
            if failure.shrinkSteps > 0 { note = " (shrunk in \(failure.shrinkSteps) steps)" }
        } else if stopSignal?.isStopped == true {
            note = " (not shrunk: the run was interrupted)"
        } else {
            note = " (not shrunk: the first case could not be found again)"
        }
        let evaluation = evaluate(shown, cache: cache)
        let message = evaluation.causes.first { $0.cause == cause }?.message ?? "(the shrunk case no longer shows the cause)"
        let exchange = evaluation.exchange
        let actual = exchange.answerLine ?? {
            if case .failure(let error) = exchange.result { return "(no answer: \(error.description))" }
            return "(no answer)"
        }()
        let failure = ContractFailure(
            message: "\(cause): \(message)\(note)",
            caseId: "question id \(exchange.id); first seen in case \(record.index + 1) of seed \(seed), \(record.count) case\(record.count == 1 ? "" : "s") with this cause",
            request: ReportedRequest(method: "QUESTION", path: isAdapter ? "adapter stdin" : "reference model", body: exchange.question),
            expected: "reference model answers " + AdapterAnswer(evaluation.reference).json(id: exchange.id).serialized(),
            actual: actual, shrunkInput: shrinks ? shown.json : nil, originalInput: shrinks ? original?.json : shown.json,
            seed: seed, replay: replay,
            cause: ContractFailure.Cause(fields: cause.fields, kind: cause.kind, cases: record.count, shrunk: shrinks))
        return (failure, shown)
    }

    /// Seconds from `start` to now.
    package static func seconds(since start: ContinuousClock.Instant) -> Double {
        seconds(ContinuousClock.now - start)
    }

    /// `elapsed` in seconds.
    package static func seconds(_ elapsed: Duration) -> Double {
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
