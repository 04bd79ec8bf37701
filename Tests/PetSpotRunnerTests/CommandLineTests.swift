import Foundation
@testable import PetSpotCLI
import PetSpotMockBackend
import PetSpotProcess
import PetSpotRuntime
import PetSpotTestSupport
import Testing

/// Runs the tool in-process and returns its exit code and output.
func runTool(_ arguments: [String]) async -> (status: Int32, out: String, err: String) {
    let output = CapturedOutput()
    let status = await PetSpotContractsTool.run(arguments: arguments, output: output.runner)
    return (status, output.standardOutput, output.standardError)
}

@Suite("command line", .onOwnThreads)
struct CommandLineTests {
    @Test("an unknown flag exits 64 (usage) with a did-you-mean suggestion on one line")
    func unknownFlag() async {
        let result = await runTool(["check", "--cses", "5"])
        #expect(result.status == RunnerExitCode.usage.rawValue)
        #expect(result.err.contains("unknown option '--cses'; did you mean '--cases'?"))
        #expect(result.err.split(separator: "\n").count == 1)
        #expect(result.out.isEmpty)
    }

    @Test("an unknown command exits 64 (usage) with a suggestion")
    func unknownCommand() async {
        let result = await runTool(["chek"])
        #expect(result.status == RunnerExitCode.usage.rawValue)
        #expect(result.err.contains("did you mean 'check'?"))
    }

    @Test("a bad value names its flag", arguments: [
        (["check", "--cases", "abc"], "--cases"),
        (["check", "--cases", "0"], "--cases"),
        (["check", "--seed", "-1"], "--seed"),
        (["check", "--sut-timeout", "never"], "--sut-timeout"),
        (["run", "--base-url", "http://127.0.0.1:1", "--concurrency", "0"], "--concurrency"),
        (["run", "--base-url", "http://127.0.0.1:1", "--profile", "prod"], "--profile"),
        (["run", "--base-url", "http://127.0.0.1:1", "--list-depth", "-1"], "--list-depth"),
        (["mock", "--faults", "500:2"], "--faults"),
        (["mock", "--host", "0.0.0.0"], "--host"),
    ])
    func badValue(arguments: [String], flag: String) async {
        let result = await runTool(arguments)
        #expect(result.status == RunnerExitCode.usage.rawValue)
        #expect(result.err.contains(flag))
        #expect(result.err.split(separator: "\n").count == 1)
    }

    @Test("a bad or missing URL exits 64 (usage)", arguments: [
        ["run", "--base-url", "ftp://example.com"],
        ["run", "--base-url", "not a url"],
        ["run", "--base-url", "http://"],
        ["run", "--base-url", "http://127.0.0.1:99999"],
        ["run"],
    ])
    func badURL(arguments: [String]) async {
        let result = await runTool(arguments)
        #expect(result.status == RunnerExitCode.usage.rawValue)
        #expect(result.err.contains("--base-url"))
    }

    @Test("--help on every command lists every flag with its default and an example")
    func helpOnEveryCommand() async {
        for command in PetSpotContractsTool.specs(PetSpotContractsTool.libraryCommands) {
            let result = await runTool([command.name, "--help"])
            #expect(result.status == 0, "\(command.name) --help")
            #expect(result.out.contains("USAGE: petspot-contracts \(command.name)"))
            for option in command.options.map(\.spec) {
                #expect(result.out.contains(option.name), "\(command.name) help lists \(option.name)")
                if let defaultText = option.defaultText { #expect(result.out.contains("(default: \(defaultText))")) }
            }
            #expect(result.out.contains("EXAMPLES:"))
        }
        let overview = await runTool(["help"])
        #expect(overview.status == 0)
        for command in PetSpotContractsTool.specs(PetSpotContractsTool.libraryCommands) { #expect(overview.out.contains(command.name)) }
    }

    @Test("a closed port exits 3 with one line, and no profile is claimed for it", arguments: [false, true])
    func closedPort(withProfile: Bool) async throws {
        let server = MockHTTPServer(options: MockServerOptions(port: 0))
        let port = try server.start()
        server.stop()
        let result = await runTool(
            ["run", "--base-url", "http://127.0.0.1:\(port)", "--timeout", "2", "--no-progress", "--admin-token", "t0ken-t0ken"]
                + (withProfile ? ["--profile", "strict"] : []))
        #expect(result.status == 3)
        #expect(result.err.contains("cannot reach http://127.0.0.1:\(port)"))
        #expect(result.err.split(separator: "\n").count == 1)
        #expect(!result.out.contains("profile"), "a target that did not answer has no profile: \(result.out)")
    }

    @Test("mock --change list names every change with its summary, one per line, and exits 0")
    func changeList() async {
        let result = await runTool(["mock", "--change", "list"])
        #expect(result.status == 0)
        #expect(result.err.isEmpty)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.count == MockChange.allCases.count)
        for (line, change) in zip(lines, MockChange.allCases) {
            #expect(line.hasPrefix(change.name + " "), "\(line)")
            #expect(line.contains("\(change.kind.rawValue): \(change.summary)"), "\(line)")
        }
    }

    @Test("mock --change with an unknown name is a usage error naming it", arguments: [
        (["--change", "status-missing-renamed-lots"], "unknown change 'status-missing-renamed-lots' (see --change list); did you mean 'status-missing-renamed-lost'?"),
        (["--change", "breed-removed", "--change", "age-max-30,,email-required"], "invalid value 'age-max-30,,email-required' for --change: empty change name"),
    ])
    func changeUnknown(arguments: [String], expected: String) async {
        let result = await runTool(["mock"] + arguments)
        #expect(result.status == RunnerExitCode.usage.rawValue)
        #expect(result.err.contains(expected), "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1)
        #expect(result.out.isEmpty)
    }

    @Test("mock says on standard error which changes it serves before it binds")
    func changesServedNamed() throws {
        let binary = try #require(ToolBinary.path)
        let occupant = MockHTTPServer(options: MockServerOptions(port: 0))
        let port = try occupant.start()
        defer { occupant.stop() }
        // The port is taken, so the mock stops after its notes with a configuration error.
        let outcome = try ChildProcess.run(binary, ["mock", "--port", String(port), "--change", "null-island-refused,breed-removed"])
        #expect(outcome.code == RunnerExitCode.configuration.rawValue, "\(outcome.errorText)")
        let lines = outcome.errorText.split(separator: "\n")
        #expect(lines.first == "serving contract changes (2): breed-removed, null-island-refused", "\(outcome.errorText)")
    }

    @Test("suggestions come from edit distance")
    func suggestions() {
        #expect(ParsedArguments.suggestion(for: "--seeed", among: ["--seed", "--cases"]) == "--seed")
        #expect(ParsedArguments.suggestion(for: "--junt", among: ["--junit", "--report-json"]) == "--junit")
        #expect(ParsedArguments.suggestion(for: "--zzzzzzzz", among: ["--seed", "--cases"]) == nil)
    }
}
