import Foundation
import PetSpotReleases
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// `petspot-contracts release-support-ended --releases DIR --release NAME`: marks a release as no
/// longer on users' phones (Pact's record-support-ended) without deleting its file: `can-i-deploy`
/// then lists it and checks it no more.
struct ReleaseSupportEndedCommand: RunnerCommand {
    static let release = Option<String>(
        OptionSpec("--release", value: "NAME", default: "required", help: "The release whose support ended."),
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let name = try Option<String?>.nonEmpty(given.last, "--release", context) else {
                throw context.usage("missing --release NAME (the release whose support ended)")
            }
            return name
        })
    static let on = Option<String?>(
        OptionSpec("--on", value: "YYYY-MM-DD", default: "today (UTC)", help: "The day support ended."),
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let text = given.last else { return nil }
            guard RecordedRelease.isDay(text) else { throw context.usage("invalid value '\(text)' for --on: expected a day YYYY-MM-DD") }
            return text
        })

    static let spec = CommandSpec(
        name: "release-support-ended",
        summary: "Mark a release as no longer supported: can-i-deploy lists it and no longer checks it.",
        discussion: """
            Rewrites the release's file in --releases with the day its support ended (its checksum renewed); the file \
            stays, so the history of what was in the field stays reviewable. Exit codes: 0 marked; 2 the directory, the \
            file or the release cannot be read or written.
            """,
        options: [CanIDeployCommand.releases, release, on],
        examples: ["petspot-contracts release-support-ended --releases releases --release 1.0"])

    let directory: String
    let name: String
    let day: String?

    init(_ parsed: ParsedArguments, arguments: [String]) throws(RunnerError) {
        let options = try parsed.resolve()
        directory = try options[CanIDeployCommand.releases]
        name = try options[Self.release]
        day = try options[Self.on]
    }

    func run(output: RunnerOutput) async throws -> RunnerExitCode {
        let files: [ReleaseDirectory.File]
        do {
            files = try ReleaseDirectory.files(URL(fileURLWithPath: directory, isDirectory: true), displayPath: directory)
        } catch {
            throw RunnerError.configuration(error.description, command: "release-support-ended")
        }
        guard let file = files.first(where: { $0.release.name == name }) else {
            throw RunnerError.configuration(
                "\(directory): no release \"\(name)\"; the releases are \(files.map { "\"\($0.release.name)\"" }.joined(separator: ", "))",
                command: "release-support-ended")
        }
        var release = file.release
        release.supportEnded = day ?? RecordedRelease.today()
        do {
            try Data(release.fileBytes()).write(to: file.url, options: .atomic)
        } catch {
            throw RunnerError.configuration("cannot write \(file.displayPath): \(error.localizedDescription)", command: "release-support-ended")
        }
        output.line("release \(name): support ended \(release.supportEnded ?? "") (\(file.displayPath) rewritten); can-i-deploy lists it and no longer checks it")
        return .success
    }
}
