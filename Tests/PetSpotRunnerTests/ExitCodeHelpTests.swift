@testable import PetSpotCLI
import PetSpotContractKit
@testable import PetSpotReport
import PetSpotRuntime
import Testing

@Suite("exit codes in --help")
struct ExitCodeHelpTests {
    @Test("mock --help lists a server's exit codes, not the contract ones")
    func mockHelp() async {
        let result = await runTool(["mock", "--help"])
        #expect(result.status == 0)
        #expect(result.out.contains("EXIT CODES: 0 stopped cleanly (SIGINT or SIGTERM; also --break list and --change list), 64 usage error, 2 configuration error (e.g. the port is in use)."))
        #expect(!result.out.contains("a contract failed"))
        #expect(!result.out.contains("target unreachable"))
    }

    @Test("check and run --help keep the contract exit codes")
    func contractHelp() async {
        for command in ["check", "run"] {
            let result = await runTool([command, "--help"])
            #expect(result.out.contains(CommandSpec.contractExitCodes), "\(command)")
        }
    }

    @Test("usage, configuration and internal errors have distinct exit codes, each named in --help", arguments: ["check", "run"])
    func distinctCodes(command: String) async {
        let codes = [RunnerExitCode.usage, .configuration, .internal, .unreachable].map(\.rawValue)
        #expect(Set(codes).count == codes.count)
        let help = await runTool([command, "--help"])
        for (code, meaning) in [(64, "usage"), (2, "configuration"), (70, "internal"), (3, "unreachable")] {
            #expect(help.out.contains("\(code) \(meaning)") || help.out.contains("\(code) target \(meaning)"), "\(command) --help names \(code)")
        }
        let usage = await runTool([command, "--no-such-flag"])
        #expect(usage.status == 64)
        let target = command == "run" ? ["--base-url", "http://127.0.0.1:9"] : []
        let configuration = await runTool([command, "--report-json", "/nonexistent-directory/report.json"] + target)
        #expect(configuration.status == 2, "\(configuration.err)")
    }

    @Test("every default the help shows is the default the parser uses")
    func helpDefaultsAreParserDefaults() throws {
        let context = OptionContext(command: "test", environment: [:])
        var checked = 0
        for command in PetSpotContractsTool.specs(PetSpotContractsTool.libraryCommands) {
            for option in command.options {
                guard let shown = option.spec.defaultText, !shown.contains("random"), shown != "required" else { continue }
                let resolved = try option.resolve([], in: context)
                guard let words = resolved.replay ?? Self.valueWords(resolved.value, flag: option.spec.name) else { continue }
                let value = words.hasPrefix(option.spec.name + " ") ? String(words.dropFirst(option.spec.name.count + 1)) : words
                #expect(shown.hasPrefix(value), "\(command.name) \(option.spec.name): help says '\(shown)', the parser defaults to \(value)")
                checked += 1
            }
        }
        #expect(checked >= 15, "only \(checked) defaults compared")
    }

    /// The text of a default value that writes no replay words (options not in the replay line).
    static func valueWords(_ value: any Sendable, flag: String) -> String? {
        switch value {
        case let number as Int: String(number)
        case let seconds as Double: ContractReport.plainNumber(seconds)
        case let text as String: text
        case let choice as BackendProfile: choice.rawValue
        default: nil
        }
    }
}
