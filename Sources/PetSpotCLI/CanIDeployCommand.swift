import Foundation
import PetSpotContractGroups
import PetSpotModel
import PetSpotReleases
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// `petspot-contracts can-i-deploy --base-url URL --releases DIR`: may this backend be deployed
/// while the releases in DIR are on users' phones? Replays every supported release against it
/// (``ReleaseContracts``) with `run`'s safety and prints the matrix.
struct CanIDeployCommand: RunnerCommand {
    static let releases = Option<String>(
        OptionSpec("--releases", value: "DIR", default: "required", help: "The directory of release files (petspot-contracts record --out DIR/NAME.json)."),
        replay: .always,
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let path = try Option<String?>.nonEmpty(given.last, "--releases", context) else {
                throw context.usage("missing --releases DIR (the directory of the release files petspot-contracts record wrote)")
            }
            return path
        }, words: { "--releases \(shellQuoted($0))" })
    static let maxRequests = Option.int(
        "--max-requests", value: "M", default: RunSettings.canIDeploy.maxRequests, in: 1...10_000_000,
        help: "Request budget (cleanup deletes excepted); a release not replayed whole is not judged (exit 1).")

    static let spec = CommandSpec(
        name: "can-i-deploy",
        summary: "Replay every supported release in the field against a candidate backend: compatible, or which releases break.",
        discussion: """
            Reads every release file in --releases (petspot-contracts record); a corrupt, hand-edited or newer-format file, \
            an empty or missing directory, or a supported release recorded against another contract version is a \
            configuration error naming the file (exit 2): nothing to check is never a pass. A release whose support ended \
            (petspot-contracts release-support-ended) is listed, not checked. Every request of every other release is sent \
            again as the build would send it today (its date moved by as many days as have passed, its microchip number \
            replaced by a fresh one of the same length), with run's safety: --max-requests and --concurrency, a \
            --timeout per request and a --deadline, every announcement it creates deleted with --admin-token (required: \
            can-i-deploy creates nothing it cannot delete), no credential sent to another origin, secrets masked. \
            A release breaks when the backend refuses a request the captured contract accepted when the release was \
            recorded; a refusal the contract gave then too is the build's own defect, shown apart as known. The matrix \
            (per release: tried, accepted, refused by code and field with an example, its answer and a curl line, the \
            verdict) comes before the verdict line. Exit codes: 0 every supported release is compatible; 1 a release \
            breaks, or could not be replayed whole; 2 setup; 3 the backend cannot be reached.
            """,
        options: [
            BackendTargetOptions.baseURL, releases, BackendTargetOptions.adminToken, BackendTargetOptions.concurrency, maxRequests,
            BackendTargetOptions.timeout, BackendTargetOptions.deadline, BackendTargetOptions.maxTimeouts, BackendTargetOptions.maxResponseBytes,
        ]
            + ReportOutputs.options + [CommonOptions.noProgress],
        examples: [
            "petspot-contracts can-i-deploy --base-url https://staging.example.com --releases releases --junit can-i-deploy.xml",
            "petspot-contracts can-i-deploy --base-url http://127.0.0.1:8080 --releases releases --admin-token petspot-admin-token",
        ])

    /// The backend, the admin token, the budget and bounds, the outputs (shared with run).
    let target: BackendTargetOptions
    let releasesDirectory: String
    let arguments: [String]

    init(_ parsed: ParsedArguments, arguments: [String]) throws(RunnerError) {
        let options = try parsed.resolve()
        target = try BackendTargetOptions(options, maxRequests: Self.maxRequests)
        releasesDirectory = try options[Self.releases]
        self.arguments = arguments
    }

    func run(output: RunnerOutput) async throws -> RunnerExitCode {
        let transport = target.transport
        let interruption = RunInterruption(command: "can-i-deploy")
        return try await SignalTrap.shared.with(.graceful { interruption.interrupt($0, output: output) }) {
            try await execute(transport: transport, output: output, interruption: interruption)
        }
    }

    /// Checks every release through `transport` (tests pass an in-process one).
    func execute(
        transport base: any AnnouncementTransport, output: RunnerOutput, interruption: RunInterruption = RunInterruption(command: "can-i-deploy")
    ) async throws -> RunnerExitCode {
        let startedAt = Date()
        let releases: [RecordedRelease]
        do {
            releases = try ReleaseDirectory.load(URL(fileURLWithPath: releasesDirectory, isDirectory: true), displayPath: releasesDirectory)
        } catch {
            throw RunnerError.configuration(error.description, command: "can-i-deploy")
        }
        guard let adminToken = target.adminToken else {
            throw RunnerError.configuration(
                "can-i-deploy creates an announcement for every request it replays and deletes them all at the end: give the "
                    + "backend's admin token (--admin-token or $\(CurlReproduction.adminTokenVariable); the mock's is "
                    + "petspot-admin-token); nothing was sent", command: "can-i-deploy")
        }
        let recorder = ContractRecorder(secrets: target.secrets)
        let transport = BudgetedTransport(base, limit: target.settings.maxRequests, secrets: recorder.secrets)
        interruption.stops(transport)
        let deadline = RunDeadline(seconds: target.settings.deadlineSeconds)
        deadline.start(stopping: transport, output: output)
        defer { deadline.cancel() }
        do {
            _ = try await transport.send(BackendTarget.getRequest("/api/health"))
        } catch {
            throw RunnerError.unreachable("cannot reach \(target.baseURL.absoluteString): \(error.description)")
        }
        let probe = await RunCommand.sendProfileProbe(transport)
        if case .failure(let error)? = probe { throw RunCommand.unreachable(target.baseURL, error) }
        if let noAPI = RunCommand.noCreateRoute(try? probe?.get(), baseURL: target.baseURL) { throw noAPI }
        try await RunCommand.checkAdminToken(adminToken, from: target.adminTokenSource, transport)
        let supported = releases.filter(\.isSupported)
        let requests = supported.reduce(0) { $0 + $1.requestCount }
        if !target.outputs.quiet {
            output.line("petspot-contracts can-i-deploy: \(target.baseURL.absoluteString), \(supported.count) supported release(s) of \(releases.count) "
                + "in \(releasesDirectory), \(requests) requests to replay; replay: \(target.replayCommand)")
        }
        let progress = ProgressLine(output: output, label: "can-i-deploy", total: requests, enabled: target.showsProgress)
        let (session, backend) = try SessionBuilder(recorder: recorder, seed: 0, replay: target.replayCommand, cases: 0, progress: progress)
            .running(
                against: transport, name: target.baseURL.absoluteString, profile: .production, adminToken: adminToken,
                concurrency: target.settings.concurrency, baseURL: target.baseURL, maxConsecutiveTimeouts: target.settings.maxConsecutiveTimeouts)
        let today = CalendarDate.today(in: TimeZone(secondsFromGMT: 0)!, now: Date())
        let microchips = ReplayMicrochips()
        for release in releases {
            guard release.isSupported else {
                recorder.release(ReleaseOutcome(
                    name: release.name, recordedOn: release.recordedOn, protocolVersion: release.protocolVersion, verdict: .supportEnded,
                    unavailableFlows: release.unavailableFlows.map(\.rawValue)))
                recorder.note("release \(release.name): support ended \(release.supportEnded ?? ""): listed, not checked")
                continue
            }
            guard interruption.signal == nil else { break }
            try await ReleaseContracts(release: release, today: today, microchips: microchips).check(session)
        }
        progress.finish()
        await backend.cleanUp(recorder: recorder)
        recorder.note("microchip numbers were replaced by fresh ones of the same length, dates moved to today (\(today.isoString) UTC); "
            + "\(transport.requestsSent) budgeted requests sent")
        if let signal = interruption.signal {
            recorder.note("interrupted by \(SignalTrap.name(signal)): the releases not reached are not judged")
            InterruptedRun.record(signal, unchecked: "the releases not reached are not judged", in: recorder, seed: nil, replay: nil)
        }
        let report = recorder.report(command: "can-i-deploy", arguments: arguments, target: target.baseURL.absoluteString, seed: nil, startedAt: startedAt)
        try target.outputs.deliver(report, to: output)
        return interruption.exitCode ?? report.exitCode
    }
}
