import Foundation
import PetSpotContractKit
import PetSpotFlowGenerators
import PetSpotPropertyEngine
import PetSpotModel

/// `petspot-contracts run --base-url URL`: the contracts over HTTP against a backend that
/// claims to be production (a staging server, or `petspot-contracts mock --profile production`).
struct RunCommand: RunnerCommand {
    static let spec = CommandSpec(
        name: "run",
        synopsis: "--base-url URL [--cases N] [--seed S] [--admin-token T] [--profile P] [--concurrency K] [--max-requests M] [--timeout SEC] [--max-response-bytes B] [--report-json FILE] [--junit FILE] [--report-html FILE] [--github-annotations] [--no-progress]",
        summary: "Check a running backend over HTTP: every route of backend-contract.md, the catalogs, generated reports.",
        discussion: """
            Staging-safe: at most --max-requests requests (cleanup deletes excepted) and --concurrency at once, each \
            with a --timeout; every microchip number is unique to the run (a random 9-digit prefix and a counter); \
            with an admin token (--admin-token or the PETSPOT_ADMIN_TOKEN environment variable) everything created is \
            deleted at the end, otherwise the report lists what was left. Passwords and tokens are never printed; \
            each failing request comes with a curl line that reads them from $PETSPOT_ADMIN_TOKEN and \
            $PETSPOT_MANAGEMENT_PASSWORD. Against `petspot-contracts mock` the admin token is petspot-admin-token, \
            and the mock's default profile is strict (pass --profile strict, or start it with --profile production). \
            Redirects: one to another origin is never followed (no credential leaves the target), a same-origin one \
            only for GET; the contract sees a redirect not followed as its answer, and the report notes every redirect. \
            Answers longer than --max-response-bytes fail their contract (answers are never decompressed). \
            SIGINT/SIGTERM: no new case starts, cleanup runs, the report so far is printed and written, exit 130/143 \
            (a second signal exits at once). A run that checks fewer than half of its contracts (a small \
            --max-requests) fails its "run coverage" contract: exit 1.
            """,
        options: [
            OptionSpec("--base-url", value: "URL", default: "required", help: "The backend's base URL, e.g. http://127.0.0.1:8080."),
            OptionSpec("--cases", value: "N", default: "20", help: "Generated reports to submit."),
            .seed,
            OptionSpec("--admin-token", value: "T", default: "$PETSPOT_ADMIN_TOKEN, else none", help: "Admin token: delete checks and cleanup."),
            OptionSpec("--profile", value: "P", default: "production", help: "Expected behaviour: production or strict (the project's mock)."),
            OptionSpec("--concurrency", value: "K", default: "4", help: "Requests in flight at most."),
            OptionSpec("--max-requests", value: "M", default: "2000", help: "Request budget of the run (cleanup deletes excepted)."),
            OptionSpec("--timeout", value: "SEC", default: "10", help: "Deadline of each request in seconds, connect to last byte."),
            OptionSpec(
                "--max-response-bytes", value: "B", default: "4194304 (4 MiB)",
                help: "Longest answer body read; a longer one fails its contract."),
            .reportJSON,
            .junit,
            .reportHTML,
            .githubAnnotations,
            .noProgress,
        ],
        examples: [
            "petspot-contracts run --base-url http://127.0.0.1:8080 --profile strict --admin-token petspot-admin-token",
            "PETSPOT_ADMIN_TOKEN=... petspot-contracts run --base-url https://staging.example.com --cases 50 --max-requests 500 --junit contracts.xml",
        ])

    let baseURL: URL
    let cases: Int
    let seed: UInt64
    let adminToken: String?
    /// Whether the admin token came from `--admin-token` (not from `PETSPOT_ADMIN_TOKEN`).
    let adminTokenFromCommandLine: Bool
    let profile: BackendProfile
    let concurrency: Int
    let maxRequests: Int
    let timeout: Double
    /// The longest answer body read (`--max-response-bytes`).
    let maxResponseBytes: Int
    /// The password of a `--base-url` given with credentials (never sent; masked in every output).
    let baseURLPassword: String?
    let reportJSON: String?
    let junit: String?
    let outputs: ReportOutputs
    let showsProgress: Bool
    let arguments: [String]

    init(_ parsed: ParsedArguments, arguments: [String]) throws(RunnerError) {
        try self.init(parsed, arguments: arguments, environment: ProcessInfo.processInfo.environment)
    }

    init(_ parsed: ParsedArguments, arguments: [String], environment: [String: String]) throws(RunnerError) {
        guard let baseURL = try parsed.baseURL("--base-url") else {
            throw .usage("missing --base-url URL (the backend to check, e.g. http://127.0.0.1:8080)", command: "run")
        }
        self.baseURL = baseURL
        cases = try parsed.int("--cases", default: 20, in: 0...100_000)
        seed = try parsed.seed() ?? RunnerSeed.random()
        let commandLineToken = try parsed.nonEmpty("--admin-token")
        adminToken = commandLineToken ?? environment[CurlReproduction.adminTokenVariable].flatMap { $0.isEmpty ? nil : $0 }
        adminTokenFromCommandLine = commandLineToken != nil
        profile = BackendProfile(rawValue: try parsed.choice("--profile", default: "production", among: BackendProfile.allCases.map(\.rawValue))) ?? .production
        concurrency = try parsed.int("--concurrency", default: 4, in: 1...64)
        maxRequests = try parsed.int("--max-requests", default: 2000, in: 1...10_000_000)
        timeout = try parsed.seconds("--timeout", default: 10, in: 0.1...600)
        maxResponseBytes = try parsed.int(
            "--max-response-bytes", default: RunnerHTTPTransport.defaultMaxResponseBytes, in: 1024...(2 * 1024 * 1024 * 1024))
        baseURLPassword = parsed.baseURLCredentials("--base-url")?.password
        (reportJSON, junit) = try parsed.reportFiles()
        outputs = try ReportOutputs(parsed, reportFiles: [reportJSON, junit], environment: environment)
        showsProgress = !parsed.flag("--no-progress")
        self.arguments = arguments
    }

    /// The command that replays the run. A token from the environment is read from it again (no
    /// flag); a token given with `--admin-token` is never printed: the line reads it from
    /// `$PETSPOT_ADMIN_TOKEN`, and ``adminTokenNote`` says to set it.
    var replayCommand: String {
        let words = ["petspot-contracts", "run", "--base-url", baseURL.absoluteString, "--seed", String(seed), "--cases", String(cases), "--profile", profile.rawValue]
        let line = words.map(shellQuoted).joined(separator: " ")
        return adminTokenFromCommandLine ? line + " --admin-token \"$\(CurlReproduction.adminTokenVariable)\"" : line
    }

    /// For a token given with `--admin-token`: where the replay and curl lines take it from.
    var adminTokenNote: String? {
        adminTokenFromCommandLine
            ? "the admin token was given with --admin-token and is never printed: the replay and curl lines read it from "
                + "$\(CurlReproduction.adminTokenVariable), so set that variable to it before running them"
            : nil
    }

    func run(output: RunnerOutput) async throws -> RunnerExitCode {
        let transport = RunnerHTTPTransport(baseURL: baseURL, timeout: timeout, maxResponseBytes: maxResponseBytes)
        let interruption = RunInterruption()
        return try await SignalTrap.shared.with(.graceful { interruption.interrupt($0, output: output) }) {
            try await execute(transport: transport, output: output, interruption: interruption)
        }
    }

    /// Runs every contract through `transport` (tests pass an in-process or deliberately broken one).
    func execute(
        transport base: any AnnouncementTransport, output: RunnerOutput, interruption: RunInterruption = RunInterruption()
    ) async throws -> RunnerExitCode {
        let startedAt = Date()
        output.line("petspot-contracts run: \(baseURL.absoluteString), profile \(profile.rawValue); replay: \(replayCommand)")
        let recorder = ContractRecorder(secrets: SecretStore([adminToken, baseURLPassword]))
        let transport = BudgetedTransport(base, limit: maxRequests, secrets: recorder.secrets)
        interruption.stops(transport)
        let progress = ProgressLine(output: output, label: "run", total: cases, enabled: showsProgress)
        let microchips = MicrochipSequence()
        let (cases, seed) = (self.cases, self.seed)
        let backend = BackendTarget(
            name: baseURL.absoluteString, transport: transport, profile: profile, adminToken: adminToken, microchips: microchips,
            concurrency: concurrency, submissions: { Self.generatedReports(count: cases, seed: seed, now: Date()) },
            baseURL: baseURL)
        let session = ContractSession(
            recorder: recorder, schemas: try ContractSchemas.shared(), seed: seed, replay: replayCommand, cases: cases,
            progress: progress, flows: nil, backend: backend)
        try await ContractRegistry.checkAll(session)
        progress.finish()
        let hint = backend.noteFindings(recorder: recorder)
        if let adminTokenNote { recorder.note(adminTokenNote) }
        recorder.note("microchip numbers of this run start with \(microchips.prefix); \(transport.requestsSent) budgeted requests sent")
        recordRunOutcome(recorder, transport: transport, base: base, interruption: interruption)
        let report = recorder.report(
            command: "run", arguments: arguments, target: baseURL.absoluteString, seed: seed, startedAt: startedAt)
        // The profile hint closes the output, after the report (and before any error writing its files).
        defer { if let hint { output.line("\nhint: " + hint) } }
        try outputs.deliver(report, to: output, json: reportJSON, junit: junit)
        return interruption.exitCode ?? report.exitCode
    }

    /// `count` valid reports of either flow made at `now` (the server's clock judges their
    /// dates), with the reference model's payloads.
    static func generatedReports(count: Int, seed: UInt64, now: Date) -> [(flowCase: FlowCase, payload: CreateAnnouncementRequest)] {
        let generator: Gen<FlowCase> = Gen.element(of: FlowGenerators.timeZones).flatMap { zone in
            let context = ReportContext(timeZone: zone, now: now)
            return FlowGenerators.flow.flatMap { flow in
                FlowGenerators.inputs(flow, .valid, context: context).map { FlowCase(flow: flow, inputs: $0, context: context) }
            }
        }
        return submittedPayloads(generator.samples(count: count, seed: seed), oracle: ReferenceOracle())
    }

    /// The cases `oracle` submits, with their payloads decoded (payloads that do not decode
    /// are left to the flow contracts).
    static func submittedPayloads(_ cases: [FlowCase], oracle: any FlowOracle) -> [(flowCase: FlowCase, payload: CreateAnnouncementRequest)] {
        cases.compactMap { flowCase in
            guard case .success(.submitted(let payload)) = oracle.answer(flowCase).result,
                let request = try? CreateAnnouncementRequest(json: payload)
            else { return nil }
            return (flowCase, request)
        }
    }
}
