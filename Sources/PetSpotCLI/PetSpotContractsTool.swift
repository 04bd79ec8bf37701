import Foundation
import PetSpotConcurrency
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// The `petspot-contracts` command line: parses the command word and its flags, runs the
/// command, and maps every outcome to an exit code.
///
/// ```swift
/// let status = await PetSpotContractsTool.run(arguments: ["check", "--cases", "50"], output: .standard())
/// exit(status)
/// ```
///
/// This is the one place where errors become messages: a ``RunnerError`` prints its single
/// line on standard error with its exit code (``RunnerExitCode``: 64 usage, 2 configuration,
/// 3 unreachable); any other error is an internal error: one line, exit 70. Nothing ever prints a
/// stack trace.
public enum PetSpotContractsTool {
    /// The commands this library runs itself, in the order `help` lists them; the
    /// `petspot-contracts` executable adds `bench` and `bowtie` from their own targets.
    package static let libraryCommands: [any RunnerCommand.Type] = [
        CheckCommand.self, RunCommand.self, RecordCommand.self, CanIDeployCommand.self, ReleaseSupportEndedCommand.self, MockCommand.self,
        OpenAPICommand.self,
    ]

    /// Every command of `commands` plus `help`, in the order `help` lists them.
    package static func specs(_ commands: [any RunnerCommand.Type]) -> [CommandSpec] {
        commands.map { $0.spec } + [helpSpec]
    }

    static let helpSpec = CommandSpec(
        name: "help", operands: "[COMMAND]", summary: "Show the list of commands, or one command's usage.",
        options: [], examples: ["petspot-contracts help", "petspot-contracts help check"])

    /// The tool's overview: every command with its summary.
    package static func overview(_ commands: [CommandSpec]) -> String {
        var lines = [
            "petspot-contracts \(ContractReport.toolVersion): conformance and contract tests for the PetSpot report flows.",
            "",
            "USAGE: petspot-contracts COMMAND [OPTIONS]",
            "",
            "COMMANDS:",
        ]
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        for command in commands {
            lines.append("  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary)
        }
        lines += [
            "",
            "Run 'petspot-contracts COMMAND --help' for a command's options.",
            RunnerExitCode.helpText,
        ]
        return lines.joined(separator: "\n")
    }

    /// Runs the command line `arguments` (without the program name) with the library's commands
    /// and returns the exit code.
    public static func run(arguments: [String], output: RunnerOutput) async -> Int32 {
        await run(arguments: arguments, output: output, commands: libraryCommands)
    }

    /// Runs the command line `arguments` with `commands` (and `help`).
    package static func run(arguments: [String], output: RunnerOutput, commands: [any RunnerCommand.Type]) async -> Int32 {
        // A command writing to the process's own standard streams owns the process: it handles
        // SIGINT and SIGTERM (SignalTrap), and a signal that ends it has the last word on the exit code.
        if output.ownsProcess { SignalTrap.shared.arm() }
        defer { SignalTrap.shared.waitIfExiting() }
        do {
            return try await dispatch(arguments, output: output, commands: commands).rawValue
        } catch let error as RunnerError {
            output.errorLine(error.description)
            return error.exitCode.rawValue
        } catch {
            let error = RunnerError.internal(String(describing: error))
            output.errorLine(error.description)
            return error.exitCode.rawValue
        }
    }

    private static func dispatch(
        _ arguments: [String], output: RunnerOutput, commands commandTypes: [any RunnerCommand.Type]
    ) async throws -> RunnerExitCode {
        let commands = specs(commandTypes)
        let overview = overview(commands)
        guard let word = arguments.first else {
            output.line(overview)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        switch word {
        case "--help", "-h", "help":
            if word == "help", let topic = rest.first, !topic.hasPrefix("-") {
                guard let command = commands.first(where: { $0.name == topic }) else {
                    throw unknownCommand(topic, among: commands)
                }
                output.line(command.name == helpSpec.name ? overview : command.usage)
            } else if word == "help", rest.first?.hasPrefix("-") == true {
                output.line(helpSpec.usage)
            } else {
                output.line(overview)
            }
            return .success
        case "--version":
            output.line("petspot-contracts \(ContractReport.toolVersion)")
            return .success
        default:
            break
        }
        guard let command = commandTypes.first(where: { $0.spec.name == word }) else {
            throw unknownCommand(word, among: commands)
        }
        let parsed = try ParsedArguments(rest, for: command.spec)
        if parsed.wantsHelp {
            output.line(command.spec.usage)
            return .success
        }
        return try await command.init(parsed, arguments: rest).run(output: output)
    }

    private static func unknownCommand(_ word: String, among commands: [CommandSpec]) -> RunnerError {
        var message = "unknown command '\(word)'"
        if word.hasPrefix("-") {
            message = "expected a command before options, found '\(word)'"
        } else if let suggestion = ParsedArguments.suggestion(for: word, among: commands.map(\.name)) {
            message += "; did you mean '\(suggestion)'?"
        }
        message += "; commands: \(commands.map(\.name).joined(separator: ", "))"
        return .usage(message)
    }
}
