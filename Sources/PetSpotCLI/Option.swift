import Foundation
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// A command-line option declared once: its name, value placeholder, default and help (the usage
/// text), how its text becomes a value and is checked (the parser), and how the value is written
/// back into the replay line.
///
/// ```swift
/// static let cases = Option.int("--cases", default: 200, in: 1...10_000_000, help: "Flow cases.", replay: .always)
/// // in the command's init: cases = try options[Self.cases]
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
