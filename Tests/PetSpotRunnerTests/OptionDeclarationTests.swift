import Foundation
import PetSpotContractGroups
import PetSpotFlowChecks
@testable import PetSpotCLI
import PetSpotRuntime
import Testing

/// A command that reads an option its spec leaves out: what a forgotten declaration looks like.
private struct ForgetfulCommand: RunnerCommand {
    static let declared = Option.int("--declared", default: 1, in: 1...9, help: "Declared.")
    static let forgotten = Option.int("--forgotten", default: 1, in: 1...9, help: "Read, never declared.")
    static let spec = CommandSpec(name: "forgetful", summary: "Reads an option it does not declare.", options: [declared], examples: [])

    init(_ parsed: ParsedArguments, arguments: [String]) throws(RunnerError) {
        let options = try parsed.resolve()
        _ = try options[Self.declared]
        _ = try options[Self.forgotten]
    }

    func run(output: RunnerOutput) async throws -> RunnerExitCode { .success }
}

@Suite("option declarations")
struct OptionDeclarationTests {
    /// The fewest words each command is built from (its required options); a new command must be
    /// added here, or the test says so.
    static let minimalArguments: [String: [String]] = [
        "check": [],
        "run": ["--base-url", "http://127.0.0.1:9"],
        "record": ["--sut", "true", "--release", "1.0", "--out", "/tmp/petspot-never-written.json"],
        "can-i-deploy": ["--base-url", "http://127.0.0.1:9", "--releases", "/tmp"],
        "release-support-ended": ["--releases", "/tmp", "--release", "1.0"],
        "mock": [],
        "openapi": [],
    ]

    @Test("every command reads only the options its spec declares: building each names any it forgot")
    func everyCommandReadsDeclaredOptions() {
        for command in PetSpotContractsTool.libraryCommands {
            guard let words = Self.minimalArguments[command.spec.name] else {
                Issue.record("no minimal arguments for '\(command.spec.name)': add them to OptionDeclarationTests.minimalArguments")
                continue
            }
            do {
                _ = try command.init(try ParsedArguments(words, for: command.spec), arguments: words)
            } catch {
                Issue.record("'\(command.spec.name) \(words.joined(separator: " "))' could not be built: \(error.message)")
            }
        }
    }

    @Test("a command given only its required options runs with its settings' defaults (each default is written once, there)")
    func defaultsComeFromSettings() throws {
        func built<Command: RunnerCommand>(_: Command.Type) throws -> Command {
            let words = Self.minimalArguments[Command.spec.name] ?? []
            return try Command(try ParsedArguments(words, for: Command.spec), arguments: words)
        }
        let check = try built(CheckCommand.self)
        #expect(check.settings == CheckSettings.defaults)
        #expect(check.submission.scenarios == SubmissionSettings.defaults.scenarios)
        #expect(check.submission.rule == SubmissionSettings.defaults.rule)
        #expect(check.submission.requestTimeout == SubmissionSettings.defaults.requestTimeout)
        #expect(check.submission.shrinkSeconds == SubmissionSettings.defaults.shrinkSeconds)
        #expect(try built(RunCommand.self).target.settings == RunSettings.run)
        #expect(try built(CanIDeployCommand.self).target.settings == RunSettings.canIDeploy)
    }

    @Test("a forgotten declaration is an error naming the option and the command, not a crash")
    func forgottenDeclaration() throws {
        let parsed = try ParsedArguments([], for: ForgetfulCommand.spec)
        #expect {
            _ = try ForgetfulCommand(parsed, arguments: [])
        } throws: { error in
            guard let error = error as? RunnerError else { return false }
            return error.kind == .internal && error.message.contains("--forgotten is read by 'forgetful' but not declared")
        }
    }
}
