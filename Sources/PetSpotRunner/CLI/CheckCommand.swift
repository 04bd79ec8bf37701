import Foundation
import PetSpotConcurrency
import PetSpotPropertyEngine
import PetSpotFlowGenerators
import PetSpotMockBackend
import PetSpotMockTransport

/// `petspot-contracts check`: the main job, with no network.
///
/// Generated Missing and Found flows go through the reference model (or, with `--sut`, a real
/// app's adapter), every answer is checked against the flow contracts and the captured
/// schemas, and every submitted report goes to the in-process strict mock backend.
struct CheckCommand: RunnerCommand {
    static let spec = CommandSpec(
        name: "check",
        synopsis: "[--cases N] [--seed S] [--sut \"CMD\"] [--sut-timeout SEC] [--shrink-seconds SEC] [--report-json FILE] [--junit FILE] [--report-html FILE] [--github-annotations] [--no-mock] [--no-progress]",
        summary: "Check generated report flows against the contracts and the in-process strict mock (no network).",
        discussion: """
            Generates Missing and Found flows (valid and hostile input), runs them through the reference model or, \
            with --sut, through an app's flow adapter (see docs/ADAPTERS.md), checks every answer (schema, status by flow, \
            nothing extra, same as the reference model), then submits every accepted report to the in-process strict \
            mock backend (create, photo upload, read back) and runs the catalog's negative cases and the kept regressions. \
            A failing case is shrunk and printed with its seed and the command line that replays it.
            """,
        options: [
            OptionSpec("--cases", value: "N", default: "200", help: "Generated cases per contract."),
            .seed,
            OptionSpec("--sut", value: "\"CMD\"", default: "none: the reference model", help: "Adapter command line, run with /bin/sh -c."),
            OptionSpec("--sut-timeout", value: "SEC", default: "5", help: "Seconds to wait for each adapter answer."),
            OptionSpec("--shrink-seconds", value: "SEC", default: "10", help: "Time the shrinker may spend on one failure."),
            .reportJSON,
            .junit,
            .reportHTML,
            .githubAnnotations,
            OptionSpec("--no-mock", help: "Check the flow answers only: skip the in-process mock backend."),
            .noProgress,
        ],
        examples: [
            "petspot-contracts check",
            "petspot-contracts check --cases 1000 --seed 42 --junit build/contracts.xml",
            "petspot-contracts check --sut \"./.build/debug/petspot-example-adapter\" --sut-timeout 2",
        ])

    let cases: Int
    let seed: UInt64
    let sut: String?
    let sutTimeout: Double
    let shrinkSeconds: Double
    let reportJSON: String?
    let junit: String?
    let outputs: ReportOutputs
    let showsProgress: Bool
    let usesMock: Bool
    let arguments: [String]

    init(_ parsed: ParsedArguments, arguments: [String]) throws(RunnerError) {
        cases = try parsed.int("--cases", default: 200, in: 1...10_000_000)
        seed = try parsed.seed() ?? RunnerSeed.random()
        sut = try parsed.nonEmpty("--sut")
        sutTimeout = try parsed.seconds("--sut-timeout", default: 5, in: 0.01...3600)
        shrinkSeconds = try parsed.seconds("--shrink-seconds", default: 10, in: 0...3600)
        (reportJSON, junit) = try parsed.reportFiles()
        outputs = try ReportOutputs(parsed, reportFiles: [reportJSON, junit])
        showsProgress = !parsed.flag("--no-progress")
        usesMock = !parsed.flag("--no-mock")
        self.arguments = arguments
    }

    /// The command line that replays this run.
    var replayCommand: String {
        var words = ["petspot-contracts", "check", "--seed", String(seed), "--cases", String(cases)]
        if let sut { words += ["--sut", sut, "--sut-timeout", ContractReport.plainNumber(sutTimeout)] }
        if !usesMock { words.append("--no-mock") }
        return words.map(shellQuoted).joined(separator: " ")
    }

    func run(output: RunnerOutput) async throws -> RunnerExitCode {
        let startedAt = Date()
        output.line("petspot-contracts check: seed \(seed), \(cases) cases per contract (replay: \(replayCommand))")
        let recorder = ContractRecorder()
        let adapter = sut.map { AdapterOracle(command: $0, timeout: sutTimeout) }
        let oracle: any FlowOracle = adapter ?? ReferenceOracle()
        let flows = FlowTarget(oracle: oracle, generator: FlowContracts.defaultGenerator, shrinkSeconds: shrinkSeconds, usesMock: usesMock)
        let flowContractCount = FlowContracts.contractCount(adapter: adapter != nil)
        let progress = ProgressLine(output: output, label: "check", total: cases * flowContractCount, enabled: showsProgress)
        let mock = usesMock ? InProcessMock(oracle: oracle, generator: flows.generator, cases: cases, seed: seed, secrets: recorder.secrets) : nil
        let session = ContractSession(
            recorder: recorder, schemas: try ContractSchemas.shared(), seed: seed, replay: replayCommand, cases: cases,
            progress: progress, flows: flows, backend: mock?.target)
        try await ContractRegistry.checkAll(session)
        if let mock, mock.backend.storedAnnouncementCount != 0 {
            recorder.note("the in-process mock still holds \(mock.backend.storedAnnouncementCount) announcement(s) after cleanup")
        }
        if let adapter {
            if let status = adapter.finish(), status != 0 {
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
        try outputs.deliver(report, to: output, json: reportJSON, junit: junit)
        return report.exitCode
    }
}

/// The in-process strict mock `check` submits to: a fresh ``MockBackend`` whose clock judges
/// each submitted case at the case's own instant, and the real time otherwise.
struct InProcessMock {
    let backend: MockBackend
    let target: BackendTarget

    /// A mock that receives what `oracle` submits for `cases` cases of `generator` from `seed`;
    /// the credentials exchanged with it are learnt into `secrets`.
    init(oracle: any FlowOracle, generator: Gen<FlowCase>, cases: Int, seed: UInt64, secrets: SecretStore = SecretStore()) {
        let clock = Locked<Date?>(nil)
        backend = MockBackend(profile: .strict, clock: { clock.withLock { $0 } ?? Date() })
        secrets.add(backend.adminToken)
        target = BackendTarget(
            name: "the in-process strict mock", transport: BudgetedTransport(InProcessTransport(backend: backend), limit: .max, secrets: secrets),
            profile: .strict, adminToken: backend.adminToken, microchips: MicrochipSequence(), concurrency: 4,
            submissions: {
                await runOnDedicatedThread {
                    RunCommand.submittedPayloads(generator.samples(count: cases, seed: seed), oracle: oracle)
                }
            },
            serverClock: { instant in clock.withLock { $0 = instant } })
    }
}

extension ContractReport {
    /// A number without a trailing `.0`.
    static func plainNumber(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
