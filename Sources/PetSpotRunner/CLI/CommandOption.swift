import Foundation
import PetSpotReport

/// Where an option's value is read: the command it belongs to and the environment (some defaults
/// come from it, e.g. `PETSPOT_ADMIN_TOKEN`, `GITHUB_ACTIONS`).
package struct OptionContext: Sendable {
    /// The command word, for error messages.
    package let command: String
    /// The environment variables.
    package let environment: [String: String]

    /// A usage error about this command.
    package func usage(_ message: String) -> RunnerError { .usage(message, command: command) }
}

/// When an option is written into the line that replays a run.
package enum ReplayRule: Sendable {
    /// Never (it does not change what the run checks).
    case never
    /// Always, with its value (also its default, so a later default change cannot alter a replay).
    case always
    /// When given on the command line.
    case whenGiven
    /// When the option named here was given (`--sut-timeout` goes with `--sut`).
    case alongside(String)
}

/// One option of a command, type-erased: its usage entry, and how it reads its value.
package protocol CommandOption: Sendable {
    /// What the usage text shows.
    var spec: OptionSpec { get }
    /// Reads the option from the values given for it (empty when absent, in order when it repeats).
    /// - Throws: a usage error naming the flag and what is wrong.
    func resolve(_ given: [String], in context: OptionContext) throws(RunnerError) -> ResolvedOption
}

/// One option's value once read, and its part of the replay line.
package struct ResolvedOption: Sendable {
    /// The value.
    let value: any Sendable
    /// Its words in the replay line (already shell-quoted), when the rule lets it in.
    let replay: String?
    /// The rule that decides whether ``replay`` is written.
    let rule: ReplayRule
}

/// A command-line option declared once: its name, value placeholder, default and help (the usage
/// text), how its text becomes a value and is checked (the parser), and how the value is written
/// back into the replay line.
///
/// ```swift
/// static let cases = Option.int("--cases", default: 200, in: 1...10_000_000, help: "Flow cases.", replay: .always)
/// // in the command's init: cases = options[Self.cases]
/// ```
package struct Option<Value: Sendable>: CommandOption {
    package let spec: OptionSpec
    private let rule: ReplayRule
    private let read: @Sendable ([String], OptionContext) throws(RunnerError) -> Value
    private let words: @Sendable (Value) -> String?

    /// An option from its parts: `read` turns the values given (empty when absent) into the value,
    /// `words` writes the value back as replay words (shell-quoted), `nil` for none.
    package init(
        _ spec: OptionSpec, replay rule: ReplayRule = .never, read: @escaping @Sendable ([String], OptionContext) throws(RunnerError) -> Value,
        words: @escaping @Sendable (Value) -> String? = { _ in nil }
    ) {
        self.spec = spec
        self.rule = rule
        self.read = read
        self.words = words
    }

    package func resolve(_ given: [String], in context: OptionContext) throws(RunnerError) -> ResolvedOption {
        let value = try read(given, context)
        return ResolvedOption(value: value, replay: words(value), rule: rule)
    }

    /// The value when the option is absent from the command line.
    package func defaultValue(in context: OptionContext) throws(RunnerError) -> Value { try read([], context) }

    /// The value read from `given` (the values given for it, in order), as the parser reads it.
    package func resolveValue(_ given: [String], in context: OptionContext) throws(RunnerError) -> Value { try read(given, context) }
}

extension Option where Value == Int {
    /// A whole number within `range`, `defaultValue` when absent.
    package static func int(
        _ name: String, value: String = "N", default defaultValue: Int, in range: ClosedRange<Int>, defaultText: String? = nil, help: String,
        replay: ReplayRule = .never
    ) -> Option {
        Option(OptionSpec(name, value: value, default: defaultText ?? String(defaultValue), help: help), replay: replay, read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let text = given.last else { return defaultValue }
            guard let number = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(number) else {
                throw context.usage("invalid value '\(text)' for \(name): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }, words: { "\(name) \($0)" })
    }
}

extension Option where Value == Double {
    /// Seconds within `range`, `defaultValue` when absent.
    package static func seconds(
        _ name: String, value: String = "SEC", default defaultValue: Double, in range: ClosedRange<Double>, help: String,
        replay: ReplayRule = .never
    ) -> Option {
        Option(OptionSpec(name, value: value, default: ContractReport.plainNumber(defaultValue), help: help), replay: replay, read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let text = given.last else { return defaultValue }
            guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite, range.contains(seconds) else {
                throw context.usage(
                    "invalid value '\(text)' for \(name): expected seconds from \(ContractReport.plainNumber(range.lowerBound)) to \(ContractReport.plainNumber(range.upperBound))")
            }
            return seconds
        }, words: { "\(name) \(ContractReport.plainNumber($0))" })
    }
}

extension Option where Value == Bool {
    /// A switch without a value: `true` when given.
    package static func flag(_ name: String, default defaultText: String? = nil, help: String, replay: ReplayRule = .never) -> Option {
        Option(OptionSpec(name, default: defaultText, help: help), replay: replay, read: { given, _ in !given.isEmpty }, words: { $0 ? name : nil })
    }
}

extension Option where Value == String? {
    /// A non-empty text, `nil` when absent.
    package static func text(
        _ name: String, value: String, default defaultText: String? = nil, help: String, replay: ReplayRule = .never, repeats: Bool = false
    ) -> Option {
        Option(OptionSpec(name, value: value, default: defaultText, help: help, repeats: repeats), replay: replay, read: { (given: [String], context: OptionContext) throws(RunnerError) in
            try nonEmpty(given.last, name, context)
        }, words: { $0.map { "\(name) \(shellQuoted($0))" } })
    }

    /// A report file to write at the end, checked writable now (``ReportFile/checkWritable(_:flag:command:)``).
    package static func reportFile(_ name: String, help: String) -> Option {
        Option(OptionSpec(name, value: "FILE", help: help), read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let path = try nonEmpty(given.last, name, context) else { return nil }
            try ReportFile.checkWritable(path, flag: name, command: context.command)
            return path
        })
    }

    /// `text` trimmed of spaces, refused when empty; `nil` when `text` is `nil`.
    static func nonEmpty(_ text: String?, _ name: String, _ context: OptionContext) throws(RunnerError) -> String? {
        guard let text else { return nil }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw context.usage("option \(name) needs a non-empty value") }
        return text
    }
}

extension Option where Value == [String] {
    /// A text that may repeat; every value given, in order.
    package static func repeatedText(_ name: String, value: String, default defaultText: String? = nil, help: String) -> Option {
        Option(OptionSpec(name, value: value, default: defaultText, help: help, repeats: true), read: { (given: [String], context: OptionContext) throws(RunnerError) in
            for text in given { _ = try Option<String?>.nonEmpty(text, name, context) }
            return given
        })
    }
}

/// The options several commands share.
package enum CommonOptions {
    /// `--seed S`: a decimal or `0x`-hexadecimal 64-bit number; a fresh random one when absent
    /// (printed in the replay line, so every run can be replayed).
    package static let seed = Option<UInt64>(
        OptionSpec("--seed", value: "S", default: "random, printed", help: "Seed of the run (decimal or 0x-hex); replays a run."),
        replay: .always,
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let text = given.last else { return RunnerSeed.random() }
            guard let seed = RunnerSeed.parse(text) else {
                throw context.usage("invalid value '\(text)' for --seed: expected a decimal or 0x-hexadecimal 64-bit number")
            }
            return seed
        }, words: { "--seed \($0)" })

    /// `--no-progress`, for the commands with a live progress line.
    package static let noProgress = Option.flag("--no-progress", help: "Do not write the live progress line on standard error.")
}

extension Option where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the cases of `Value`, by raw value; `defaultValue` when absent.
    package static func choice(_ name: String, value: String, default defaultValue: Value, help: String, replay: ReplayRule = .never) -> Option {
        let allowed = Value.allCases.map(\.rawValue)
        return Option(
            OptionSpec(name, value: value, default: defaultValue.rawValue, help: help + " One of: \(allowed.joined(separator: ", "))."),
            replay: replay,
            read: { (given: [String], context: OptionContext) throws(RunnerError) -> Value in
                guard let text = given.last else { return defaultValue }
                guard let choice = Value(rawValue: text) else {
                    var message = "invalid value '\(text)' for \(name): expected one of \(allowed.joined(separator: ", "))"
                    if let suggestion = ParsedArguments.suggestion(for: text, among: allowed) { message += "; did you mean '\(suggestion)'?" }
                    throw context.usage(message)
                }
                return choice
            }, words: { "\(name) \($0.rawValue)" })
    }
}

/// Every option of a command, read once: typed values by option, and the replay line.
package struct ResolvedOptions: Sendable {
    /// The command.
    let command: CommandSpec
    private let values: [String: ResolvedOption]
    private let given: Set<String>

    /// Reads every option of `command` from `arguments`.
    init(_ command: CommandSpec, arguments: [String: [String]], environment: [String: String]) throws(RunnerError) {
        self.command = command
        let context = OptionContext(command: command.name, environment: environment)
        var values: [String: ResolvedOption] = [:]
        for option in command.options {
            values[option.spec.name] = try option.resolve(arguments[option.spec.name] ?? [], in: context)
        }
        self.values = values
        given = Set(arguments.keys)
    }

    /// The value of `option`, which must be one of the command's.
    package subscript<Value>(_ option: Option<Value>) -> Value {
        guard let value = values[option.spec.name]?.value as? Value else {
            preconditionFailure("\(option.spec.name) is not an option of \(command.name)")
        }
        return value
    }

    /// Whether `option` was given on the command line.
    package func isGiven(_ option: some CommandOption) -> Bool { given.contains(option.spec.name) }

    /// `petspot-contracts COMMAND` and the replay words of every option whose rule lets it in, in
    /// the command's option order.
    package var replayLine: String {
        var words = ["petspot-contracts", command.name]
        for option in command.options {
            guard let resolved = values[option.spec.name], let replay = resolved.replay else { continue }
            switch resolved.rule {
            case .never: continue
            case .always: words.append(replay)
            case .whenGiven: if given.contains(option.spec.name) { words.append(replay) }
            case .alongside(let other): if given.contains(other) { words.append(replay) }
            }
        }
        return words.joined(separator: " ")
    }
}
