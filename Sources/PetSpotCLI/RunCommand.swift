import Foundation
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel
import PetSpotPropertyEngine
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// `petspot-contracts run --base-url URL`: the contracts over HTTP against a backend that
/// claims to be production (a staging server, or `petspot-contracts mock --profile production`).
struct RunCommand: RunnerCommand {
    /// The backend's base URL, and the password of credentials written into it (never sent).
    struct BaseURL: Sendable {
        /// The URL without credentials.
        let url: URL
        /// The password of a URL given as `http://user:password@host` (masked in every output).
        let password: String?
    }

    /// The admin token, and whether it came from `--admin-token` (not `PETSPOT_ADMIN_TOKEN`).
    struct AdminToken: Sendable {
        /// The token.
        let value: String
        /// Given with `--admin-token`: the replay and curl lines read it from the variable.
        let fromCommandLine: Bool
    }

    static let baseURL = Option<BaseURL>(
        OptionSpec("--base-url", value: "URL", default: "required", help: "The backend's base URL, e.g. http://127.0.0.1:8080."),
        replay: .always,
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let text = given.last else {
                throw context.usage("missing --base-url URL (the backend to check, e.g. http://127.0.0.1:8080)")
            }
            let url = try ParsedArguments.baseURL(text, flag: "--base-url", command: context.command)
            return BaseURL(url: url, password: ParsedArguments.baseURLCredentials(text)?.password)
        }, words: { "--base-url \(shellQuoted($0.url.absoluteString))" })
    static let cases = Option.int("--cases", default: 20, in: 0...100_000, help: "Generated reports to submit.", replay: .always)
    /// `--profile P`; when absent the profile is detected from the probe sent before the first
    /// contract (``detectProfile(from:)``), and written into the replay line.
    static let profile = Option<BackendProfile?>(
        OptionSpec(
            "--profile", value: "P", default: "detected: strict when the target words errors as the project's strict mock, else production",
            help: "Expected behaviour: production, or strict (the project's mock). One of: production, strict."),
        replay: .whenGiven,
        read: { (given: [String], context: OptionContext) throws(RunnerError) -> BackendProfile? in
            guard !given.isEmpty else { return nil }
            return try Option<BackendProfile>.choice("--profile", value: "P", default: .production, help: "").resolveValue(given, in: context)
        }, words: { $0.map { "--profile \($0.rawValue)" } })
    /// A token given with `--admin-token` is never printed: the replay line reads it from
    /// `$PETSPOT_ADMIN_TOKEN`, and ``adminTokenNote`` says to set it; one from the environment is
    /// read from it again (no flag). A token with a control character (a line break read from a
    /// file) could never be sent in a header: a usage error (``checkedToken(_:from:_:)``).
    static let adminToken = Option<AdminToken?>(
        OptionSpec("--admin-token", value: "T", default: "$PETSPOT_ADMIN_TOKEN, else none", help: "Admin token: delete checks and cleanup."),
        replay: .always,
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            if let token = try Option<String?>.nonEmpty(given.last, "--admin-token", context) {
                return AdminToken(value: try checkedToken(token, from: "--admin-token", context), fromCommandLine: true)
            }
            let variable = CurlReproduction.adminTokenVariable
            guard let token = context.environment[variable], !token.isEmpty else { return nil }
            return AdminToken(value: try checkedToken(token, from: "the \(variable) environment variable", context), fromCommandLine: false)
        }, words: { $0?.fromCommandLine == true ? "--admin-token \"$\(CurlReproduction.adminTokenVariable)\"" : nil })
    /// `--allow-leftovers`: without an admin token the groups that create announcements are
    /// skipped (nothing they create could be deleted); with this flag they run, and what they
    /// create stays on the target, listed in the report. Nothing changes with a token.
    static let allowLeftovers = Option.flag(
        "--allow-leftovers",
        help: "Without an admin token, run the groups that create announcements anyway: what they create stays on the target, listed in the report.",
        replay: .whenGiven)
    static let concurrency = Option.int("--concurrency", value: "K", default: 4, in: 1...64, help: "Requests in flight at most.")
    static let maxRequests = Option.int(
        "--max-requests", value: "M", default: 2000, in: 1...10_000_000, help: "Request budget of the run (cleanup deletes excepted).")
    static let timeout = Option.seconds("--timeout", default: 10, in: 0.1...600, help: "Deadline of each request in seconds, connect to last byte.")
    /// The run's own deadline. The default, 10 minutes, is far above what a default run takes
    /// against a healthy staging server (about 500 requests: seconds, a minute at 0.5 s a request),
    /// and far below CI job limits (GitHub Actions: 6 hours), so that the run, not the CI runner,
    /// ends a run against a target that stopped answering: with its cleanup and its report.
    static let deadline = Option.seconds(
        "--deadline", default: 600, in: 1...86_400,
        help: "Seconds the whole run may take; then no new request is sent, cleanup runs, the report is written (exit 1).")
    static let maxTimeouts = Option.int(
        "--max-timeouts", default: BackendTarget.defaultMaxConsecutiveTimeouts, in: 1...1_000,
        help: "Requests timing out in a row that stop a contract group (its other contracts are skipped) or the cleanup.")
    /// `--list-depth N`: the announcements with a photo the list-depth contract makes visible to
    /// one list query; absent, a count drawn from the seed (``ListDepth/drawnRange``), which the
    /// replay line's seed draws again.
    static let listDepth = Option<ListDepth>(
        OptionSpec(
            "--list-depth", value: "N",
            default: "drawn from the seed, \(ListDepth.drawnRange.lowerBound) to \(ListDepth.drawnRange.upperBound)",
            help: "Announcements with a photo one list query must show all of (3 requests each, deleted after); 0: none."),
        replay: .whenGiven,
        read: { (given: [String], context: OptionContext) throws(RunnerError) -> ListDepth in
            guard !given.isEmpty else { return .drawn }
            return .given(try Option<Int>.int("--list-depth", default: 0, in: 0...50_000, help: "").resolveValue(given, in: context))
        }, words: { depth -> String? in
            guard case .given(let count) = depth else { return nil }
            return "--list-depth \(count)"
        })
    static let maxResponseBytes = Option.int(
        "--max-response-bytes", value: "B", default: RunnerHTTPTransport.defaultMaxResponseBytes, in: 1024...(2 * 1024 * 1024 * 1024),
        defaultText: "\(RunnerHTTPTransport.defaultMaxResponseBytes) (4 MiB)", help: "Longest answer body read; a longer one fails its contract.")

    static let spec = CommandSpec(
        name: "run",
        summary: "Check a running backend over HTTP: every route of backend-contract.md, the catalogs, generated reports.",
        discussion: """
            Staging-safe: at most --max-requests requests (cleanup deletes excepted) and --concurrency at once, each \
            with a --timeout; every microchip number is unique to the run (a random 9-digit prefix and a counter); \
            with an admin token (--admin-token or the PETSPOT_ADMIN_TOKEN environment variable) everything created is \
            deleted at the end. Without one, nothing created could be deleted: the run says so before its first request \
            and skips the groups that create announcements (so it fails its "run coverage" contract), unless \
            --allow-leftovers, which runs them and lists what is left. Passwords and tokens are never printed; \
            each failing request comes with a curl line that reads them from $PETSPOT_ADMIN_TOKEN and \
            $PETSPOT_MANAGEMENT_PASSWORD. Against `petspot-contracts mock` the admin token is petspot-admin-token. \
            One request before the first contract (POST /api/v1/announcements with {}, which creates nothing) tells, \
            without --profile, the profile: strict when the answer is worded as the project's strict mock words it (the \
            mock's default), production otherwise; the line that starts the run says which, and the replay line keeps it. \
            No answer to it is an unreachable target (exit 3); a 404 to it (a base URL with a wrong path) is a configuration \
            error (exit 2). With an admin token, a delete of an unknown id with the token follows: any answer but 404 (401: \
            the token is not the server's; 431: too long for its headers; ...), or none, is a configuration error (exit 2), \
            before anything is created. \
            Redirects: one to another origin is never followed (no credential leaves the target), a same-origin one \
            only for GET; the contract sees a redirect not followed as its answer, and the report notes every redirect. \
            Answers longer than --max-response-bytes fail their contract (answers are never decompressed); a failure \
            keeps only the start of a long answer. --deadline bounds the whole run: then no new request is sent, cleanup \
            runs and the report is written (exit 1). A group whose requests time out --max-timeouts times in a row \
            stops (the breaker), its other contracts skipped. \
            SIGINT/SIGTERM: no new case starts, cleanup runs, the report so far is printed and written, exit 130/143 \
            (a second signal exits at once, after printing the ids not yet deleted and writing them to --report-json). \
            A run that checks fewer than half of its contracts (a small --max-requests, no admin token) fails its \
            "run coverage" contract: exit 1.
            """,
        options: [
            baseURL, CommonOptions.seed, cases, profile, adminToken, allowLeftovers, concurrency, maxRequests, timeout, deadline, maxTimeouts,
            maxResponseBytes, listDepth,
        ]
            + ReportOutputs.options + [CommonOptions.noProgress],
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
    /// Without an admin token, whether the groups that create run anyway (`--allow-leftovers`).
    let allowsLeftovers: Bool
    /// The profile given with `--profile`, or `nil`: detected when the run starts.
    let profile: BackendProfile?
    let concurrency: Int
    let maxRequests: Int
    let timeout: Double
    /// Seconds the whole run may take (`--deadline`).
    let deadlineSeconds: Double
    /// Requests timing out in a row that stop a group (`--max-timeouts`).
    let maxTimeouts: Int
    /// The longest answer body read (`--max-response-bytes`).
    let maxResponseBytes: Int
    /// Announcements with a photo one list query must show (`--list-depth`).
    let listDepth: ListDepth
    /// The password of a `--base-url` given with credentials (never sent; masked in every output).
    let baseURLPassword: String?
    let outputs: ReportOutputs
    let showsProgress: Bool
    let arguments: [String]
    /// The command that replays the run.
    let replayCommand: String

    init(_ parsed: ParsedArguments, arguments: [String]) throws(RunnerError) {
        try self.init(parsed, arguments: arguments, environment: ProcessInfo.processInfo.environment)
    }

    init(_ parsed: ParsedArguments, arguments: [String], environment: [String: String]) throws(RunnerError) {
        let options = try parsed.resolve(environment: environment)
        let base = try options[Self.baseURL]
        baseURL = base.url
        baseURLPassword = base.password
        cases = try options[Self.cases]
        seed = try options[CommonOptions.seed]
        let token = try options[Self.adminToken]
        adminToken = token?.value
        adminTokenFromCommandLine = token?.fromCommandLine ?? false
        allowsLeftovers = try options[Self.allowLeftovers]
        profile = try options[Self.profile]
        concurrency = try options[Self.concurrency]
        maxRequests = try options[Self.maxRequests]
        timeout = try options[Self.timeout]
        deadlineSeconds = try options[Self.deadline]
        maxTimeouts = try options[Self.maxTimeouts]
        maxResponseBytes = try options[Self.maxResponseBytes]
        listDepth = try options[Self.listDepth]
        outputs = try ReportOutputs(options)
        showsProgress = try !options[CommonOptions.noProgress]
        replayCommand = options.replayLine
        self.arguments = arguments
    }

    /// `token` when it can be sent in a header: a usage error naming `source` and the byte offset
    /// of its first control character otherwise (the token itself is never printed).
    static func checkedToken(_ token: String, from source: String, _ context: OptionContext) throws(RunnerError) -> String {
        var offset = 0
        for scalar in token.unicodeScalars {
            if DisplayText.needsEscape(scalar) {
                throw context.usage(
                    "the admin token from \(source) contains the control character \(DisplayText.escape(scalar)) at byte offset \(offset) "
                        + "(a line break read from a file?): it cannot be sent in an Authorization header; remove it")
            }
            offset += String(scalar).utf8.count
        }
        return token
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

    /// Runs every contract through `transport` (tests pass an in-process or deliberately broken
    /// one), until `deadline` (by default `--deadline` from now; tests may end it themselves), with
    /// a progress line on the real clock or on `progressClock` (tests).
    func execute(
        transport base: any AnnouncementTransport, output: RunnerOutput, interruption: RunInterruption = RunInterruption(),
        deadline given: RunDeadline? = nil, progressClock: ProgressLine.Elapsed? = nil
    ) async throws -> RunnerExitCode {
        let startedAt = Date()
        let recorder = ContractRecorder(secrets: SecretStore([adminToken, baseURLPassword]))
        let transport = BudgetedTransport(base, limit: maxRequests, secrets: recorder.secrets)
        interruption.stops(transport)
        // Before the first request: what a run without an admin token leaves out, or leaves behind.
        if adminToken == nil, !outputs.quiet {
            for line in try withoutAdminTokenLines(transport) { output.line(line) }
        }
        let deadline = given ?? RunDeadline(seconds: deadlineSeconds)
        deadline.start(stopping: transport, output: output)
        defer { deadline.cancel() }
        // The probe: no answer is an unreachable target, no API under the base URL a setup
        // mistake; the profile is given, or told by the probe's answer (and then written into
        // the replay line, so that a replay expects the same).
        var profileLine = "given with --profile"
        let profile: BackendProfile
        var replayCommand = self.replayCommand
        let probe = await Self.sendProfileProbe(transport)
        if case .failure(let error)? = probe { throw Self.unreachable(baseURL, error) }
        let probeAnswer = try? probe?.get()
        if let noAPI = Self.noCreateRoute(probeAnswer, baseURL: baseURL) { throw noAPI }
        if let given = self.profile {
            profile = given
        } else {
            (profile, profileLine) = Self.detectProfile(from: probeAnswer)
            replayCommand += " --profile \(profile.rawValue)"
        }
        if !outputs.quiet { output.line("petspot-contracts run: \(baseURL.absoluteString), profile \(profile.rawValue) (\(profileLine)); replay: \(replayCommand)") }
        // A token the server refuses, or answers otherwise than documented, is a setup mistake,
        // not a backend defect: said before anything is created, rather than as failed delete
        // contracts and leftovers.
        if let adminToken {
            try await Self.checkAdminToken(
                adminToken, from: adminTokenFromCommandLine ? "--admin-token" : CurlReproduction.adminTokenVariable, transport)
        }
        let progress = ProgressLine(output: output, label: "run", total: cases, enabled: showsProgress, elapsed: progressClock)
        defer { progress.finish() }
        let (session, backend) = try SessionBuilder(recorder: recorder, seed: seed, replay: replayCommand, cases: cases, progress: progress)
            .running(
                against: transport, name: baseURL.absoluteString, profile: profile, adminToken: adminToken, concurrency: concurrency,
                baseURL: baseURL, maxConsecutiveTimeouts: maxTimeouts, createsWithoutAdminToken: allowsLeftovers, listDepth: listDepth)
        // A second signal exits at once: it first lists what is not deleted, on standard error and
        // in the JSON report.
        let exitReport = SignalTrap.shared.register(.cleanup { [self] in
            reportUndeletedOnExit(backend: backend, recorder: recorder, output: output, startedAt: startedAt)
        })
        defer { exitReport.end() }
        try await ContractRegistry.checkAll(session)
        progress.finish()
        let hint = backend.noteFindings(recorder: recorder)
        if let adminTokenNote { recorder.note(adminTokenNote) }
        recorder.note("microchip numbers of this run start with \(backend.microchips.prefix); \(transport.requestsSent) budgeted requests sent")
        recordRunOutcome(recorder, transport: transport, base: base, interruption: interruption, replay: replayCommand, deadline: deadline)
        // The profile hint is the last note: right above the verdict, after every failure.
        if let hint { recorder.note("hint: " + hint) }
        let report = recorder.report(
            command: "run", arguments: arguments, target: baseURL.absoluteString, seed: seed, startedAt: startedAt)
        try outputs.deliver(report, to: output)
        return interruption.exitCode ?? report.exitCode
    }

    /// The groups of a run that create announcements, in registry order, and the other groups
    /// that apply (read from a session against `transport` that sends nothing).
    func groupsByCreation(_ transport: BudgetedTransport) throws(RunnerError) -> (creating: [String], other: [String]) {
        let (session, _) = try SessionBuilder(recorder: ContractRecorder(), seed: seed, replay: replayCommand, cases: cases)
            .running(against: transport, name: baseURL.absoluteString, profile: profile ?? .production, adminToken: nil, concurrency: concurrency, baseURL: baseURL)
        var creating: [String] = [], other: [String] = []
        for group in ContractRegistry.groups where group.applies(to: session) {
            if let backendGroup = group as? any BackendContractGroup, backendGroup.createsAnnouncements {
                creating.append(group.name)
            } else {
                other.append(group.name)
            }
        }
        return (creating, other)
    }

    /// What a run without an admin token says before its first request: which groups it skips
    /// and why, and how to get full coverage; or, with `--allow-leftovers`, that what it creates
    /// stays on the target.
    func withoutAdminTokenLines(_ transport: BudgetedTransport) throws(RunnerError) -> [String] {
        let token = "--admin-token or \(CurlReproduction.adminTokenVariable)"
        if allowsLeftovers {
            return [
                "petspot-contracts run: no admin token (\(token)) and --allow-leftovers: every announcement the run creates stays on the "
                    + "target, listed in the report with its microchip number (delete it by hand); the contracts that need the token are skipped"
            ]
        }
        let groups = try groupsByCreation(transport)
        return [
            "petspot-contracts run: no admin token (\(token)): nothing the run creates could be deleted, so it creates nothing: "
                + "\(groups.creating.count) groups that create announcements are skipped (\(groups.creating.joined(separator: ", "))); "
                + "only \(groups.other.joined(separator: ", ")) run",
            "petspot-contracts run: for full coverage give the server's admin token (everything created is deleted at the end), or "
                + "--allow-leftovers to create without it and list what is left; a run that checks fewer than half of its contracts fails",
        ]
    }

    /// The error for a target that did not answer the run's first request (the profile probe):
    /// unreachable (exit 3), before anything is claimed about it.
    static func unreachable(_ baseURL: URL, _ error: TransportError) -> RunnerError {
        .unreachable(
            "cannot reach \(baseURL.absoluteString): \(error.description) (the run's first request, POST /api/v1/announcements {}, "
                + "got no answer it could read; nothing was created)")
    }

    /// Checks `token` (given with `source`) with one delete of an unknown id before the first
    /// contract (nothing to delete, so nothing changes; ``AdminTokenCheck``).
    /// - Throws: a configuration error for a 401 (the token is not the server's), for any other
    ///   answer but 404, and for none; nothing is created before it.
    static func checkAdminToken(_ token: String, from source: String, _ transport: BudgetedTransport) async throws(RunnerError) {
        let request = AdminTokenCheck.request(token: token)
        let answer: Result<TransportResponse, TransportError>
        do {
            answer = try await transport.sendCharged(request)
        } catch {
            // The run was stopped (a signal, the deadline): its groups are refused and say so.
            if error.reason != nil { return }
            throw .configuration(
                "the request budget (--max-requests \(transport.limit)) leaves no request for the admin token's check "
                    + "(a delete of an unknown id with it, before anything is created): raise it", command: "run")
        }
        let said = (try? answer.get()).map { "answered \(summary(of: $0, messageBytes: 120))" } ?? "got no answer"
        switch AdminTokenCheck.outcome(of: answer, tokenBytes: token.utf8.count) {
        case .accepted:
            return
        case .refused:
            throw .configuration(
                "the admin token (\(source)) was refused: DELETE \(request.path) with it \(said). "
                    + "Give the server's admin token (the mock's is \(MockBackend.defaultAdminToken) unless its --admin-token says "
                    + "otherwise), or none to run without deleting; nothing was created", command: "run")
        case .unexpected(let meaning):
            throw .configuration(
                "the admin token (\(source)) could not be checked: DELETE \(request.path) with it \(said): \(meaning). "
                    + "backend-contract.md answers 404 to a delete of an unknown id with the server's token; the run deletes what it "
                    + "creates this way, so it stops here; nothing was created", command: "run")
        }
    }

    /// An error answer in one line: its status, its envelope's code and its message (sanitized,
    /// cut after `messageBytes`), each when present, e.g. `400 MISSING_VALUE "species is required"`.
    static func summary(of answer: TransportResponse, messageBytes: Int = 80) -> String {
        let error = (try? JSONValue.parse(answer.body))?["error"]
        let code = DisplayText.sanitized(error?["code"]?.stringValue ?? "", maxBytes: 60)
        let message = DisplayText.sanitized(error?["message"]?.stringValue ?? "", maxBytes: messageBytes)
        return "\(answer.status)" + (code.isEmpty ? "" : " \(code)") + (message.isEmpty ? "" : " \"\(message)\"")
    }

    /// The body of the profile probe: an empty object, which every profile refuses (nothing is
    /// created) and words differently: production's table says `Required`, the project's strict
    /// mock `FIELD is required`.
    static let profileProbeBody = "{}"

    /// Sends the profile probe: one create request with an empty object (``profileProbeBody``),
    /// before the first contract and whatever `--profile` says. It creates nothing; its answer
    /// tells the profile (``detectProfile(from:)``) and whether the base URL leads to the API.
    /// - Returns: the answer, or why there is none; `nil` when the run was stopped before it.
    static func sendProfileProbe(_ transport: BudgetedTransport) async -> Result<TransportResponse, TransportError>? {
        let request = TransportRequest(
            method: "POST", path: "/api/v1/announcements", headers: [("Content-Type", "application/json"), ("Accept", "application/json")],
            body: Data(profileProbeBody.utf8))
        return try? await transport.sendCharged(request)
    }

    /// The configuration error for a probe answered 404: no create route under the base URL, so
    /// every contract would fail for a reason that is the command line's, not the backend's;
    /// `nil` for any other answer, or none.
    static func noCreateRoute(_ probe: TransportResponse?, baseURL: URL) -> RunnerError? {
        guard let answer = probe, answer.status == 404 else { return nil }
        let path = baseURL.path
        let after = path.isEmpty || path == "/" ? "" : ", after its path \(path)"
        return .configuration(
            "the base URL does not lead to the announcements API: POST /api/v1/announcements answered \(summary(of: answer)). "
                + "The routes of backend-contract.md are sent under the base URL\(after): give the URL they are under "
                + "(for the mock, http://127.0.0.1:PORT with no path); nothing was created", command: "run")
    }

    /// The target's profile, told by the probe's answer (``sendProfileProbe(_:)``), and the line
    /// that says how it was told: strict when the answer is worded as the project's strict mock
    /// words it, production otherwise (a real backend, the mock's production profile, or an answer
    /// that says neither). A probe not sent (the run stopped first) tells nothing, and says so.
    static func detectProfile(from probe: TransportResponse?) -> (BackendProfile, String) {
        guard let answer = probe else {
            return (.production, "not detected: the run was stopped before its first request; pass --profile to choose")
        }
        let message = (try? JSONValue.parse(answer.body))?["error"]?["message"]?.stringValue ?? ""
        let said = summary(of: answer)
        if answer.status == 400, message.hasSuffix(" is required"), message != "Required" {
            return (.strict, "detected: POST /api/v1/announcements {} answered \(said), as the project's strict mock words it; pass --profile production to override")
        }
        if answer.status == 400, message == "Required" {
            return (.production, "detected: POST /api/v1/announcements {} answered \(said), as production words it; pass --profile strict to override")
        }
        return (.production, "detected: POST /api/v1/announcements {} answered \(said), neither profile's wording, so production; pass --profile to choose")
    }

}
