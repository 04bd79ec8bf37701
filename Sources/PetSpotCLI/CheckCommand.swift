import Foundation
import PetSpotAdapterDriving
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotPropertyEngine
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// `petspot-contracts check`: the main job, with no network.
///
/// Generated Missing and Found flows go through the reference model (or, with `--sut`, a real
/// app's adapter), every answer is checked against the flow contracts and the captured
/// schemas, and every submitted report goes to the in-process strict mock backend.
struct CheckCommand: RunnerCommand {
    static let cases = Option.int(
        "--cases", default: CheckSettings.defaults.cases, in: 1...10_000_000,
        help: "Flow cases before coverage is judged (more run while a boundary is undecided, up to 10 x N); reports submitted to the mock.",
        replay: .always)
    static let sut = Option.text("--sut", value: "\"CMD\"", default: "none: the reference model", help: "Adapter command line, run with /bin/sh -c.", replay: .whenGiven)
    static let sutTimeout = Option.seconds(
        "--sut-timeout", default: CheckSettings.defaults.adapterTimeout, in: 0.01...3600, help: "Seconds to wait for each adapter answer.", replay: .alongside("--sut"))
    static let budget = Option.seconds(
        "--budget", default: CheckSettings.defaults.budgetSeconds, in: 0.1...86_400, help: "Seconds the flow cases may take; coverage not met by then fails the run.",
        replay: .whenGiven)
    static let maxFailures = Option.int(
        "--max-failures", default: CheckSettings.defaults.maxFailures, in: 1...1000, help: "Causes of failure shrunk and printed in full (one offending character in several fields is one cause); the rest are listed.")
    static let shrinkSeconds = Option.seconds(
        "--shrink-seconds", default: CheckSettings.defaults.shrinkSeconds, in: 0...3600,
        help: "Time the shrinker may spend on one cause of failure (or one submission scenario's finding).")
    static let submissionScenarios = Option.int(
        "--submission-scenarios", default: SubmissionSettings.defaults.scenarios, in: 0...100_000,
        help: "Reports submitted through the faulty network by the app's own submission code (0: none).", replay: .whenGiven)
    static let submissionRule = Option<SubmissionRule>.choice(
        "--submission-rule", value: "RULE", default: SubmissionSettings.defaults.rule,
        help: "The Try Again rule the reference model follows: spec (report-flows.md: both requests again) or later (the later iteration's: only the failed upload).",
        replay: .whenGiven)
    static let submissionTimeout = Option.seconds(
        "--submission-timeout", default: SubmissionSettings.defaults.requestTimeout, in: 0.05...60, help: "The request time-out the app is given for its submission (seconds).",
        replay: .whenGiven)
    static let requireSubmission = Option.flag(
        "--require-submission",
        help: "Fail when the adapter declares protocol version 1 only (its submission unchecked) instead of noting it.",
        replay: .whenGiven)
    static let submissionScenario = Option<[UInt64]?>(
        OptionSpec(
            "--submission-scenario", value: "CHOICES", default: "none: the generated scenarios",
            help: "Replay one scenario of the submission under faults alone (the dotted numbers a failure's replay line gives); no other group runs."),
        replay: .whenGiven,
        read: { (given: [String], context: OptionContext) throws(RunnerError) -> [UInt64]? in
            guard let text = given.last else { return nil }
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            let choices = parts.compactMap { UInt64($0) }
            guard choices.count == parts.count, choices.count <= 4096 else {
                throw context.usage("invalid value '\(text)' for --submission-scenario: expected whole numbers joined by dots, as a failure's replay line gives them (e.g. 1.0.3.2)")
            }
            return choices
        },
        words: { $0.map { "--submission-scenario " + $0.map(String.init).joined(separator: ".") } })
    static let noMock = Option.flag("--no-mock", help: "Check the flow answers only: skip the in-process mock backend.", replay: .whenGiven)

    static let spec = CommandSpec(
        name: "check",
        summary: "Check generated report flows against the contracts and the in-process strict mock (no network).",
        discussion: """
            Generates Missing and Found flows (valid reports with one or two fields replaced by a value at a rule's \
            edge, from the boundary catalogue the field table's rules define, and some wholly hostile ones), runs them \
            through the reference model or, with --sut, through an app's flow adapter (see docs/ADAPTERS.md), checks \
            every answer (schema, status by flow, nothing extra, same as the reference model), until every boundary of \
            the catalogue has reached its rule (coverage, judged statistically) or the --budget is spent. Every distinct \
            cause of failure (contract, fields, kind of difference; one offending character in several fields is one \
            cause) is shrunk and printed once, up to --max-failures, and every other cause is listed. An adapter that \
            never gives a valid answer (cannot start, exits at once, never flushes, writes a log line or another \
            protocol version on standard output) is a setup error: exit 2 and one paragraph, no report. With --sut, \
            the app's own submission (protocol version 2) runs under faults; an adapter that declares version 1 only \
            is noted and its submission skipped, or fails the run with --require-submission. \
            Then the accepted reports go to the in-process strict mock backend (create, photo upload, read back) and the \
            catalog's negative cases and the kept regressions run.
            """,
        options: [
            CommonOptions.seed, cases, sut, sutTimeout, budget, maxFailures, shrinkSeconds, submissionScenarios, submissionRule, submissionTimeout,
            requireSubmission, submissionScenario,
        ] + ReportOutputs.options + [noMock, CommonOptions.noProgress],
        examples: [
            "petspot-contracts check",
            "petspot-contracts check --cases 1000 --seed 42 --junit build/contracts.xml",
            "petspot-contracts check --sut \"./app-adapter\" --cases 2000 --budget 600 --max-failures 30",
            "petspot-contracts check --sut \"./.build/debug/petspot-example-adapter\" --sut-timeout 2",
        ])

    /// The flow cases, the adapter, the budget and the shrinking.
    let settings: CheckSettings
    let seed: UInt64
    /// How the app's own submission is driven through the faulty network.
    let submission: SubmissionSettings
    let outputs: ReportOutputs
    let showsProgress: Bool
    let arguments: [String]
    /// The command line that replays this run.
    let replayCommand: String

    init(_ parsed: ParsedArguments, arguments: [String]) throws(RunnerError) {
        let options = try parsed.resolve()
        settings = try CheckSettings(
            cases: options[Self.cases], adapterCommand: options[Self.sut], adapterTimeout: options[Self.sutTimeout],
            budgetSeconds: options[Self.budget], maxFailures: options[Self.maxFailures], shrinkSeconds: options[Self.shrinkSeconds],
            usesMock: !options[Self.noMock])
        seed = try options[CommonOptions.seed]
        outputs = try ReportOutputs(options)
        showsProgress = try !options[CommonOptions.noProgress]
        submission = try SubmissionSettings(
            scenarios: options[Self.submissionScenarios], rule: options[Self.submissionRule],
            requestTimeout: options[Self.submissionTimeout], shrinkSeconds: settings.shrinkSeconds,
            requiresVersion2: options[Self.requireSubmission], replayScenario: options[Self.submissionScenario])
        // The submission runs against the mock, scenario by scenario: without either it cannot be required.
        if submission.requiresVersion2 && (!settings.usesMock || submission.scenarios == 0) {
            throw .usage(
                "--require-submission needs the app's submission to run, which "
                    + (settings.usesMock ? "--submission-scenarios 0 turns off" : "--no-mock turns off (it runs against the in-process mock)"),
                command: "check")
        }
        replayCommand = options.replayLine
        self.arguments = arguments
    }

    /// Runs the check; a first SIGINT or SIGTERM stops the flow cases (shrinking included) and
    /// the groups not yet started, and the report so far is written (exit 130 or 143).
    func run(output: RunnerOutput) async throws -> RunnerExitCode {
        let interruption = RunInterruption(command: "check")
        return try await SignalTrap.shared.with(.graceful { interruption.interrupt($0, output: output) }) {
            try await execute(output: output, interruption: interruption)
        }
    }

    /// Runs every group of the check, stopping early once `interruption` has a signal.
    func execute(output: RunnerOutput, interruption: RunInterruption) async throws -> RunnerExitCode {
        let startedAt = Date()
        // Interrupted: no new flow case starts and shrinking ends (the stop signal), then the
        // adapters are stopped, which ends a question in flight (its answer is not counted).
        let stopSignal = StopSignal()
        interruption.onInterrupt { _ in stopSignal.stop() }
        if settings.adapterCommand != nil { interruption.onInterrupt { _ in AdapterProcess.terminateAll() } }
        if !outputs.quiet { output.line("petspot-contracts check: at least \(settings.cases) flow cases, more until every boundary is covered (budget \(ContractReport.plainNumber(settings.budgetSeconds)) s); replay: \(replayCommand)") }
        let recorder = ContractRecorder()
        let adapter = settings.adapterCommand.map { AdapterOracle(command: $0, timeout: settings.adapterTimeout, relayError: { output.errorLine($0) }) }
        let oracle: any FlowOracle = adapter ?? ReferenceOracle()
        let flows = FlowTarget(
            oracle: oracle, makeGenerator: FlowContracts.defaultGenerator, shrinkSeconds: settings.shrinkSeconds, usesMock: settings.usesMock,
            budgetSeconds: settings.budgetSeconds, maxFailures: settings.maxFailures, stopSignal: stopSignal, submission: submission)
        // Coverage decides the count: at most ten times --cases.
        let progress = ProgressLine(output: output, label: "check", total: settings.cases * 10, enabled: showsProgress)
        let (session, mock) = try SessionBuilder(recorder: recorder, seed: seed, replay: replayCommand, cases: settings.cases, progress: progress)
            .checking(flows)
        // An adapter that answered no question submits nothing: the groups after the flow
        // answers would pass on their own (the mock's catalogs, the kept schema cases) and let a
        // dead adapter print PASS lines, so they do not run.
        // A replayed scenario of the submission under faults runs alone.
        let skipped = submission.replayScenario == nil
            ? [] : Set(ContractRegistry.groups.map(\.name)).subtracting([SubmissionSettings.groupName])
        let notRun = try await ContractRegistry.checkAll(session, skipping: skipped, stoppingOn: interruption) { group in
            guard !(group is FlowAnswerContracts), let adapter else { return false }
            return adapter.questionsAsked > 0 && adapter.answeredCount == 0
        }
        if !notRun.heldBack.isEmpty {
            recorder.note(
                "the adapter answered none of \(adapter?.questionsAsked ?? 0) questions; not run: \(notRun.heldBack.joined(separator: ", "))")
        }
        if let mock, mock.backend.storedAnnouncementCount != 0 {
            recorder.note("the in-process mock still holds \(mock.backend.storedAnnouncementCount) announcement(s) after cleanup")
        }
        if let adapter {
            if let status = adapter.finish(), status != 0, interruption.signal == nil {
                recorder.fail(group: FlowAnswerContracts().name, contract: FlowAnswerChecks.protocolContract, ContractFailure(
                    message: "when its standard input closed the adapter exited with status \(status) (or did not exit within 2 s); expected exit status 0",
                    expected: "exit status 0 on end of input", actual: "exit status \(status)", seed: seed, replay: replayCommand))
            }
            if adapter.restartCount > 0 {
                let restarts = min(adapter.restartCount, AdapterOracle.maxRestarts)
                let gaveUp = adapter.restartCount > AdapterOracle.maxRestarts ? ", then given up: later questions failed at once" : ""
                recorder.note("the adapter was restarted \(restarts) time(s) after failures (at most \(AdapterOracle.maxRestarts))\(gaveUp)")
            }
        }
        progress.finish()
        let report = recorder.report(
            command: "check", arguments: Redactor().arguments(arguments), target: oracle.name, seed: seed, startedAt: startedAt)
        try outputs.deliver(report, to: output)
        return interruption.exitCode ?? report.exitCode
    }
}
