import Foundation
import PetSpotAdapterDriving
import PetSpotReleases
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// `petspot-contracts record --sut CMD --release NAME --out FILE`: writes what one build of the
/// app lets users send as a release file (``ReleaseRecorder``), for `can-i-deploy`.
struct RecordCommand: RunnerCommand {
    static let sut = Option<String>(
        OptionSpec("--sut", value: "\"CMD\"", default: "required", help: "The build's adapter command line (sut-protocol.md, version 1 or 2), run with /bin/sh -c."),
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let command = try Option<String?>.nonEmpty(given.last, "--sut", context) else {
                throw context.usage("missing --sut \"CMD\" (the adapter of the build to record)")
            }
            return command
        })
    static let release = Option<String>(
        OptionSpec("--release", value: "NAME", default: "required", help: "The release's name, as the team calls the build (2.3.0)."),
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let name = try Option<String?>.nonEmpty(given.last, "--release", context) else {
                throw context.usage("missing --release NAME (the name of the build being recorded, e.g. 2.3.0)")
            }
            guard !name.contains(where: \.isNewline), name.count <= 200 else {
                throw context.usage("invalid value for --release: a release name is one line of at most 200 characters")
            }
            return name
        })
    static let out = Option<String>(
        OptionSpec("--out", value: "FILE", default: "required", help: "The release file to write (commit it, or keep it with the build)."),
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let path = try Option<String?>.nonEmpty(given.last, "--out", context) else {
                throw context.usage("missing --out FILE (where the release file goes, e.g. releases/2.3.0.json)")
            }
            try ReportFile.checkWritable(path, flag: "--out", command: context.command)
            return path
        })
    /// Fixed by default, so that every release is recorded from the same questions and two
    /// release files differ only where the builds do.
    static let seed = Option<UInt64>(
        OptionSpec("--seed", value: "S", default: "1", help: "Seed of the questions (decimal or 0x-hex); the same for every release by default."),
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let text = given.last else { return 1 }
            guard let seed = RunnerSeed.parse(text) else {
                throw context.usage("invalid value '\(text)' for --seed: expected a decimal or 0x-hexadecimal 64-bit number")
            }
            return seed
        })
    static let cases = Option.int(
        "--cases", default: ReleaseRecorder.defaultCases, in: 1...100_000,
        help: "Flow questions asked (the default is four cycles through the boundary catalogue).")
    static let submissions = Option.int(
        "--submissions", default: ReleaseRecorder.defaultSubmissions, in: 0...200,
        help: "Reports submitted through the app's own submission code (protocol version 2).")
    static let sutTimeout = Option.seconds("--sut-timeout", default: CheckSettings.defaults.adapterTimeout, in: 0.01...3600, help: "Seconds to wait for each adapter answer.")
    static let submissionTimeout = Option.seconds(
        "--submission-timeout", default: 5, in: 0.05...60, help: "The request time-out the app is given for its submission (seconds).")
    static let recordedOn = Option<String?>(
        OptionSpec("--recorded-on", value: "YYYY-MM-DD", default: "today (UTC)", help: "The day written into the release file."),
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let text = given.last else { return nil }
            guard RecordedRelease.isDay(text) else { throw context.usage("invalid value '\(text)' for --recorded-on: expected a day YYYY-MM-DD") }
            return text
        })
    static let pact = Option.reportFile("--pact", help: "Also write the release as a Pact specification v4 file (for a Pact Broker).")
    static let pactConsumer = Option.text(
        "--pact-consumer", value: "NAME", default: PactExport.defaultConsumer, help: "The consumer's name in the Pact file.")

    static let spec = CommandSpec(
        name: "record",
        summary: "Record what one build of the app lets users send, as a release file for can-i-deploy.",
        discussion: """
            Drives the build's adapter (sut-protocol.md, version 1 or 2) over the questions check asks: every entry of the \
            boundary catalogue, in both flows (four cycles by default, from a fixed seed). Keeps one payload of each class \
            the backend's rules can tell apart (keys present, each value's class at the rules' bounds), with the answer \
            the captured contract gives it today; the flows the build does not have (it answers unavailable); and, for an \
            adapter that speaks version 2, the requests its own submission code sends for a few of those reports on a \
            healthy network. Nothing is judged: a release is what the build does, defects included. The file holds at \
            most 2,000 requests in 1 MB, one report per line, and a checksum (a hand edit is refused by can-i-deploy). \
            The same build recorded twice with the same seed on the same day gives the same file. \
            Exit codes: 0 written; 1 the adapter failed a question after answering others (the file is not written); \
            2 the adapter never answered, or a file cannot be written.
            """,
        options: [sut, release, out, seed, cases, submissions, sutTimeout, submissionTimeout, recordedOn, pact, pactConsumer, CommonOptions.noProgress],
        examples: [
            "petspot-contracts record --sut \"build/PetSpotFlowAdapter\" --release 2.3.0 --out releases/2.3.0.json",
            "petspot-contracts record --sut \".build/debug/petspot-example-adapter --release 1.0\" --release 1.0 --out releases/1.0.json --pact pacts/1.0.json",
        ])

    let sut: String
    let release: String
    let out: String
    let seed: UInt64
    let cases: Int
    let submissions: Int
    let sutTimeout: Double
    let submissionTimeout: Double
    let recordedOn: String?
    let pact: String?
    let pactConsumer: String
    let showsProgress: Bool

    init(_ parsed: ParsedArguments, arguments: [String]) throws(RunnerError) {
        let options = try parsed.resolve()
        sut = try options[Self.sut]
        release = try options[Self.release]
        out = try options[Self.out]
        seed = try options[Self.seed]
        cases = try options[Self.cases]
        submissions = try options[Self.submissions]
        sutTimeout = try options[Self.sutTimeout]
        submissionTimeout = try options[Self.submissionTimeout]
        recordedOn = try options[Self.recordedOn]
        pact = try options[Self.pact]
        pactConsumer = try options[Self.pactConsumer] ?? PactExport.defaultConsumer
        showsProgress = try !options[CommonOptions.noProgress]
        if let pact, URL(fileURLWithPath: pact).standardizedFileURL == URL(fileURLWithPath: out).standardizedFileURL {
            throw .usage("--out and --pact name the same file", command: "record")
        }
    }

    func run(output: RunnerOutput) async throws -> RunnerExitCode {
        let day = recordedOn ?? RecordedRelease.today()
        let oracle = AdapterOracle(command: sut, timeout: sutTimeout, relayError: { output.errorLine($0) })
        let recorder = ReleaseRecorder(
            name: release, seed: seed, recordedOn: day, cases: cases, submissions: submissions, requestTimeout: submissionTimeout,
            oracle: oracle)
        let progress = ProgressLine(output: output, label: "record", total: cases, enabled: showsProgress)
        let outcome = await runOnDedicatedThread { () -> Result<RecordedRelease, ReleaseRecorder.Failure> in
            do throws(ReleaseRecorder.Failure) {
                return .success(try recorder.record(progress: progress))
            } catch {
                return .failure(error)
            }
        }
        progress.finish()
        oracle.finish()
        let recorded: RecordedRelease
        switch outcome {
        case .success(let release): recorded = release
        case .failure(.setup(let failure)): throw RunnerError.configuration(failure.paragraph, command: "record")
        case .failure(.adapter(let message)):
            output.errorLine("petspot-contracts record: \(message); nothing was written")
            return .contractFailed
        case .failure(let failure): throw RunnerError.configuration(failure.description, command: "record")
        }
        let bytes = recorded.fileBytes()
        try write(Data(bytes), to: out, flag: "--out")
        if let pact {
            try write(PactExport.document(of: recorded, consumer: pactConsumer).serializedData(options: [.prettyPrinted]) + Data("\n".utf8), to: pact, flag: "--pact")
        }
        for line in Self.summary(recorded, file: out, bytes: bytes.count) { output.line(line) }
        if let pact { output.line("wrote the Pact file \(pact) (consumer \(pactConsumer), provider \(PactExport.provider))") }
        return .success
    }

    /// Writes `data` to `path` in one step (a temporary file, then a rename).
    func write(_ data: Data, to path: String, flag: String) throws(RunnerError) {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .configuration("cannot write the \(flag) file '\(DisplayText.sanitized(path, maxBytes: 200))': \(error.localizedDescription)", command: "record")
        }
    }

    /// What was recorded, in a few lines.
    static func summary(_ release: RecordedRelease, file: String, bytes: Int) -> [String] {
        var lines = ["petspot-contracts record: release \(release.name), recorded \(release.recordedOn) against contract \(release.contractVersion), seed \(release.seed)"]
        for flow in release.flows {
            if flow.unavailable > 0 && flow.submitted == 0 {
                lines.append("  \(flow.flow.rawValue): unavailable (the build has no such flow; \(flow.asked) questions)")
            } else {
                lines.append("  \(flow.flow.rawValue): \(flow.asked) questions, \(flow.submitted) submitted, \(flow.blocked) blocked")
            }
        }
        let refused = release.reports.filter { !$0.contract.isAccepted }.count
        lines.append("  \(release.reports.count) distinct reports kept (\(refused) refused by the contract: the build's own defects)")
        if release.protocolVersion == 2 {
            lines.append("  protocol version 2: \(release.submissions.count) reports submitted through the app's own code, "
                + "\(release.submissions.reduce(0) { $0 + $1.requests.count }) requests kept")
        } else {
            lines.append("  protocol version 1 (declared): the app's own submission was not recorded")
        }
        lines.append("wrote \(file): \(release.requestCount) requests, \(bytes) bytes")
        return lines
    }
}
