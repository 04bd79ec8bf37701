import Foundation

/// The flags of one command line, parsed against a ``CommandSpec`` and read with typed accessors
/// that name the flag in every error.
///
/// Accepts `--flag value` and `--flag=value`; a switch takes no value. An unknown flag is a
/// usage error with a "did you mean" suggestion; a flag given twice keeps the last value.
public struct ParsedArguments: Sendable {
    /// The command the arguments were parsed for.
    public let command: CommandSpec
    /// Values by flag name (switches map to the empty string).
    public private(set) var values: [String: String] = [:]
    /// Whether `--help` was given.
    public var wantsHelp: Bool { values["--help"] != nil }

    /// Parses `arguments` (the words after the command) for `command`.
    ///
    /// - Throws: ``RunnerError`` (usage) for an unknown flag, a stray word or a missing value.
    public init(_ arguments: [String], for command: CommandSpec) throws(RunnerError) {
        self.command = command
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "-h" {
                values["--help"] = ""
                continue
            }
            guard word.hasPrefix("--"), word.count > 2 else {
                throw .usage("unexpected argument '\(word)'; options start with '--'", command: command.name)
            }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let option = command.option(named: name) else {
                var message = "unknown option '\(name)'"
                if let suggestion = Self.suggestion(for: name, among: command.options.map(\.name)) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw .usage(message, command: command.name)
            }
            if option.valueName == nil {
                if inlineValue != nil { throw .usage("option '\(name)' takes no value", command: command.name) }
                values[name] = ""
                continue
            }
            if let inlineValue {
                values[name] = inlineValue
            } else if index < arguments.count {
                values[name] = arguments[index]
                index += 1
            } else {
                throw .usage("option '\(name)' needs a value (\(option.valueName ?? "VALUE"))", command: command.name)
            }
        }
    }

    /// The raw value of `name`, if given.
    public func string(_ name: String) -> String? { values[name] }

    /// Whether the switch `name` was given.
    public func flag(_ name: String) -> Bool { values[name] != nil }

    /// An integer option within `range`, or `defaultValue` when absent.
    public func int(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(RunnerError) -> Int {
        guard let text = values[name] else { return defaultValue }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw .usage("invalid value '\(text)' for \(name): expected a whole number from \(range.lowerBound) to \(range.upperBound)", command: command.name)
        }
        return value
    }

    /// A duration in seconds within `range`, or `defaultValue` when absent.
    public func seconds(_ name: String, default defaultValue: Double, in range: ClosedRange<Double>) throws(RunnerError) -> Double {
        guard let text = values[name] else { return defaultValue }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, range.contains(value) else {
            throw .usage("invalid value '\(text)' for \(name): expected seconds from \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound))", command: command.name)
        }
        return value
    }

    /// A seed (decimal or `0x` hexadecimal UInt64), or `nil` when absent.
    public func seed(_ name: String = "--seed") throws(RunnerError) -> UInt64? {
        guard let text = values[name] else { return nil }
        guard let seed = RunnerSeed.parse(text) else {
            throw .usage("invalid value '\(text)' for \(name): expected a decimal or 0x-hexadecimal 64-bit number", command: command.name)
        }
        return seed
    }

    /// A value from a fixed set, or `defaultValue` when absent.
    public func choice(_ name: String, default defaultValue: String, among allowed: [String]) throws(RunnerError) -> String {
        guard let text = values[name] else { return defaultValue }
        guard allowed.contains(text) else {
            var message = "invalid value '\(text)' for \(name): expected one of \(allowed.joined(separator: ", "))"
            if let suggestion = Self.suggestion(for: text, among: allowed) { message += "; did you mean '\(suggestion)'?" }
            throw .usage(message, command: command.name)
        }
        return text
    }

    /// A non-empty text value, or `nil` when absent.
    public func nonEmpty(_ name: String) throws(RunnerError) -> String? {
        guard let text = values[name] else { return nil }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .usage("option \(name) needs a non-empty value", command: command.name)
        }
        return text
    }

    /// An `http` or `https` base URL with a host, or `nil` when absent.
    public func baseURL(_ name: String) throws(RunnerError) -> URL? {
        guard let text = values[name] else { return nil }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil, let url = components.url
        else {
            throw .usage("invalid URL '\(text)' for \(name): expected http://HOST[:PORT][/PATH], e.g. http://127.0.0.1:8080", command: command.name)
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw .usage("invalid URL '\(text)' for \(name): port \(port) is outside 1-65535", command: command.name)
        }
        return url
    }

    /// The closest candidate to `word` (edit distance at most 3, or a shared prefix), if any.
    public static func suggestion(for word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        if best.1 <= max(1, min(3, word.count / 3 + 1)) { return best.0 }
        let prefixed = candidates.filter { $0.hasPrefix(word) || (word.count > 3 && word.hasPrefix($0)) }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Levenshtein distance between two strings (by Character).
    static func editDistance(_ left: String, _ right: String) -> Int {
        let a = Array(left), b = Array(right)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    private static func plain(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// Seeds as the command line reads and prints them.
public enum RunnerSeed {
    /// Parses a decimal or `0x`-hexadecimal UInt64.
    public static func parse(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") { return UInt64(trimmed.dropFirst(2), radix: 16) }
        return UInt64(trimmed)
    }

    /// A fresh random seed.
    public static func random() -> UInt64 { UInt64.random(in: 1...UInt64.max) }
}
