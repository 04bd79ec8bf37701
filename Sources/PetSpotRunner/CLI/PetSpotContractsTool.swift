import Foundation

/// The `petspot-contracts` command line: parses the command word and its flags, runs the
/// command, and maps every outcome to an exit code.
///
/// ```swift
/// let status = await PetSpotContractsTool.run(arguments: ["check", "--cases", "50"], output: .standard())
/// exit(status)
/// ```
///
/// This is the one place where errors become messages: a ``RunnerError`` prints its single
/// line on standard error with its exit code (2 usage or configuration, 3 unreachable); any
/// other error prints one line and exits 2. Nothing ever prints a stack trace.
public enum PetSpotContractsTool {
    /// Every command, in the order `help` lists them.
    public static let commands: [CommandSpec] = [
        CheckCommand.spec, RunCommand.spec, MockCommand.spec, BenchCommand.spec, BowtieCommand.spec, helpSpec,
    ]

    static let helpSpec = CommandSpec(
        name: "help", synopsis: "[COMMAND]", summary: "Show the list of commands, or one command's usage.",
        options: [], examples: ["petspot-contracts help", "petspot-contracts help check"])

    /// The tool's overview: every command with its summary.
    public static var overview: String {
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
            "EXIT CODES: 0 all contracts hold, 1 a contract failed, 2 usage or configuration error, 3 target unreachable.",
        ]
        return lines.joined(separator: "\n")
    }

    /// Runs the command line `arguments` (without the program name) and returns the exit code.
    public static func run(arguments: [String], output: RunnerOutput) async -> Int32 {
        do {
            return try await dispatch(arguments, output: output).rawValue
        } catch let error as RunnerError {
            output.errorLine(error.description)
            return error.exitCode.rawValue
        } catch {
            output.errorLine("petspot-contracts: error: \(String(describing: error).replacingOccurrences(of: "\n", with: " "))")
            return RunnerExitCode.usage.rawValue
        }
    }

    private static func dispatch(_ arguments: [String], output: RunnerOutput) async throws -> RunnerExitCode {
        guard let word = arguments.first else {
            output.line(overview)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        switch word {
        case "--help", "-h", "help":
            if word == "help", let topic = rest.first, !topic.hasPrefix("-") {
                guard let command = commands.first(where: { $0.name == topic }) else {
                    throw unknownCommand(topic)
                }
                output.line(command == helpSpec ? overview : command.usage)
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
        guard let spec = commands.first(where: { $0.name == word }) else { throw unknownCommand(word) }
        let parsed = try ParsedArguments(rest, for: spec)
        if parsed.wantsHelp {
            output.line(spec.usage)
            return .success
        }
        switch spec.name {
        case CheckCommand.spec.name: return try await CheckCommand(parsed, arguments: rest).run(output: output)
        case RunCommand.spec.name: return try await RunCommand(parsed, arguments: rest).run(output: output)
        case MockCommand.spec.name: return try await MockCommand(parsed).run(output: output)
        case BenchCommand.spec.name: return try await BenchCommand(parsed).run(output: output)
        case BowtieCommand.spec.name: return try await BowtieCommand(parsed).run(output: output)
        default:
            output.line(overview)
            return .success
        }
    }

    private static func unknownCommand(_ word: String) -> RunnerError {
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

/// Runs blocking work (pipes to an adapter, property runs) on its own thread, off Swift's
/// cooperative pool, and resumes with its result.
func runOnDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            continuation.resume(returning: body())
        }
        thread.stackSize = 16 * 1024 * 1024
        thread.start()
    }
}

/// A shell-safe rendering of one word for replay command lines.
func shellQuoted(_ word: String) -> String {
    let safe = word.unicodeScalars.allSatisfy {
        CharacterSet.alphanumerics.contains($0) || "-_./:=@%+,".unicodeScalars.contains($0)
    }
    if safe && !word.isEmpty { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
