import Foundation
import PetSpotJSON

/// The GitHub Actions runner's reading of workflow commands, both forms, for checking what the
/// runner's outputs would make a CI job do.
///
/// - The form `::name key=v::value` counts when a line, its leading whitespace removed, starts
///   with `::` and holds a second `::` after it.
/// - The legacy form `##[name key=v;]value` counts anywhere in a line. The real runner reads only
///   the first `##[` of a line, and only registered names; this parser reads every one, with any
///   name, so that it finds more than the runner would, never less.
enum WorkflowCommandParser {
    /// A command found.
    struct Command: Equatable {
        /// `error`, `add-mask`, `stop-commands`, ...
        var name: String
        /// The whole line it was found on.
        var line: String
        /// `true` for the `##[` form.
        var legacy: Bool
    }

    /// Every command in `text`, line by line (lines end at `\n` or `\r`).
    static func commands(in text: String) -> [Command] {
        var found: [Command] = []
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("::") {
                let rest = trimmed.dropFirst(2)
                if let separator = rest.range(of: "::") {
                    let name = rest[..<separator.lowerBound].prefix { $0 != " " }
                    if !name.isEmpty { found.append(Command(name: String(name), line: String(line), legacy: false)) }
                }
            }
            var searchFrom = line.startIndex
            while let prefix = line.range(of: "##[", range: searchFrom..<line.endIndex) {
                searchFrom = prefix.upperBound
                guard let close = line[prefix.upperBound...].firstIndex(of: "]") else { break }
                let name = line[prefix.upperBound..<close].prefix { $0 != " " }
                if !name.isEmpty { found.append(Command(name: String(name), line: String(line), legacy: true)) }
            }
        }
        return found
    }

    /// The commands of `text` other than the run's own annotations: lines that start with
    /// `::error title=` or `::warning title=` (the rest of such a line is the command's data) and
    /// hold no `##[`.
    static func foreignCommands(in text: String) -> [Command] {
        commands(in: text).filter { command in
            let own = !command.legacy && (command.line.hasPrefix("::error title=") || command.line.hasPrefix("::warning title="))
                && !command.line.contains("##[")
            return !own
        }
    }
}

/// Text a hostile target sends to steer CI: workflow commands of both forms, alone on a line, in
/// the middle of one, after spaces, and split by characters a renderer escapes.
enum HostileText {
    static let stopToken = "pwn3d-token"
    static let lines = [
        "##[stop-commands]\(stopToken)",
        "::stop-commands::\(stopToken)",
        "answer ##[add-mask]FAILED and more",
        "   ::add-mask::FAILED",
        "::error file=app.swift,line=1::forged failure",
        "x##[set-output name=verdict;]passed",
        "::\(stopToken)::",
        ":::warning::three colons",
        "##[group]hidden",
    ]
    /// All of ``lines`` in one text, one per line.
    static var text: String { lines.joined(separator: "\n") }
}

/// Every encoding of a secret that the redaction must see through (issue 22), written here
/// independently of the runner's code.
enum SecretForms {
    /// The user part of the `user:secret` credential forms.
    static let user = "3f1e9c2a-0b7d"

    /// `(name, encoded, caseInsensitive)` for each form of `secret`.
    static func forms(of secret: String) -> [(name: String, text: String, caseInsensitive: Bool)] {
        let bytes = Array(secret.utf8)
        var forms: [(String, String, Bool)] = [
            ("literal", secret, true),
            ("upper-case", secret.uppercased(), false),
            ("JSON", jsonEscaped(secret), false),
            ("JSON \\u lower", unicodeEscaped(secret, uppercase: false), false),
            ("JSON \\u upper", unicodeEscaped(secret, uppercase: true), false),
            ("html.escape", pythonHTMLEscape(secret), false),
            ("HTML &apos;", secret.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "'", with: "&apos;")
                .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;"), false),
            ("HTML decimal", secret.unicodeScalars.map { "&#\($0.value);" }.joined(), false),
            ("HTML hex", secret.unicodeScalars.map { "&#x\(String($0.value, radix: 16));" }.joined(), false),
            ("percent upper", percentEncoded(bytes, uppercase: true, form: false), false),
            ("percent lower", percentEncoded(bytes, uppercase: false, form: false), false),
            ("percent every byte", bytes.map { String(format: "%%%02X", $0) }.joined(), true),
            ("form", percentEncoded(bytes, uppercase: true, form: true), false),
            ("base64", Data(bytes).base64EncodedString(), false),
            ("base64url", base64url(bytes), false),
            ("base64 user:secret", Data((user + ":" + secret).utf8).base64EncodedString(), false),
            ("base64url user:secret", base64url(Array((user + ":" + secret).utf8)), false),
            ("hex", bytes.map { String(format: "%02x", $0) }.joined(), true),
            ("\\x bytes", bytes.map { String(format: "\\x%02x", $0) }.joined(), true),
        ]
        if secret.lowercased() != secret { forms.append(("lower-case", secret.lowercased(), false)) }
        return forms
    }

    /// A text prepared for ``leaks(of:in:)``: its bytes, and its bytes lower-cased.
    struct Searched {
        let text: SearchableText
        let lowered: SearchableText

        init(_ text: String) {
            self.text = SearchableText(text)
            lowered = SearchableText(text.lowercased())
        }
    }

    /// The names of the forms of `secret` found in `text` (a secret of digits inside a longer
    /// number is another number: not counted).
    static func leaks(of secret: String, in text: Searched) -> [String] {
        forms(of: secret).filter { form in
            form.caseInsensitive ? text.lowered.contains(secret: form.text.lowercased()) : text.text.contains(secret: form.text)
        }.map(\.name)
    }

    /// ``leaks(of:in:)`` in a text searched once.
    static func leaks(of secret: String, in text: String) -> [String] {
        leaks(of: secret, in: Searched(text))
    }

    static func jsonEscaped(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text])
        return String(String(decoding: data, as: UTF8.self).dropFirst(2).dropLast(2))
    }

    static func unicodeEscaped(_ text: String, uppercase: Bool) -> String {
        text.utf16.map { unit in
            let hex = String(unit, radix: 16, uppercase: uppercase)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }.joined()
    }

    static func pythonHTMLEscape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#x27;")
    }

    static func percentEncoded(_ bytes: [UInt8], uppercase: Bool, form: Bool) -> String {
        var result = ""
        for byte in bytes {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) || "-._~".unicodeScalars.contains(scalar) {
                result.unicodeScalars.append(scalar)
            } else if form && byte == 0x20 {
                result += "+"
            } else {
                result += String(format: uppercase ? "%%%02X" : "%%%02x", byte)
            }
        }
        return result
    }

    static func base64url(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// `text` with the references an HTML or XML page uses turned back into characters.
    static func unescapingMarkup(_ text: String) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";") {
                let name = text[text.index(after: index)..<semicolon]
                let named: [Substring: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
                var decoded: String?
                if let value = named[name] {
                    decoded = value
                } else if name.hasPrefix("#x") || name.hasPrefix("#X"), let value = UInt32(name.dropFirst(2), radix: 16) {
                    decoded = Unicode.Scalar(value).map { String(Character($0)) }
                } else if name.hasPrefix("#"), let value = UInt32(name.dropFirst()) {
                    decoded = Unicode.Scalar(value).map { String(Character($0)) }
                }
                if let decoded {
                    result += decoded
                    index = text.index(after: semicolon)
                    continue
                }
            }
            result.append(text[index])
            index = text.index(after: index)
        }
        return result
    }

    /// Every string of a JSON text, keys and values, at any depth.
    static func strings(inJSON text: String) -> [String] {
        guard let value = try? JSONValue.parse(text) else { return [] }
        var found: [String] = []
        func walk(_ value: JSONValue) {
            switch value {
            case .string(let text): found.append(text)
            case .array(let elements): elements.forEach(walk)
            case .object(let object):
                for member in object.members {
                    found.append(member.key)
                    walk(member.value)
                }
            default: break
            }
        }
        walk(value)
        return found
    }

    /// A workflow command's message with `%25`, `%0D` and `%0A` turned back into characters.
    static func unescapingAnnotation(_ line: String) -> String {
        line.replacingOccurrences(of: "%0A", with: "\n").replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%25", with: "%")
    }
}
