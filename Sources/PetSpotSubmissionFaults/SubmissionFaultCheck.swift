import Foundation
import PetSpotAdapterDriving
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotFlowChecks
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel
import PetSpotPropertyEngine
import PetSpotReport
import PetSpotRuntime

/// The exploring and shrinking of ``SubmissionFaultContracts``, on a thread that may block.
struct SubmissionFaultCheck: Sendable {
    let group: String
    let app: any SubmittingApp
    let reference: ReferenceSubmittingApp
    let appIsReference: Bool
    let executor: ScenarioExecutor
    let settings: SubmissionSettings
    let seed: UInt64
    let replay: String
    let stopSignal: StopSignal?
    let redactor: Redactor
    /// The run's live progress line, of which the group draws stages of its own.
    let progress: ProgressLine?

    /// One scenario as the app and the reference lived it.
    struct Evaluation: Sendable {
        let app: ScenarioRun
        let appProblems: [SubmissionProperty: String]
        let reference: ScenarioRun
        let referenceProblems: [SubmissionProperty: String]
        let appIsReference: Bool

        /// The properties the app breaks and the reference keeps. The time-out is judged on the
        /// app alone: the reference gives up at its time-out by construction, so only a loaded
        /// machine can make it wait longer, which says nothing about the app.
        var deviations: [SubmissionProperty] {
            SubmissionProperty.allCases.filter { property in
                guard appProblems[property] != nil else { return false }
                return property == .timeout ? !appIsReference : referenceProblems[property] == nil
            }
        }

        /// The properties the reference breaks: what the rule it follows does to users.
        var specBreaks: [SubmissionProperty] {
            SubmissionProperty.allCases.filter { $0 != .timeout && referenceProblems[$0] != nil }
        }
    }

    private struct Found: Error, CustomStringConvertible {
        let description: String
    }

    /// How an adapter answered the run's first submission question when that was no version 2
    /// answer. A version is declared, never read from a failure (sut-protocol.md).
    private enum Declaration: Sendable {
        /// `{"v": 1, "id": N, "outcome": "unsupported"}`: the adapter speaks only version 1.
        case versionOneOnly(ScenarioRun)
        /// Anything else (a crash, an exit, a line that is no answer, a time-out): the adapter failed.
        case failed(ScenarioRun, AdapterProtocolError)
    }

    /// Ends the exploring when the first submission question got no version 2 answer.
    private struct NoVersion2Answer: Error, CustomStringConvertible {
        var description: String { "the first submission question got no version 2 answer" }
    }

    /// What exploring found.
    private struct Exploration: Sendable {
        var scenarios = 0
        var judged = 0
        /// Scenarios the machine (or an impatient app) disturbed in every run, and the first.
        var unjudged = 0
        var firstUnjudged: (scenario: SubmissionScenario, run: ScenarioRun)?
        var faults: [NetworkFault: Int] = [:]
        var requests = 0
        var deviations: [SubmissionProperty: Int] = [:]
        var specBreaks: [SubmissionProperty: Int] = [:]
        /// The first scenario that showed each deviation, and each finding.
        var firstDeviation: [SubmissionProperty: SubmissionScenario] = [:]
        var firstSpecBreak: [SubmissionProperty: SubmissionScenario] = [:]
        var protocolFailures: [(scenario: SubmissionScenario, run: ScenarioRun)] = []
        var declaration: Declaration?
        /// The input classes of the reports the app sent again after a failure (a second create).
        var retriedClasses: Set<SubmissionInputClass> = []
    }

    /// The group's time bound, in seconds: `scenarios` × (3 s + 4 × `requestTimeout`), what a
    /// scenario of an app that gives up at its time-out costs with room to spare (at most one held
    /// answer, a handful of questions and requests answered in milliseconds, the backend looked
    /// at), plus twice `shrinkSeconds` per property (an app's failure and a finding against the
    /// specification, each shrunk for at most that long). Checked between scenarios and shrink
    /// replays.
    static func timeBound(_ settings: SubmissionSettings) -> Double {
        Double(scenarioCount(settings)) * (3 + 4 * settings.requestTimeout) + 2 * Double(SubmissionProperty.allCases.count) * settings.shrinkSeconds
    }

    /// The scenarios the settings run: one when a scenario is replayed.
    static func scenarioCount(_ settings: SubmissionSettings) -> Int { settings.replayScenario == nil ? settings.scenarios : 1 }

    /// How a failure's scenario is replayed alone: `--submission-scenario` and its choices (dotted,
    /// without the zeros at the end, which a replay draws anyway).
    static func scenarioOption(_ choices: [UInt64]) -> String {
        var kept = choices
        while kept.last == 0 { kept.removeLast() }
        return "--submission-scenario " + (kept.isEmpty ? "0" : kept.map(String.init).joined(separator: "."))
    }

    /// Stops the group's property runs once the run is interrupted or the time bound has passed.
    private final class Clock: Sendable {
        let signal = StopSignal()
        private let deadline: ContinuousClock.Instant
        private let outer: StopSignal?
        private let ranOut = Locked(false)

        init(seconds: Double, outer: StopSignal?) {
            deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
            self.outer = outer
        }

        /// Whether the group must stop now; flips ``signal`` when it must.
        func mustStop() -> Bool {
            if signal.isStopped { return true }
            if outer?.isStopped == true {
                signal.stop()
            } else if ContinuousClock.now >= deadline {
                ranOut.withLock { $0 = true }
                signal.stop()
            }
            return signal.isStopped
        }

        /// Whether the time bound stopped the group.
        var timedOut: Bool { ranOut.withLock { $0 } }
    }

    func run(recorder: ContractRecorder, contracts: [String]) {
        let now = Date()
        let bound = Self.timeBound(settings)
        let clock = Clock(seconds: bound, outer: stopSignal)
        let choicesOf = Locked<[SubmissionScenario: [UInt64]]>([:])
        /// A generator of the run's scenarios (a new schedule each time, so every check of a
        /// property sees the same scenarios), remembering each one's choices for its replay line.
        func makeGenerator() -> Gen<SubmissionScenario> {
            if let replayed = settings.replayScenario {
                let base = SubmissionScenario.generator(now: now)
                return Gen { _ in
                    let scenario = try base.replay(replayed)
                    choicesOf.withLock { $0[scenario] = replayed }
                    return scenario
                }
            }
            let base = SubmissionScenario.generator(now: now)
            return Gen { testCase in
                let scenario = try base.draw(&testCase)
                let choices = testCase.choices
                choicesOf.withLock { $0[scenario] = choices }
                return scenario
            }
        }
        /// The line that replays `scenario` alone.
        func replayLine(_ scenario: SubmissionScenario) -> String {
            guard settings.replayScenario == nil, let choices = choicesOf.withLock({ $0[scenario] }) else { return replay }
            return replay + " " + Self.scenarioOption(choices)
        }
        let appRuns = Locked<[SubmissionScenario: ScenarioRun]>([:])
        let referenceRuns = Locked<[SubmissionScenario: ScenarioRun]>([:])
        let disturbed = Locked(0)
        /// Runs `scenario` on `app`, again when the machine disturbed it (``ScenarioExecutor/runsPerScenario`` runs at most).
        func undisturbedRun(_ scenario: SubmissionScenario, on app: any SubmittingApp) -> ScenarioRun {
            let (run, repeated) = executor.runUndisturbed(scenario, on: app)
            disturbed.withLock { $0 += repeated }
            return run
        }
        func referenceRun(_ scenario: SubmissionScenario) -> ScenarioRun {
            if let known = referenceRuns.withLock({ $0[scenario] }) { return known }
            let run = undisturbedRun(scenario, on: reference)
            referenceRuns.withLock { $0[scenario] = run }
            return run
        }
        func appRun(_ scenario: SubmissionScenario) -> ScenarioRun {
            if appIsReference { return referenceRun(scenario) }
            if let known = appRuns.withLock({ $0[scenario] }) { return known }
            let run = undisturbedRun(scenario, on: app)
            appRuns.withLock { $0[scenario] = run }
            return run
        }
        /// The app's run judged, and the reference's only where the app broke a property (an
        /// app that keeps a property needs no comparison). A disturbed run is not judged.
        func evaluate(_ scenario: SubmissionScenario) -> Evaluation {
            let app = appRun(scenario)
            let appProblems = app.isDisturbed ? [:] : SubmissionProperty.problems(app)
            guard !appIsReference, !appProblems.isEmpty else {
                return Evaluation(
                    app: app, appProblems: appProblems, reference: app, referenceProblems: appIsReference ? appProblems : [:],
                    appIsReference: appIsReference)
            }
            let reference = referenceRun(scenario)
            return Evaluation(
                app: app, appProblems: appProblems, reference: reference,
                referenceProblems: reference.isDisturbed ? appProblems : SubmissionProperty.problems(reference), appIsReference: false)
        }

        // Exploring: every scenario on the app and the reference.
        let scenarioCount = Self.scenarioCount(settings)
        let exploring = progress?.stage("check: \(group)", total: scenarioCount, unit: "scenarios")
        let state = Locked(Exploration())
        let start = ContinuousClock.now
        _ = Property("submission under faults", makeGenerator()) { scenario in
            if clock.mustStop() { return true }
            defer { _ = clock.mustStop() }
            let app = appRun(scenario)
            // The first submission question declares the version: only a version 2 answer goes on.
            if !appIsReference, case .failure(let error)? = app.turns.first?.turn.answer, state.withLock({ $0.scenarios == 0 }) {
                state.withLock { $0.declaration = error == .unsupported(version: 2) ? .versionOneOnly(app) : .failed(app, error) }
                throw NoVersion2Answer()
            }
            let evaluation = evaluate(scenario)
            exploring?.advance(failed: evaluation.deviations.isEmpty ? 0 : 1)
            state.withLock { state in
                state.scenarios += 1
                state.requests += evaluation.app.exchanges.count
                for fault in scenario.faults.compactMap({ $0 }) { state.faults[fault, default: 0] += 1 }
                if evaluation.app.protocolError != nil {
                    state.protocolFailures.append((scenario, evaluation.app))
                    return
                }
                if evaluation.app.isDisturbed {
                    state.unjudged += 1
                    if state.firstUnjudged == nil { state.firstUnjudged = (scenario, evaluation.app) }
                    return
                }
                state.judged += 1
                for property in evaluation.deviations {
                    state.deviations[property, default: 0] += 1
                    if state.firstDeviation[property] == nil { state.firstDeviation[property] = scenario }
                }
                for property in evaluation.specBreaks {
                    state.specBreaks[property, default: 0] += 1
                    if state.firstSpecBreak[property] == nil { state.firstSpecBreak[property] = scenario }
                }
                if evaluation.app.exchanges.filter({ $0.request.map(ScenarioExecutor.isCreate) == true }).count >= 2 {
                    state.retriedClasses.formUnion(SubmissionInputClass.classes(of: evaluation.app.flowCase))
                }
            }
            return true
        }.check(configuration(shrinks: false, cases: scenarioCount, clock: clock))
        exploring?.finish()
        let explored = state.withLock { $0 }
        let seconds = FlowContracts.seconds(since: start)

        if let declaration = explored.declaration {
            record(declaration, recorder: recorder, contracts: contracts)
            return
        }
        let explorationCut = clock.timedOut

        // Shrinking: each deviation of the app, then each finding against the specification.
        var failures: [SubmissionProperty: ContractFailure] = [:]
        for property in SubmissionProperty.allCases {
            guard let first = explored.firstDeviation[property] else { continue }
            let shrinking = progress?.stage("check: \(group), shrinking \(property.rawValue)", total: 200, unit: "replays")
            let search = Property(property.rawValue, makeGenerator()) { scenario in
                if clock.mustStop() { return true }
                defer { _ = clock.mustStop() }
                let evaluation = evaluate(scenario)
                shrinking?.advance()
                if let problem = evaluation.appProblems[property], evaluation.deviations.contains(property) { throw Found(description: problem) }
                return true
            }
            let shown: SubmissionScenario, status: String
            if case .failed(let failure) = search.check(configuration(shrinks: true, cases: scenarioCount, clock: clock)) {
                (shown, status) = (failure.shrunk, failure.shrinkStatus)
            } else {
                (shown, status) = (first, "not shrunk: the group's time bound ran out first")
            }
            shrinking?.finish()
            let evaluation = evaluate(shown)
            failures[property] = ContractFailure(
                message: "\(evaluation.appProblems[property] ?? "the app breaks it") "
                    + "(\(explored.deviations[property] ?? 0) of \(explored.judged) scenarios; the one shown has \(shown.faultCount) fault(s), "
                    + "\(status))",
                expected: "what \(reference.name) did in the same scenario: " + Self.answers(evaluation.reference),
                actual: Self.answers(evaluation.app), originalInput: evaluation.app.flowCase.json, seed: seed, replay: replayLine(shown))
            failures[property]?.steps = evaluation.app.steps(redactor: redactor)
        }
        var findings: [SpecFinding] = []
        for property in SubmissionProperty.allCases {
            guard let first = explored.firstSpecBreak[property] else { continue }
            // Exploring ran the reference where it broke the property, so the search goes straight
            // to such a scenario (running the reference on no other); shrinking then runs it on
            // every candidate.
            let shrinking = Locked(false)
            let search = Property(property.rawValue, makeGenerator()) { scenario in
                if clock.mustStop() { return true }
                defer { _ = clock.mustStop() }
                let known = referenceRuns.withLock { $0[scenario] }
                guard let run = shrinking.withLock({ $0 }) ? referenceRun(scenario) : known else { return true }
                if !run.isDisturbed, let problem = SubmissionProperty.problems(run)[property] {
                    shrinking.withLock { $0 = true }
                    throw Found(description: problem)
                }
                return true
            }
            let shown: SubmissionScenario, minimal: Bool, status: String
            let result = search.check(configuration(shrinks: true, cases: scenarioCount, clock: clock, maxReplays: Self.findingShrinkReplays))
            if case .failed(let failure) = result {
                (shown, minimal, status) = (failure.shrunk, failure.stopReason.isMinimal, failure.shrinkStatus)
            } else {
                (shown, minimal, status) = (first, false, "not shrunk: the group's time bound ran out first")
            }
            let run = referenceRun(shown)
            let problem = SubmissionProperty.problems(run)[property] ?? "the reference breaks it"
            findings.append(SpecFinding(
                group: group, property: property.contract,
                message: settings.rule.findingPrefix + (minimal ? problem : "\(problem) (the scenario shown is \(status))"),
                consequence: Self.consequence(property, run, rule: settings.rule) + " (\(explored.specBreaks[property] ?? 0) of \(explored.judged) scenarios)",
                steps: run.steps(redactor: redactor), replay: replayLine(shown)))
        }

        // Recording.
        let timedOut = clock.timedOut
        let stopReason = "the group's time bound of \(ContractReport.plainNumber(bound.rounded())) s (\(scenarioCount) scenarios × (3 s + 4 × "
            + "\(ContractReport.plainNumber(settings.requestTimeout)) s) + 2 × \(SubmissionProperty.allCases.count) × "
            + "\(ContractReport.plainNumber(settings.shrinkSeconds)) s of shrinking) ran out after \(explored.scenarios) of \(scenarioCount) scenarios"
            + (explorationCut ? "" : ", while shrinking")
        for property in SubmissionProperty.allCases {
            let failed = explored.deviations[property] ?? 0
            if failed == 0 && explorationCut {
                recorder.skip(group: group, contract: property.contract, reason: "not judged on every scenario: " + stopReason)
                continue
            }
            recorder.record(
                group: group, contract: property.contract, casesRun: explored.judged, casesFailed: failed,
                failures: failures[property].map { [$0] } ?? [], seconds: seconds / Double(SubmissionProperty.allCases.count))
        }
        if timedOut {
            recorder.fail(group: group, contract: SubmissionFaultContracts.timeBoundContract, ContractFailure(
                message: stopReason + ": an app that gives up at the request time-out it is given ends far sooner; "
                    + "the contracts not reached are skipped",
                expected: "every scenario run and judged within \(ContractReport.plainNumber(bound.rounded())) s",
                actual: "\(explored.scenarios) of \(scenarioCount) scenarios after \(ContractReport.seconds(FlowContracts.seconds(since: start))) s",
                seed: seed, replay: replay))
        } else {
            recorder.record(group: group, contract: SubmissionFaultContracts.timeBoundContract, casesRun: 1, casesFailed: 0, failures: [])
        }
        recordJudged(explored, recorder: recorder, replayLine: replayLine)
        if !appIsReference {
            var protocolFailures: [ContractFailure] = []
            if let first = explored.protocolFailures.first, let error = first.run.protocolError {
                var failure = ContractFailure(
                    message: "the adapter broke protocol version 2 at turn \(error.turn + 1): \(error.error.description)",
                    request: first.run.turns[error.turn].turn.question.map { ReportedRequest(method: "QUESTION", path: "adapter stdin", body: $0) },
                    actual: first.run.turns[error.turn].turn.answerLine, seed: seed, replay: replayLine(first.scenario))
                failure.steps = first.run.steps(redactor: redactor)
                protocolFailures.append(failure)
            }
            recorder.record(
                group: group, contract: SubmissionFaultContracts.protocolContract, casesRun: explored.scenarios,
                casesFailed: explored.protocolFailures.count, failures: protocolFailures)
        }
        for finding in findings { recorder.find(finding) }
        let tally = NetworkFault.allCases.compactMap { fault in explored.faults[fault].map { "\(fault) \($0)" } }
        let missedClasses = SubmissionInputClass.allCases.filter { !explored.retriedClasses.contains($0) }
        recorder.describe(group: group,
            "\(explored.scenarios) scenarios on \(app.name)"
                + (appIsReference ? "" : " and on \(reference.name)") + ", \(explored.requests) requests, faults applied: "
                + (tally.isEmpty ? "none" : tally.joined(separator: ", ")) + "; request time-out \(ContractReport.plainNumber(settings.requestTimeout)) s "
                + "(a held answer held until the app gives up, at most \(ContractReport.plainNumber(executor.holdLimit)) s; the app may wait "
                + "\(ContractReport.plainNumber(ScenarioExecutor.longestAllowedWait(requestTimeout: settings.requestTimeout))) s); "
                + "input classes sent again after a failure: \(SubmissionInputClass.allCases.count - missedClasses.count) of \(SubmissionInputClass.allCases.count)"
                + (missedClasses.isEmpty || settings.replayScenario != nil ? "" : " (not: " + missedClasses.map(\.rawValue).joined(separator: "; ") + ")")
                + "; \(findings.count) finding(s) against the specification"
                + (disturbed.withLock { $0 } == 0 ? "" : "; \(disturbed.withLock { $0 }) run(s) repeated because the machine delayed a healthy answer past the app's time-out")
                + (explored.unjudged == 0 ? "" : "; \(explored.unjudged) scenario(s) not judged: disturbed in each of their runs")
                + (timedOut ? "; stopped: " + stopReason : ""))
    }

    /// Whether `unjudged` of `scenarios` is too many for a verdict: more than a quarter. A loaded
    /// machine rarely disturbs a scenario in each of its runs; an app that gives up before a
    /// healthy answer comes is disturbed in every one, and must not pass on scenarios never judged.
    static func tooManyUnjudged(_ unjudged: Int, of scenarios: Int) -> Bool { unjudged > 0 && unjudged * 4 > scenarios }

    /// Records ``SubmissionFaultContracts/judgedContract``: it fails when too many scenarios were
    /// disturbed in every run (``tooManyUnjudged(_:of:)``), showing the first.
    private func recordJudged(_ explored: Exploration, recorder: ContractRecorder, replayLine: (SubmissionScenario) -> String) {
        let scenarios = explored.judged + explored.unjudged
        guard Self.tooManyUnjudged(explored.unjudged, of: scenarios), let first = explored.firstUnjudged else {
            recorder.record(group: group, contract: SubmissionFaultContracts.judgedContract, casesRun: scenarios, casesFailed: 0, failures: [])
            return
        }
        var failure = ContractFailure(
            message: "\(explored.unjudged) of \(scenarios) scenarios could not be judged: in each of their \(ScenarioExecutor.runsPerScenario) runs "
                + "the app gave up on a "
                + "healthy answer, which the proxy forwards at once (its request time-out is "
                + "\(ContractReport.plainNumber(settings.requestTimeout)) s). Either the app gives up before its time-out, or the machine "
                + "is too loaded to check it; the properties were not judged on them",
            expected: "the app waits for each healthy answer, up to its request time-out",
            actual: Self.answers(first.run), seed: seed, replay: replayLine(first.scenario))
        failure.steps = first.run.steps(redactor: redactor)
        recorder.record(
            group: group, contract: SubmissionFaultContracts.judgedContract, casesRun: scenarios, casesFailed: explored.unjudged, failures: [failure])
    }

    /// The note a run without the app's submission carries at the top of its report.
    static let versionOneOnlyNote = "the app's own submission was not checked: the adapter declares protocol version 1 only"

    /// Records the group's verdict when the first submission question got no version 2 answer:
    /// a declared version 1 is a note and skipped contracts (a failure with
    /// `--require-submission`); anything else fails the protocol contract, naming what happened.
    private func record(_ declaration: Declaration, recorder: ContractRecorder, contracts: [String]) {
        let protocolContract = SubmissionFaultContracts.protocolContract
        let run: ScenarioRun
        let failure: ContractFailure?
        let skipReason: String
        switch declaration {
        case .versionOneOnly(let declared):
            run = declared
            recorder.leadingNote(
                Self.versionOneOnlyNote + " (it answered \"unsupported\" to the first submission question); "
                    + (settings.requiresVersion2
                        ? "--require-submission makes that a failure"
                        : "docs/ADAPTERS.md, section 4, shows how to add version 2, and --require-submission makes this a failure"))
            skipReason = "the adapter declares protocol version 1 only"
            failure = settings.requiresVersion2
                ? ContractFailure(
                    message: "the adapter declares protocol version 1 only (it answered \"unsupported\" to the first submission question), "
                        + "and --require-submission requires version 2: the app's own submission was not checked",
                    seed: seed, replay: replay)
                : nil
        case .failed(let failed, let error):
            run = failed
            skipReason = "not checked: the adapter failed its first submission question"
            failure = ContractFailure(message: Self.firstQuestionFailure(error, standardError: failed.turns[0].turn.standardError), seed: seed, replay: replay)
        }
        guard var failure else {
            for contract in contracts { recorder.skip(group: group, contract: contract, reason: skipReason) }
            return
        }
        let turn = run.turns[0].turn
        failure.request = turn.question.map { ReportedRequest(method: "QUESTION", path: "adapter stdin", body: $0) }
        failure.actual = turn.answerLine
        failure.steps = run.steps(redactor: redactor)
        recorder.record(group: group, contract: protocolContract, casesRun: 1, casesFailed: 1, failures: [failure])
        for contract in contracts where contract != protocolContract { recorder.skip(group: group, contract: contract, reason: skipReason) }
    }

    /// What an adapter did with the run's first submission question, when it failed it: `the
    /// adapter crashed (exit 70) on its first submission question: <its standard error>`.
    static func firstQuestionFailure(_ error: AdapterProtocolError, standardError: StandardErrorExcerpt) -> String {
        let what = switch error {
        case .crashed(let signal): "the adapter crashed (\(SignalTrap.name(signal))) on its first submission question"
        case .exited(let status?) where status != 0: "the adapter crashed (exit \(status)) on its first submission question"
        case .exited(let status): "the adapter exited\(status.map { " (exit \($0))" } ?? "") on its first submission question"
        default: "the adapter failed its first submission question (\(error.description))"
        }
        return what + (standardError.isEmpty ? ", writing nothing on standard error" : ": " + standardError.joined)
            + ". A version is declared, never read from a failure: an adapter that speaks only version 1 answers every version 2 "
            + "question {\"v\": 1, \"id\": N, \"outcome\": \"unsupported\"}"
    }

    /// The most replays a finding against the specification is shrunk with (and `--shrink-seconds`
    /// at most). A count, not seconds, so that a seed shows the same findings on every machine,
    /// loaded or not: its candidates wait out the reference's time-outs, and their time swings
    /// with the machine (0.02 to 3.8 s each). The report shrinks field by field too: 9 seeds of
    /// the default run took 28 to 109 replays to a minimal scenario.
    static let findingShrinkReplays = 160

    /// The engine's configuration: `cases` scenarios from the run's seed; with `shrinks`, a shrink
    /// of at most `maxReplays` replays and `--shrink-seconds`; stopped by `clock`.
    private func configuration(shrinks: Bool, cases: Int, clock: Clock, maxReplays: Int = 200) -> PropertyConfiguration {
        var configuration = PropertyConfiguration(
            cases: cases, seed: seed, shrinks: shrinks, maxShrinkSteps: maxReplays, shrinkStallLimit: 80,
            shrinkTimeLimit: .milliseconds(Int64(settings.shrinkSeconds * 1000)), readsEnvironment: false)
        configuration.stopSignal = clock.signal
        return configuration
    }

    /// The app's answers, turn by turn: `submit: the alert "..."; Try Again: ...`.
    static func answers(_ run: ScenarioRun) -> String {
        run.turns.map { turn -> String in
            let action = switch turn.action {
            case .submit: "submit"
            case .tryAgain: "Try Again"
            case .cancel: "Cancel"
            }
            switch turn.turn.answer {
            case .success(let answer): return "\(action): \(answer)"
            case .failure(let error): return "\(action): \(error.description)"
            }
        }.joined(separator: "; ")
    }

    /// What breaking `property` does to the user, read off the reference's run under `rule`.
    static func consequence(_ property: SubmissionProperty, _ run: ScenarioRun, rule: SubmissionRule) -> String {
        switch property {
        case .getsThrough:
            let conflict = run.exchanges.contains { $0.delivery.writtenStatus == 409 }
            if conflict, let microchip = run.microchip {
                let again = rule == .spec
                    ? "every Try Again creates again"
                    : "Try Again creates again (the app never learnt that announcement's id, so it cannot retry only the upload)"
                return "the user can never send this report: once an announcement with the microchip number \(microchip) was stored and its "
                    + "photo never arrived, \(again), the backend refuses it 409 (the number is taken by that announcement), and the app says "
                    + "\"\(SubmissionProperty.wentWrong)\""
            }
            return "the user cannot get the report through although the network is healthy again"
        case .oneAnnouncement:
            let leftovers = run.created.filter { $0.existsAtEnd }.dropLast()
            let hidden = leftovers.filter { $0.photoURL == nil }
            if !hidden.isEmpty {
                return "an announcement the user never sees stays on the backend: it has no photo, so the list never shows it and the app "
                    + "cannot delete it" + (run.microchip.map { "; it keeps the microchip number \($0) taken" } ?? "")
            }
            return "the same pet is listed twice: Try Again after a lost answer created a second announcement with the photo"
        case .alert: return "the user is told the wrong reason for the failure"
        case .timeout: return "the user waits far longer than the app was told to before learning the report was not sent"
        case .leavesFlow: return "the user is told the report was sent while it is not listed with its photo"
        case .inputsKept: return "the report sent after a retry is not the one the user entered"
        }
    }
}

extension SubmissionRule {
    /// How a finding under this rule begins: the rule the reference follows, which cannot keep the
    /// property.
    var findingPrefix: String {
        switch self {
        case .spec: "under report-flows.md's rule (Try Again repeats both requests): "
        case .later: "under the later iteration's rule (--submission-rule later: after a stored create, Try Again retries only the upload): "
        }
    }
}
