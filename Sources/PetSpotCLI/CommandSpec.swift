import PetSpotRunner
import PetSpotRuntime

/// A command of `petspot-contracts`: its name, summary, options and examples.
///
/// The usage text printed by `--help` and the synopsis are rendered from the options, and the
/// parser accepts exactly these flags, so the help and the parser can never disagree about which
/// flags exist, what they default to, or how a run is replayed.
package struct CommandSpec: Sendable {
    /// The command word, e.g. `check`.
    let name: String
    /// What follows the options in the usage line, when the command takes more than options
    /// (`[COMMAND]`, `< requests > replies`).
    let operands: String?
    /// One line saying what the command does.
    let summary: String
    /// A paragraph of detail (may be empty).
    let discussion: String
    /// The options, in the order the usage text lists them and the replay line writes them.
    let options: [any CommandOption]
    /// Example command lines.
    let examples: [String]
    /// The exit codes line of the usage text.
    let exitCodes: String

    /// The exit codes of the commands that check contracts.
    static let contractExitCodes = RunnerExitCode.helpText

    /// `--help`, which every command accepts.
    static let help = Option.flag("--help", help: "Show this help and exit.")

    /// Creates a command description; `exitCodes` defaults to ``contractExitCodes``.
    package init(
        name: String, operands: String? = nil, summary: String, discussion: String = "", options: [any CommandOption],
        examples: [String], exitCodes: String = CommandSpec.contractExitCodes
    ) {
        self.name = name
        self.operands = operands
        self.summary = summary
        self.discussion = discussion
        self.options = options + [Self.help]
        self.examples = examples
        self.exitCodes = exitCodes
    }

    /// The option named `name`, if this command has it.
    func option(named name: String) -> (any CommandOption)? {
        options.first { $0.spec.name == name }
    }

    /// The words after the command in the usage line: every option but `--help`, then the operands.
    var synopsis: String {
        (options.filter { $0.spec.name != Self.help.spec.name }.map(\.spec.synopsis) + [operands].compactMap { $0 }).joined(separator: " ")
    }

    /// The usage text: synopsis, summary, every option with its value, default and help, examples.
    var usage: String {
        var lines = ["USAGE: petspot-contracts \(name) \(synopsis)", "", summary]
        if !discussion.isEmpty { lines += ["", discussion] }
        lines += ["", "OPTIONS:"]
        let specs = options.map(\.spec)
        let labels = specs.map { option in option.name + (option.valueName.map { " \($0)" } ?? "") }
        let width = (labels.map(\.count).max() ?? 0) + 2
        for (option, label) in zip(specs, labels) {
            var text = option.help
            if let defaultText = option.defaultText { text += " (default: \(defaultText))" }
            if option.repeats { text += " (repeatable)" }
            lines.append("  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + text)
        }
        lines += ["", "EXAMPLES:"]
        lines += examples.map { "  \($0)" }
        lines += ["", exitCodes]
        return lines.joined(separator: "\n")
    }
}
