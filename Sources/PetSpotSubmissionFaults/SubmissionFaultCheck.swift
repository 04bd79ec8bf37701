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

    /// One scenario as the app and the reference lived it.
    struct Evaluation: Sendable {
        let app: ScenarioRun
        let appProblems: [SubmissionProperty: String]
        let reference: ScenarioRun
        let referenceProblems: [SubmissionProperty: String]

        /// The properties the app breaks and the reference keeps.
        var deviations: [SubmissionProperty] {
            SubmissionProperty.allCases.filter { appProblems[$0] != nil && referenceProblems[$0] == nil }
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
        var faults: [NetworkFault: Int] = [:]
        var connections = 0
        var deviations: [SubmissionProperty: Int] = [:]
        var specBreaks: [SubmissionProperty: Int] = [:]
        var protocolFailures: [(scenario: SubmissionScenario, run: ScenarioRun)] = []
        var declaration: Declaration?
    }

    func run(recorder: ContractRecorder, contracts: [String]) {
        let now = Date()
        let generator = SubmissionScenario.generator(reports: SubmissionScenario.reports(now: now, seed: seed))
        let appRuns = Locked<[SubmissionScenario: ScenarioRun]>([:])
        let referenceRuns = Locked<[SubmissionScenario: ScenarioRun]>([:])
        let disturbed = Locked(0)
        /// Runs `scenario` on `app`, again when the machine disturbed it (at most twice more).
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
                return Evaluation(app: app, appProblems: appProblems, reference: app, referenceProblems: appIsReference ? appProblems : [:])
            }
            let reference = referenceRun(scenario)
            return Evaluation(
                app: app, appProblems: appProblems, reference: reference,
                referenceProblems: reference.isDisturbed ? appProblems : SubmissionProperty.problems(reference))
        }

        // Exploring: every scenario on the app and the reference.
        let state = Locked(Exploration())
        let start = ContinuousClock.now
        _ = Property("submission under faults", generator) { scenario in
            if stopSignal?.isStopped == true { return true }
            let app = appRun(scenario)
            // The first submission question declares the version: only a version 2 answer goes on.
            if !appIsReference, case .failure(let error)? = app.turns.first?.turn.answer, state.withLock({ $0.scenarios == 0 }) {
                state.withLock { $0.declaration = error == .unsupported(version: 2) ? .versionOneOnly(app) : .failed(app, error) }
                throw NoVersion2Answer()
            }
            let evaluation = evaluate(scenario)
            state.withLock { state in
                state.scenarios += 1
                state.connections += evaluation.app.exchanges.count
                for fault in scenario.faults.compactMap({ $0 }) { state.faults[fault, default: 0] += 1 }
                if evaluation.app.protocolError != nil {
                    state.protocolFailures.append((scenario, evaluation.app))
                    return
                }
                state.judged += 1
                for property in evaluation.deviations { state.deviations[property, default: 0] += 1 }
                for property in evaluation.referenceProblems.keys { state.specBreaks[property, default: 0] += 1 }
            }
            return true
        }.check(configuration(shrinks: false))
        let explored = state.withLock { $0 }
        let seconds = FlowContracts.seconds(since: start)

        if let declaration = explored.declaration {
            record(declaration, recorder: recorder, contracts: contracts)
            return
        }

        // Shrinking: each deviation of the app, then each finding against the specification.
        var failures: [SubmissionProperty: ContractFailure] = [:]
        for property in SubmissionProperty.allCases where explored.deviations[property] != nil {
            let search = Property(property.rawValue, generator) { scenario in
                let evaluation = evaluate(scenario)
                if let problem = evaluation.appProblems[property], evaluation.referenceProblems[property] == nil { throw Found(description: problem) }
                return true
            }
            guard case .failed(let failure) = search.check(configuration(shrinks: true)) else { continue }
            let evaluation = evaluate(failure.shrunk)
            failures[property] = ContractFailure(
                message: "\(evaluation.appProblems[property] ?? failure.message) "
                    + "(\(explored.deviations[property] ?? 0) of \(explored.judged) scenarios; the one shown has \(failure.shrunk.faultCount) fault(s), "
                    + "\(failure.shrinkStatus))",
                expected: "what \(reference.name) did in the same scenario: " + Self.answers(evaluation.reference),
                actual: Self.answers(evaluation.app), originalInput: evaluation.app.flowCase.json, seed: seed, replay: replay)
            failures[property]?.steps = evaluation.app.steps(redactor: redactor)
        }
        var findings: [SpecFinding] = []
        for property in SubmissionProperty.allCases where explored.specBreaks[property] != nil {
            // Exploring ran the reference where it broke the property, so the search goes straight
            // to such a scenario (running the reference on no other); shrinking then runs it on
            // every candidate.
            let shrinking = Locked(false)
            let search = Property(property.rawValue, generator) { scenario in
                let known = referenceRuns.withLock { $0[scenario] }
                guard let run = shrinking.withLock({ $0 }) ? referenceRun(scenario) : known else { return true }
                if !run.isDisturbed, let problem = SubmissionProperty.problems(run)[property] {
                    shrinking.withLock { $0 = true }
                    throw Found(description: problem)
                }
                return true
            }
            guard case .failed(let failure) = search.check(configuration(shrinks: true, maxReplays: Self.findingShrinkReplays)) else { continue }
            let run = referenceRun(failure.shrunk)
            let problem = SubmissionProperty.problems(run)[property] ?? failure.message
            findings.append(SpecFinding(
                group: group, property: property.contract,
                message: failure.stopReason.isMinimal ? problem : "\(problem) (the scenario shown is \(failure.shrinkStatus))",
                consequence: Self.consequence(property, run) + " (\(explored.specBreaks[property] ?? 0) of \(explored.judged) scenarios)",
                steps: run.steps(redactor: redactor), replay: replay))
        }

        // Recording.
        for property in SubmissionProperty.allCases {
            let failed = explored.deviations[property] ?? 0
            recorder.record(
                group: group, contract: property.contract, casesRun: explored.judged, casesFailed: failed,
                failures: failures[property].map { [$0] } ?? [], seconds: seconds / Double(SubmissionProperty.allCases.count))
        }
        if !appIsReference {
            var protocolFailures: [ContractFailure] = []
            if let first = explored.protocolFailures.first, let error = first.run.protocolError {
                var failure = ContractFailure(
                    message: "the adapter broke protocol version 2 at turn \(error.turn + 1): \(error.error.description)",
                    request: first.run.turns[error.turn].turn.question.map { ReportedRequest(method: "QUESTION", path: "adapter stdin", body: $0) },
                    actual: first.run.turns[error.turn].turn.answerLine, seed: seed, replay: replay)
                failure.steps = first.run.steps(redactor: redactor)
                protocolFailures.append(failure)
            }
            recorder.record(
                group: group, contract: SubmissionFaultContracts.protocolContract, casesRun: explored.scenarios,
                casesFailed: explored.protocolFailures.count, failures: protocolFailures)
        }
        for finding in findings { recorder.find(finding) }
        let tally = NetworkFault.allCases.compactMap { fault in explored.faults[fault].map { "\(fault) \($0)" } }
        recorder.describe(group: group,
            "\(explored.scenarios) scenarios on \(app.name)"
                + (appIsReference ? "" : " and on \(reference.name)") + ", \(explored.connections) connections, faults applied: "
                + (tally.isEmpty ? "none" : tally.joined(separator: ", ")) + "; request time-out \(ContractReport.plainNumber(settings.requestTimeout)) s; "
                + "\(findings.count) finding(s) against the specification"
                + (disturbed.withLock { $0 } == 0 ? "" : "; \(disturbed.withLock { $0 }) run(s) repeated because the machine delayed a healthy answer past the app's time-out"))
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
    /// with the machine (12 seeds of the default run: 10 to 33 replays to a minimal scenario,
    /// 0.02 to 3.8 s).
    static let findingShrinkReplays = 40

    /// The engine's configuration: the run's scenarios and seed; with `shrinks`, a shrink of at
    /// most `maxReplays` replays and `--shrink-seconds`.
    private func configuration(shrinks: Bool, maxReplays: Int = 200) -> PropertyConfiguration {
        var configuration = PropertyConfiguration(
            cases: settings.scenarios, seed: seed, shrinks: shrinks, maxShrinkSteps: maxReplays, shrinkStallLimit: 80,
            shrinkTimeLimit: .milliseconds(Int64(settings.shrinkSeconds * 1000)), readsEnvironment: false)
        configuration.stopSignal = stopSignal
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

    /// What breaking `property` does to the user, read off the reference's run.
    static func consequence(_ property: SubmissionProperty, _ run: ScenarioRun) -> String {
        switch property {
        case .getsThrough:
            let conflict = run.exchanges.contains { exchange in
                if case .answered(409) = exchange.delivery { return true }
                return false
            }
            if conflict, let microchip = run.microchip {
                return "the user can never send this report: once an announcement with the microchip number \(microchip) was stored and its "
                    + "photo never arrived, every Try Again creates again, the backend refuses it 409 (the number is taken by that "
                    + "announcement), and the app says \"\(SubmissionProperty.wentWrong)\""
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
        case .leavesFlow: return "the user is told the report was sent while it is not listed with its photo"
        case .inputsKept: return "the report sent after a retry is not the one the user entered"
        }
    }
}
