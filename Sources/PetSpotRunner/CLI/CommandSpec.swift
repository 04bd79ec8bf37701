/// One `--flag` a command accepts: its name, the value it takes (if any), its default and help.
package struct OptionSpec: Sendable, Hashable {
    /// The flag, with its dashes: `--cases`.
    let name: String
    /// The placeholder of its value (`N`, `URL`); `nil` for a switch that takes none.
    let valueName: String?
    /// The default, as shown in the usage text (`nil`: no default, or "none").
    let defaultText: String?
    /// One sentence of help.
    let help: String

    /// Creates an option description.
    package init(_ name: String, value valueName: String? = nil, default defaultText: String? = nil, help: String) {
        self.name = name
        self.valueName = valueName
        self.defaultText = defaultText
        self.help = help
    }
}

extension OptionSpec {
    /// `--seed S`, shared by the commands that generate cases.
    static let seed = OptionSpec(
        "--seed", value: "S", default: "random, printed", help: "Seed of the run (decimal or 0x-hex); replays a run.")
    /// `--report-json FILE`.
    static let reportJSON = OptionSpec("--report-json", value: "FILE", help: "Also write the versioned JSON report to FILE.")
    /// `--junit FILE`.
    static let junit = OptionSpec("--junit", value: "FILE", help: "Also write a JUnit XML report to FILE.")
    /// `--no-progress`.
    static let noProgress = OptionSpec("--no-progress", help: "Do not write the live progress line on standard error.")
}

/// A command of `petspot-contracts`: its name, summary, options and examples.
///
/// The usage text printed by `--help` is rendered from this description, so the help and the
/// parser can never disagree about which flags exist.
package struct CommandSpec: Sendable, Hashable {
    /// The command word, e.g. `check`.
    let name: String
    /// The synopsis after the command word, e.g. `[--cases N] [--seed S]`.
    let synopsis: String
    /// One line saying what the command does.
    let summary: String
    /// A paragraph of detail (may be empty).
    let discussion: String
    /// The options, in the order the usage text lists them.
    let options: [OptionSpec]
    /// Example command lines.
    let examples: [String]
    /// The exit codes line of the usage text.
    let exitCodes: String

    /// The exit codes of the commands that check contracts.
    static let contractExitCodes = RunnerExitCode.helpText

    /// Creates a command description; `exitCodes` defaults to ``contractExitCodes``.
    package init(
        name: String, synopsis: String, summary: String, discussion: String = "", options: [OptionSpec],
        examples: [String], exitCodes: String = CommandSpec.contractExitCodes
    ) {
        self.name = name
        self.synopsis = synopsis
        self.summary = summary
        self.discussion = discussion
        self.options = options + [OptionSpec("--help", help: "Show this help and exit.")]
        self.examples = examples
        self.exitCodes = exitCodes
    }

    /// The option named `name`, if this command has it.
    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    /// The usage text: synopsis, summary, every option with its value, default and help, examples.
    var usage: String {
        var lines = ["USAGE: petspot-contracts \(name) \(synopsis)", "", summary]
        if !discussion.isEmpty { lines += ["", discussion] }
        lines += ["", "OPTIONS:"]
        let labels = options.map { option in option.name + (option.valueName.map { " \($0)" } ?? "") }
        let width = (labels.map(\.count).max() ?? 0) + 2
        for (option, label) in zip(options, labels) {
            var text = option.help
            if let defaultText = option.defaultText { text += " (default: \(defaultText))" }
            lines.append("  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + text)
        }
        lines += ["", "EXAMPLES:"]
        lines += examples.map { "  \($0)" }
        lines += ["", exitCodes]
        return lines.joined(separator: "\n")
    }
}
