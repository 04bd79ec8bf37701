import Foundation
import PetSpotModel
import PetSpotReport
import PetSpotRuntime

/// A copy-pasteable `curl` command line that sends the same request again, for the report of a
/// failing case of `run`.
///
/// Secrets are never printed: the admin token becomes `"$PETSPOT_ADMIN_TOKEN"` and a management
/// password `"$PETSPOT_MANAGEMENT_PASSWORD"` wherever they appear (Basic credentials are rebuilt
/// with `-u` or `printf ... | base64`). Text bodies go in a single-quoted `--data-binary`; binary
/// and multipart bodies are piped from `printf` (long runs of one byte from `head -c N /dev/zero`),
/// so that `/bin/sh` reproduces the exact bytes. The command prints the status line and headers
/// (`-i`), so the answer can be compared with the report's.
///
/// ```swift
/// CurlReproduction(baseURL: url, adminToken: token, managementPasswords: []).command(for: request)
/// // curl -sS -i -X DELETE 'http://127.0.0.1:8080/api/admin/v1/announcements/…' -H 'Authorization: '"$PETSPOT_ADMIN_TOKEN"
/// ```
package struct CurlReproduction: Sendable {
    /// The environment variable holding the admin token.
    package static let adminTokenVariable = "PETSPOT_ADMIN_TOKEN"
    /// The environment variable holding the management password of the request's announcement.
    package static let passwordVariable = "PETSPOT_MANAGEMENT_PASSWORD"
    /// Runs of one byte at least this long are produced with `head -c` instead of spelled out.
    static let runThreshold = 64

    /// The backend's base URL.
    package let baseURL: URL
    /// The admin token, replaced by `$PETSPOT_ADMIN_TOKEN`.
    package let adminToken: String?
    /// Management passwords of the run, replaced by `$PETSPOT_MANAGEMENT_PASSWORD`.
    package let managementPasswords: Set<String>

    /// A reproduction against `baseURL` with these secrets.
    package init(baseURL: URL, adminToken: String?, managementPasswords: Set<String>) {
        self.baseURL = baseURL
        self.adminToken = adminToken.flatMap { $0.isEmpty ? nil : $0 }
        self.managementPasswords = managementPasswords.filter { !$0.isEmpty && $0 != adminToken }
    }

    /// One shell word made of literal text and variable references.
    private struct Word {
        var pieces: [(text: String, isVariable: Bool)] = []

        init(_ text: String) { pieces = [(text, false)] }
        init(pieces: [(text: String, isVariable: Bool)]) { self.pieces = pieces }

        /// `'literal'"$VAR"'literal'`: single quotes around literal text, double around variables.
        var shell: String {
            var output = ""
            for piece in pieces where !piece.text.isEmpty || !piece.isVariable {
                output += piece.isVariable ? "\"$\(piece.text)\"" : shellQuoted(piece.text)
            }
            return output.isEmpty ? "''" : output
        }

        var containsVariable: Bool { pieces.contains { $0.isVariable } }
    }

    /// `text` split at every secret, each replaced by its variable.
    private func word(_ text: String) -> Word {
        var pieces: [(text: String, isVariable: Bool)] = [(text, false)]
        var secrets: [(String, String)] = []
        if let adminToken { secrets.append((adminToken, Self.adminTokenVariable)) }
        for password in managementPasswords.sorted() { secrets.append((password, Self.passwordVariable)) }
        for (secret, variable) in secrets {
            pieces = pieces.flatMap { piece -> [(text: String, isVariable: Bool)] in
                guard !piece.isVariable, piece.text.contains(secret) else { return [piece] }
                let parts = piece.text.components(separatedBy: secret)
                var result: [(text: String, isVariable: Bool)] = []
                for (index, part) in parts.enumerated() {
                    if index > 0 { result.append((variable, true)) }
                    if !part.isEmpty { result.append((part, false)) }
                }
                return result
            }
        }
        return Word(pieces: pieces)
    }

    /// The command line.
    package func command(for request: TransportRequest) -> String {
        var words = ["curl", "-sS", "-i"]
        switch request.method {
        case "GET": break
        case "HEAD": words.append("--head")
        default: words += ["-X", word(request.method).shell]
        }
        words.append(word(Self.url(baseURL, request.path)).shell)
        words.append("--path-as-is")
        var sawContentType = false
        for header in request.headers {
            if header.name.caseInsensitiveCompare("Content-Type") == .orderedSame { sawContentType = true }
            if header.name.caseInsensitiveCompare("Content-Length") == .orderedSame { continue }
            words += header.name.caseInsensitiveCompare("Authorization") == .orderedSame
                ? authorization(header.value) : ["-H", word("\(header.name): \(header.value)").shell]
        }
        let sendsBody = !request.body.isEmpty || request.method == "POST" || request.method == "PUT" || request.method == "PATCH"
        guard sendsBody else { return words.joined(separator: " ") }
        // curl adds a form Content-Type to --data-binary unless told to send none.
        if !sawContentType { words += ["-H", shellQuoted("Content-Type:")] }
        if request.body.count > 1024 { words += ["-H", shellQuoted("Expect:")] }
        if request.body.count <= 16 * 1024, let text = Self.plainText([UInt8](request.body)) {
            let body = word(text)
            words += ["--data-binary", body.shell]
            return words.joined(separator: " ")
        }
        words += ["--data-binary", "@-"]
        return producer([UInt8](request.body)) + " | " + words.joined(separator: " ")
    }

    /// The words that send `value` as the Authorization header, secrets from variables.
    private func authorization(_ value: String) -> [String] {
        let plain = word("Authorization: \(value)")
        let scheme = value.prefix(6).lowercased()
        guard scheme == "basic ", let decoded = Self.decodeBase64(String(value.dropFirst(6)).trimmingCharacters(in: .whitespaces))
        else { return ["-H", plain.shell] }
        let credentials = word(decoded)
        guard credentials.containsVariable else { return ["-H", plain.shell] }
        // `-u user:password` sends exactly Basic base64(user:password).
        if let colon = decoded.firstIndex(of: ":"), !decoded[..<colon].isEmpty, !word(String(decoded[..<colon])).containsVariable,
            value.dropFirst(6) == Data(decoded.utf8).base64EncodedString()
        {
            return ["-u", credentials.shell]
        }
        return ["-H", "\"Authorization: Basic $(printf '%s' \(credentials.shell) | base64 | tr -d '\\n')\""]
    }

    /// The text of `bytes` when it is printable UTF-8 without long runs (else `nil`).
    static func plainText(_ bytes: [UInt8]) -> String? {
        // curl reads `--data-binary @name` from a file: such a body goes through the pipe.
        guard bytes.count <= 16 * 1024, bytes.first != UInt8(ascii: "@"), longestRun(bytes) < runThreshold,
            let text = String(bytes: bytes, encoding: .utf8)
        else { return nil }
        let printable = text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F || $0 == "\n" || $0 == "\t" }
        return printable ? text : nil
    }

    private static func longestRun(_ bytes: [UInt8]) -> Int {
        var longest = 0, index = 0
        while index < bytes.count {
            let end = runEnd(bytes, from: index)
            longest = max(longest, end - index)
            index = end
        }
        return longest
    }

    /// A shell pipeline source that writes exactly `bytes` to standard output.
    func producer(_ bytes: [UInt8]) -> String {
        var commands: [String] = []
        var literal: [UInt8] = []
        func flush() {
            guard !literal.isEmpty else { return }
            commands.append("printf " + printfFormat(literal))
            literal.removeAll()
        }
        var index = 0
        var nextPeriodCheck = 1024
        while index < bytes.count {
            // A long stretch that repeats a block (text padded with more of itself) becomes a loop.
            if literal.count >= nextPeriodCheck, let (period, length) = Self.periodicStretch(bytes, from: index) {
                flush()
                let repeats = length / period
                let block = printfFormat(Array(bytes[index..<(index + period)]))
                commands.append("n=0; while [ $n -lt \(repeats) ]; do printf \(block); n=$((n+1)); done")
                index += repeats * period
                nextPeriodCheck = 1024
                continue
            }
            if literal.count >= nextPeriodCheck { nextPeriodCheck += 1024 }
            let end = Self.runEnd(bytes, from: index)
            let count = end - index
            if count >= Self.runThreshold {
                flush()
                let zeros = "head -c \(count) /dev/zero"
                commands.append(bytes[index] == 0 ? zeros : zeros + " | tr '\\000' '\\\(Self.octal(bytes[index]))'")
            } else {
                literal.append(contentsOf: bytes[index..<end])
            }
            index = end
        }
        flush()
        if commands.isEmpty { return "printf ''" }
        return commands.count == 1 ? commands[0] : "{ " + commands.joined(separator: "; ") + "; }"
    }

    /// The period (at most 4096 bytes) and length of a stretch from `start` that repeats one
    /// block at least 16 times and spans at least 16 KB, or `nil`.
    static func periodicStretch(_ bytes: [UInt8], from start: Int) -> (period: Int, length: Int)? {
        guard bytes.count - start >= 16 * 1024 else { return nil }
        let probe = 64
        var found: Int?
        for period in 1...4096 where start + period + probe <= bytes.count {
            if bytes[start..<(start + probe)].elementsEqual(bytes[(start + period)..<(start + period + probe)]) {
                found = period
                break
            }
        }
        guard let period = found else { return nil }
        let block = bytes[start..<(start + period)]
        var length = period
        while start + length + period <= bytes.count, bytes[(start + length)..<(start + length + period)].elementsEqual(block) {
            length += period
        }
        return length >= max(16 * period, 16 * 1024) ? (period, length) : nil
    }

    /// The end of the run of equal bytes starting at `start`.
    static func runEnd(_ bytes: [UInt8], from start: Int) -> Int {
        let value = bytes[start]
        var end = start + 1
        while end < bytes.count && bytes[end] == value { end += 1 }
        return end
    }

    /// Three octal digits.
    static func octal(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 8)
        return String(repeating: "0", count: 3 - digits.count) + digits
    }

    /// The base URL without a trailing slash, then `path`.
    static func url(_ baseURL: URL, _ path: String) -> String {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + path
    }

    /// `text` decoded from base64 (padding optional) as UTF-8, or `nil`.
    static func decodeBase64(_ text: String) -> String? {
        var padded = text
        while padded.utf8.count % 4 != 0 { padded += "=" }
        guard let data = Data(base64Encoded: padded) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}

extension CurlReproduction {
    /// A `printf` format, single-quoted, that prints `bytes`: printable ASCII as itself (`%` and
    /// `\` escaped), every other byte as `\ooo`; a secret inside it is masked, never printed.
    func printfFormat(_ bytes: [UInt8]) -> String {
        var format = ""
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where index == 0: format += "\\055"  // a format must not look like an option
            case UInt8(ascii: "%"): format += "%%"
            case UInt8(ascii: "\\"): format += "\\\\"
            case UInt8(ascii: "'"): format += "\\047"
            case 0x20...0x7E: format += String(UnicodeScalar(byte))
            default: format += "\\" + CurlReproduction.octal(byte)
            }
        }
        var secrets = Array(managementPasswords)
        if let adminToken { secrets.append(adminToken) }
        for secret in secrets where format.contains(secret) {
            format = format.replacingOccurrences(of: secret, with: Redactor.mask)
        }
        return "'" + format + "'"
    }
}
