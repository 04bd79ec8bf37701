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
    /// `--allow-leftovers`: without an admin token the groups that create announcements are
    /// skipped (nothing they create could be deleted); with this flag they run, and what they
    /// create stays on the target, listed in the report. Nothing changes with a token.
    static let allowLeftovers = Option.flag(
        "--allow-leftovers",
        help: "Without an admin token, run the groups that create announcements anyway: what they create stays on the target, listed in the report.",
        replay: .whenGiven)
    static let maxRequests = Option.int(
        "--max-requests", value: "M", default: RunSettings.run.maxRequests, in: 1...10_000_000, help: "Request budget of the run (cleanup deletes excepted).")
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
            BackendTargetOptions.baseURL, CommonOptions.seed, cases, profile, BackendTargetOptions.adminToken, allowLeftovers,
            BackendTargetOptions.concurrency, maxRequests, BackendTargetOptions.timeout, BackendTargetOptions.deadline,
            BackendTargetOptions.maxTimeouts, BackendTargetOptions.maxResponseBytes, listDepth,
        ]
            + ReportOutputs.options + [CommonOptions.noProgress],
        examples: [
            "petspot-contracts run --base-url http://127.0.0.1:8080 --profile strict --admin-token petspot-admin-token",
            "PETSPOT_ADMIN_TOKEN=... petspot-contracts run --base-url https://staging.example.com --cases 50 --max-requests 500 --junit contracts.xml",
        ])

    /// The backend, the admin token, the budget and bounds, the outputs (shared with can-i-deploy).
    let target: BackendTargetOptions
    let cases: Int
    let seed: UInt64
    /// Without an admin token, whether the groups that create run anyway (`--allow-leftovers`).
    let allowsLeftovers: Bool
    /// The profile given with `--profile`, or `nil`: detected when the run starts.
    let profile: BackendProfile?
    /// Announcements with a photo one list query must show (`--list-depth`).
    let listDepth: ListDepth
    let arguments: [String]

    init(_ parsed: ParsedArguments, arguments: [String]) throws(RunnerError) {
        try self.init(parsed, arguments: arguments, environment: ProcessInfo.processInfo.environment)
    }

    init(_ parsed: ParsedArguments, arguments: [String], environment: [String: String]) throws(RunnerError) {
        let options = try parsed.resolve(environment: environment)
        target = try BackendTargetOptions(options, maxRequests: Self.maxRequests)
        cases = try options[Self.cases]
        seed = try options[CommonOptions.seed]
        allowsLeftovers = try options[Self.allowLeftovers]
        profile = try options[Self.profile]
        listDepth = try options[Self.listDepth]
        self.arguments = arguments
    }

    func run(output: RunnerOutput) async throws -> RunnerExitCode {
        let transport = target.transport
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
        let recorder = ContractRecorder(secrets: target.secrets)
        let transport = BudgetedTransport(base, limit: target.settings.maxRequests, secrets: recorder.secrets)
        interruption.stops(transport)
        // Before the first request: what a run without an admin token leaves out, or leaves behind.
        if target.adminToken == nil, !target.outputs.quiet {
            for line in try withoutAdminTokenLines(transport) { output.line(line) }
        }
        let deadline = given ?? RunDeadline(seconds: target.settings.deadlineSeconds)
        deadline.start(stopping: transport, output: output)
        defer { deadline.cancel() }
        // The probe: no answer is an unreachable target, no API under the base URL a setup
        // mistake; the profile is given, or told by the probe's answer (and then written into
        // the replay line, so that a replay expects the same).
        var profileLine = "given with --profile"
        let profile: BackendProfile
        var replayCommand = target.replayCommand
        let probe = await Self.sendProfileProbe(transport)
        if case .failure(let error)? = probe { throw Self.unreachable(target.baseURL, error) }
        let probeAnswer = try? probe?.get()
        if let noAPI = Self.noCreateRoute(probeAnswer, baseURL: target.baseURL) { throw noAPI }
        if let given = self.profile {
            profile = given
        } else {
            (profile, profileLine) = Self.detectProfile(from: probeAnswer)
            replayCommand += " --profile \(profile.rawValue)"
        }
        if !target.outputs.quiet { output.line("petspot-contracts run: \(target.baseURL.absoluteString), profile \(profile.rawValue) (\(profileLine)); replay: \(replayCommand)") }
        // A token the server refuses, or answers otherwise than documented, is a setup mistake,
        // not a backend defect: said before anything is created, rather than as failed delete
        // contracts and leftovers.
        if let adminToken = target.adminToken {
            try await Self.checkAdminToken(adminToken, from: target.adminTokenSource, transport)
        }
        let progress = ProgressLine(output: output, label: "run", total: cases, enabled: target.showsProgress, elapsed: progressClock)
        defer { progress.finish() }
        let (session, backend) = try SessionBuilder(recorder: recorder, seed: seed, replay: replayCommand, cases: cases, progress: progress)
            .running(
                against: transport, name: target.baseURL.absoluteString, profile: profile, adminToken: target.adminToken,
                concurrency: target.settings.concurrency, baseURL: target.baseURL, maxConsecutiveTimeouts: target.settings.maxConsecutiveTimeouts, createsWithoutAdminToken: allowsLeftovers, listDepth: listDepth)
        // A second signal exits at once: it first lists what is not deleted, on standard error and
        // in the JSON report.
        let exitReport = SignalTrap.shared.register(.cleanup { [self] in
            reportUndeletedOnExit(backend: backend, recorder: recorder, output: output, startedAt: startedAt)
        })
        defer { exitReport.end() }
        try await ContractRegistry.checkAll(session)
        progress.finish()
        let hint = backend.noteFindings(recorder: recorder)
        if let adminTokenNote = target.adminTokenNote { recorder.note(adminTokenNote) }
        recorder.note("microchip numbers of this run start with \(backend.microchips.prefix); \(transport.requestsSent) budgeted requests sent")
        recordRunOutcome(recorder, transport: transport, base: base, interruption: interruption, replay: replayCommand, deadline: deadline)
        // The profile hint is the last note: right above the verdict, after every failure.
        if let hint { recorder.note("hint: " + hint) }
        let report = recorder.report(
            command: "run", arguments: arguments, target: target.baseURL.absoluteString, seed: seed, startedAt: startedAt)
        try target.outputs.deliver(report, to: output)
        return interruption.exitCode ?? report.exitCode
    }

    /// The groups of a run that create announcements, in registry order, and the other groups
    /// that apply (read from a session against `transport` that sends nothing).
    func groupsByCreation(_ transport: BudgetedTransport) throws(RunnerError) -> (creating: [String], other: [String]) {
        let (session, _) = try SessionBuilder(recorder: ContractRecorder(), seed: seed, replay: target.replayCommand, cases: cases)
            .running(
                against: transport, name: target.baseURL.absoluteString, profile: profile ?? .production, adminToken: nil,
                concurrency: target.settings.concurrency, baseURL: target.baseURL)
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
