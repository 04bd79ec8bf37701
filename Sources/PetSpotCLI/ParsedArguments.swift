import Foundation
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The flags of one command line, parsed against a ``CommandSpec``: which flags were given and
/// with which values. ``resolve(environment:)`` then reads every option's typed value.
///
/// Accepts `--flag value` and `--flag=value`; a switch takes no value. An unknown flag is a
/// usage error with a "did you mean" suggestion; a flag given twice keeps the last value, unless
/// it repeats (`--break A --break B`), which keeps every value.
package struct ParsedArguments: Sendable {
    /// The command the arguments were parsed for.
    let command: CommandSpec
    /// Values by flag name, in order (a switch maps to one empty string).
    private(set) var values: [String: [String]] = [:]
    /// Whether `--help` was given.
    var wantsHelp: Bool { values["--help"] != nil }

    /// Parses `arguments` (the words after the command) for `command`.
    ///
    /// - Throws: ``RunnerError`` (usage) for an unknown flag, a stray word or a missing value.
    init(_ arguments: [String], for command: CommandSpec) throws(RunnerError) {
        self.command = command
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "-h" {
                values["--help"] = [""]
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
            guard let option = command.option(named: name)?.spec else {
                var message = "unknown option '\(name)'"
                if let suggestion = Self.suggestion(for: name, among: command.options.map(\.spec.name)) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw .usage(message, command: command.name)
            }
            let value: String
            if option.valueName == nil {
                if inlineValue != nil { throw .usage("option '\(name)' takes no value", command: command.name) }
                value = ""
            } else if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw .usage("option '\(name)' needs a value (\(option.valueName ?? "VALUE"))", command: command.name)
            }
            values[name] = option.repeats ? (values[name] ?? []) + [value] : [value]
        }
    }

    /// The raw value of `name`, if given (the last one).
    func string(_ name: String) -> String? { values[name]?.last }

    /// Every option's value, read and checked.
    /// - Throws: a usage error naming the first bad flag.
    package func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws(RunnerError) -> ResolvedOptions {
        try ResolvedOptions(command, arguments: values, environment: environment)
    }

    /// An `http` or `https` base URL with a host, or `nil` when absent.
    ///
    /// The scheme and host are case-insensitive (`HTTP://Example.COM` is `http://example.com`),
    /// an IPv6 literal is accepted in brackets (`http://[::1]:8080`), and credentials
    /// (`http://user:password@host`) are taken out of the URL: the runner never sends them (its
    /// contracts send their own `Authorization` headers) and never prints them; read them with
    /// ``baseURLCredentials(_:)`` to mask them. Anything else is refused here, with the byte or
    /// part at fault named, so that a URL accepted here is one the transport can use.
    static func baseURL(_ text: String, flag name: String, command: String) throws(RunnerError) -> URL {
        let shown = DisplayText.sanitized(text, maxBytes: 200)
        func invalid(_ reason: String) -> RunnerError {
            .usage("invalid URL '\(shown)' for \(name): \(reason)", command: command)
        }
        let example = "expected http://HOST[:PORT][/PATH], e.g. http://127.0.0.1:8080"
        if let offset = text.utf8.firstIndex(where: { $0 <= 0x20 || $0 == 0x7F }) {
            throw invalid("a space or control character at byte \(text.utf8.distance(from: text.utf8.startIndex, to: offset)); \(example)")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw invalid(example)
        }
        guard scheme == "http" || scheme == "https" else { throw invalid("the scheme must be http or https; \(example)") }
        guard var host = components.percentEncodedHost, !host.isEmpty else { throw invalid("no host; \(example)") }
        if host.hasPrefix("[") || host.contains(":") {
            guard host.hasPrefix("["), host.hasSuffix("]") else { throw invalid("an IPv6 address must be in brackets, e.g. http://[::1]:8080") }
            let address = String(host.dropFirst().dropLast())
            var parsed = in6_addr()
            guard inet_pton(AF_INET6, address, &parsed) == 1 else {
                throw invalid("'\(DisplayText.sanitized(address, maxBytes: 80))' is not an IPv6 address")
            }
            host = "[" + address.lowercased() + "]"
        } else {
            let allowed = host.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "_")
            }
            guard allowed else { throw invalid("the host may hold only letters, digits, '-', '.' and '_'; \(example)") }
            host = host.lowercased()
        }
        guard components.query == nil, components.fragment == nil else { throw invalid("no query or fragment allowed; \(example)") }
        if let port = components.port, !(1...65535).contains(port) {
            throw invalid("port \(port) is outside 1-65535")
        }
        var clean = URLComponents()
        clean.scheme = scheme
        clean.percentEncodedHost = host
        clean.port = components.port
        clean.percentEncodedPath = components.percentEncodedPath
        guard let url = clean.url else { throw invalid(example) }
        return url
    }

    /// The `user` and `password` of a base URL given as `http://user:password@host`, if any.
    package static func baseURLCredentials(_ text: String) -> (user: String, password: String?)? {
        guard let components = URLComponents(string: text) else { return nil }
        guard let user = components.user else { return components.password.map { ("", $0) } }
        return (user, components.password)
    }

    /// The closest candidate to `word` (edit distance at most 3, or a shared prefix), if any.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
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
}
