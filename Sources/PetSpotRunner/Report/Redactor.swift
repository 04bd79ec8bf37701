import Foundation
import PetSpotConcurrency
import PetSpotJSON
import PetSpotModel

/// Removes secrets from everything a report shows: the admin token, management passwords,
/// credentials the runner sent, and credentials inside URLs.
///
/// There is one redaction layer, applied twice: contracts redact the request and answer of a
/// failure when they record it, and ``ContractRecorder/report(command:arguments:target:seed:startedAt:)``
/// passes the whole report through ``ContractReport/sanitized(by:)`` with every secret the run
/// learnt (a ``SecretStore``), so console, JSON, JUnit and any later rendering read an already
/// redacted report and none of them can forget it.
///
/// What is masked (with ``mask``):
/// - structurally: the values of credential headers (``secretHeaders``; a scheme such as `Basic`
///   is kept), the values of secret JSON keys (``secretKeys``), the values of secret flags
///   (``secretFlags``), and the password of any `scheme://user:password@host` URL;
/// - every secret of 4 or more characters wherever it appears as a substring, in each encoding
///   the runner may have sent it or a server may echo it: plain, JSON-escaped, percent-encoded,
///   HTML-escaped and base64 (a secret made of digits is not masked inside a longer run of
///   digits: `123456` is not a password inside the microchip `987123456001234`);
/// - every secret of any length, even 1 to 3 characters, where it is a whole value: a JSON
///   string, a `name=value` query or form value, a `Name: value` header line (also after a
///   `Basic`/`Bearer` scheme), a header field, a command-line argument.
///
/// Cost: building a redactor is linear in the secrets; ``scrub(_:)`` is linear in the text (one
/// table look-up per byte), whatever the number of secrets.
package struct Redactor: Sendable, Hashable {
    /// What a secret is replaced with.
    static let mask = "******"
    /// JSON keys whose values are secrets.
    static let secretKeys: Set<String> = ["managementPassword", "password", "adminToken", "token"]
    /// Header names whose values are credentials.
    static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "x-admin-token"]
    /// Command-line flags whose values are secrets.
    static let secretFlags: Set<String> = ["--admin-token"]
    /// Authorization schemes kept in front of a masked credential.
    static let schemes: Set<String> = ["basic", "bearer", "token", "digest"]

    /// The secrets masked, sorted, without repeats (empty strings are ignored).
    let secrets: [String]
    /// The secrets, compiled for matching.
    private let matcher: SecretMatcher

    /// A redactor for these literal secrets.
    init(secrets: [String] = []) {
        let unique = Array(Set(secrets.filter { !$0.isEmpty })).sorted()
        self.secrets = unique
        matcher = SecretMatcher(unique)
    }

    /// Redactors are equal when they mask the same secrets.
    package static func == (lhs: Redactor, rhs: Redactor) -> Bool { lhs.secrets == rhs.secrets }

    /// Hashes the secrets.
    package func hash(into hasher: inout Hasher) { hasher.combine(secrets) }

    /// This redactor, also masking `secret` (a management password learnt during the run).
    func adding(_ secret: String) -> Redactor {
        Redactor(secrets: secrets + [secret])
    }

    /// The length in UTF-8 bytes of the longest secret (0 when there is none).
    package var longestSecretBytes: Int { matcher.longest }

    /// `text` scrubbed, looking at its first `maxBytes` bytes only (plus a margin so that a secret
    /// across the cut, in any encoding, is still found): for long texts that are cut anyway.
    package func scrubbedPrefix(_ text: String, maxBytes: Int) -> String {
        let window = prefixWindow(maxBytes: maxBytes)
        guard text.utf8.count > window else { return scrub(text) }
        return scrub(String(decoding: text.utf8.prefix(window), as: UTF8.self))
    }

    /// How many bytes of a text ``scrubbedPrefix(_:maxBytes:)`` keeps.
    package func prefixWindow(maxBytes: Int) -> Int { maxBytes + 4 * longestSecretBytes + 256 }

    /// Whether `value`, as a whole, is one of the secrets.
    func isSecret(_ value: String) -> Bool { matcher.whole.contains(value) }

    /// `text` with every secret masked: substrings (4+ characters, every encoding), whole values
    /// of any length, and URL credentials.
    func scrub(_ text: String) -> String {
        if text.isEmpty { return text }
        var bytes = Array(text.utf8)
        var changed = false
        if let masked = matcher.maskSubstrings(bytes) {
            bytes = masked
            changed = true
        }
        if let masked = Self.maskURLCredentials(bytes) {
            bytes = masked
            changed = true
        }
        if !matcher.whole.isEmpty, let masked = maskWholeValues(bytes) {
            bytes = masked
            changed = true
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : text
    }

    /// A header value as it may be shown: credentials keep their scheme only; a value that is a
    /// secret is masked whole; anything else is scrubbed.
    func header(name: String, value: String) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if Self.secretHeaders.contains(name.lowercased()) {
            if let space = trimmed.firstIndex(of: " ") {
                let scheme = trimmed[..<space]
                if Self.schemes.contains(scheme.lowercased()) { return "\(scheme) \(Self.mask)" }
            }
            return Self.mask
        }
        if isSecret(trimmed) { return Self.mask }
        if let space = trimmed.firstIndex(of: " "), Self.schemes.contains(trimmed[..<space].lowercased()),
            isSecret(trimmed[trimmed.index(after: space)...].trimmingCharacters(in: .whitespaces))
        {
            return "\(trimmed[..<space]) \(Self.mask)"
        }
        return scrub(value)
    }

    /// A JSON value with every secret key's value masked and every string that is a secret (or
    /// contains one) masked, at any depth.
    func json(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            var members: [JSONObject.Element] = []
            for member in object.members {
                if Self.secretKeys.contains(member.key), !member.value.isNull {
                    members.append((scrub(member.key), .string(Self.mask)))
                } else {
                    members.append((isSecret(member.key) ? Self.mask : scrub(member.key), json(member.value)))
                }
            }
            return .object(JSONObject(members))
        case .array(let elements):
            return .array(elements.map(json))
        case .string(let text):
            return .string(isSecret(text) ? Self.mask : scrub(text))
        default:
            return value
        }
    }

    /// A body as text: JSON redacted and compact, other text scrubbed, binary summarised.
    func body(_ data: Data, contentType: String? = nil) -> String {
        if data.isEmpty { return "" }
        if let parsed = try? JSONValue.parse(data) { return json(parsed).serialized() }
        if let type = contentType?.lowercased(), type.hasPrefix("multipart/") {
            return "(multipart body, \(data.count) bytes)"
        }
        guard let text = String(data: data, encoding: .utf8) else { return "(\(data.count) bytes of binary data)" }
        // Scrubbed before it is cut (with a margin), so that a secret across the cut is still found.
        let scrubbed = scrubbedPrefix(Self.maskingPasswordMembers(text), maxBytes: 8_000)
        return scrubbed.count > 2_000 ? String(scrubbed.prefix(2_000)) + "... (\(data.count) bytes)" : scrubbed
    }

    /// A request as a report shows it.
    func request(_ request: TransportRequest) -> ReportedRequest {
        ReportedRequest(
            method: request.method, path: scrub(request.path),
            headers: request.headers.map { ReportedHeader(name: $0.name, value: header(name: $0.name, value: $0.value)) },
            body: body(request.body, contentType: request.header("Content-Type")))
    }

    /// An answer as a report shows it: `STATUS body`.
    func response(_ response: TransportResponse) -> String {
        let text = body(response.body, contentType: response.header("Content-Type"))
        return text.isEmpty ? "\(response.status) (empty body)" : "\(response.status) \(text)"
    }

    /// Command-line arguments with the values of secret flags masked, and every word that is a
    /// secret (or contains one, or a URL with credentials) masked.
    func arguments(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var maskNext = false
        for word in arguments {
            if maskNext {
                result.append(Self.mask)
                maskNext = false
                continue
            }
            if let equals = word.firstIndex(of: "="), Self.secretFlags.contains(String(word[..<equals])) {
                result.append(String(word[..<equals]) + "=" + Self.mask)
            } else if isSecret(word) {
                result.append(Self.mask)
            } else {
                if Self.secretFlags.contains(word) { maskNext = true }
                result.append(scrub(word))
            }
        }
        return result
    }

    /// Masks `"managementPassword": "..."` in text that is not valid JSON.
    static func maskingPasswordMembers(_ text: String) -> String {
        var result = text
        for key in secretKeys {
            var searchStart = result.startIndex
            while let keyRange = result.range(of: "\"\(key)\"", range: searchStart..<result.endIndex) {
                var index = keyRange.upperBound
                while index < result.endIndex, result[index] == " " || result[index] == ":" { index = result.index(after: index) }
                guard index < result.endIndex, result[index] == "\"" else {
                    searchStart = keyRange.upperBound
                    continue
                }
                let valueStart = result.index(after: index)
                var valueEnd = valueStart
                while valueEnd < result.endIndex, result[valueEnd] != "\"" { valueEnd = result.index(after: valueEnd) }
                result.replaceSubrange(valueStart..<valueEnd, with: mask)
                searchStart = result.index(valueStart, offsetBy: mask.count, limitedBy: result.endIndex) ?? result.endIndex
            }
        }
        return result
    }

    // MARK: Whole values

    /// ``mask`` as bytes.
    private static let maskBytes = Array(mask.utf8)

    /// Bytes that end a `name=value` value.
    private static func endsFormValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "#"), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: " "), UInt8(ascii: "\t"),
            UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"),
            UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
            true
        default: false
        }
    }

    /// Bytes of a header or parameter name.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]"):
            true
        default: false
        }
    }

    /// Masks whole values that are secrets: JSON strings (and, inside a JSON string that is
    /// not one, its decoded text in turn), `name=value` values and `Name: value` lines; `nil`
    /// when nothing was masked.
    private func maskWholeValues(_ bytes: [UInt8], depth: Int = 0) -> [UInt8]? {
        var edits: [(range: Range<Int>, replacement: [UInt8])] = []
        var index = 0
        let count = bytes.count
        var lineStart = 0
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\""), let end = Self.closingQuote(bytes, after: index) {
                let content = bytes[(index + 1)..<end]
                let value: String?
                if content.contains(UInt8(ascii: "\\")) {
                    value = (try? JSONValue.parse(Data(bytes[index...end])))?.stringValue
                } else {
                    value = String(decoding: content, as: UTF8.self)
                }
                if let value {
                    if isSecret(value) {
                        edits.append(((index + 1)..<end, Self.maskBytes))
                    } else if depth < 3, value.contains(where: { $0 == "=" || $0 == ":" || $0 == "\"" }),
                        let inner = maskWholeValues(Array(value.utf8), depth: depth + 1)
                    {
                        let escaped = JSONValue.string(String(decoding: inner, as: UTF8.self)).serialized()
                        edits.append(((index + 1)..<end, Array(escaped.utf8.dropFirst().dropLast())))
                    }
                }
                index = end + 1
                continue
            } else if byte == UInt8(ascii: "="), index > 0, Self.isNameByte(bytes[index - 1]) {
                var end = index + 1
                while end < count, !Self.endsFormValue(bytes[end]) { end += 1 }
                if end > index + 1 {
                    let raw = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                    let decoded = raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
                    if isSecret(raw) || decoded.map(isSecret) == true { edits.append(((index + 1)..<end, Self.maskBytes)) }
                }
                index = end
                continue
            } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                lineStart = index + 1
            } else if byte == UInt8(ascii: ":"), let range = headerLineValue(bytes, lineStart: lineStart, colon: index) {
                edits.append((range, Self.maskBytes))
                index = range.upperBound
                continue
            }
            index += 1
        }
        guard !edits.isEmpty else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(count)
        var copied = 0
        for edit in edits where edit.range.lowerBound >= copied {
            result.append(contentsOf: bytes[copied..<edit.range.lowerBound])
            result.append(contentsOf: edit.replacement)
            copied = edit.range.upperBound
        }
        result.append(contentsOf: bytes[copied..<count])
        return result
    }

    /// The index of the quote closing the JSON string literal opened at `open`, on the same
    /// line, or `nil`.
    private static func closingQuote(_ bytes: [UInt8], after open: Int) -> Int? {
        var end = open + 1
        var escaped = false
        while end < bytes.count {
            let next = bytes[end]
            if next == UInt8(ascii: "\n") || next == UInt8(ascii: "\r") { return nil }
            if escaped {
                escaped = false
            } else if next == UInt8(ascii: "\\") {
                escaped = true
            } else if next == UInt8(ascii: "\"") {
                return end
            }
            end += 1
        }
        return nil
    }

    /// For a line `Name: value` whose colon is at `colon`: the range of the value (or of the
    /// credential after a `Basic`/`Bearer` scheme) when it is a secret.
    private func headerLineValue(_ bytes: [UInt8], lineStart: Int, colon: Int) -> Range<Int>? {
        var nameStart = lineStart
        while nameStart < colon, bytes[nameStart] == UInt8(ascii: " ") || bytes[nameStart] == UInt8(ascii: "\t") { nameStart += 1 }
        guard nameStart < colon, bytes[nameStart..<colon].allSatisfy({ Self.isNameByte($0) }) else { return nil }
        var valueStart = colon + 1
        while valueStart < bytes.count, bytes[valueStart] == UInt8(ascii: " ") || bytes[valueStart] == UInt8(ascii: "\t") { valueStart += 1 }
        var lineEnd = valueStart
        while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n"), bytes[lineEnd] != UInt8(ascii: "\r") { lineEnd += 1 }
        var valueEnd = lineEnd
        while valueEnd > valueStart, bytes[valueEnd - 1] == UInt8(ascii: " ") || bytes[valueEnd - 1] == UInt8(ascii: "\t") { valueEnd -= 1 }
        guard valueEnd > valueStart else { return nil }
        let value = String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
        if isSecret(value) { return valueStart..<valueEnd }
        if let space = bytes[valueStart..<valueEnd].firstIndex(of: UInt8(ascii: " ")),
            Self.schemes.contains(String(decoding: bytes[valueStart..<space], as: UTF8.self).lowercased())
        {
            var credentialStart = space + 1
            while credentialStart < valueEnd, bytes[credentialStart] == UInt8(ascii: " ") { credentialStart += 1 }
            if credentialStart < valueEnd, isSecret(String(decoding: bytes[credentialStart..<valueEnd], as: UTF8.self)) {
                return credentialStart..<valueEnd
            }
        }
        return nil
    }

    /// Masks the password of every `scheme://user:password@host` in `bytes`; `nil` when there is none.
    static func maskURLCredentials(_ bytes: [UInt8]) -> [UInt8]? {
        let count = bytes.count
        guard count > 3 else { return nil }
        var ranges: [Range<Int>] = []
        var index = 0
        while index + 2 < count {
            guard bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") else {
                index += 1
                continue
            }
            let authorityStart = index + 3
            var end = authorityStart
            var lastAt: Int?
            while end < count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte <= 0x20
                    || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                {
                    break
                }
                if byte == UInt8(ascii: "@") { lastAt = end }
                end += 1
            }
            if let at = lastAt, let colon = bytes[authorityStart..<at].firstIndex(of: UInt8(ascii: ":")), colon + 1 < at,
                bytes[(colon + 1)..<at] != maskBytes[...]
            {
                ranges.append((colon + 1)..<at)
            }
            index = max(end, index + 3)
        }
        guard !ranges.isEmpty else { return nil }
        var result: [UInt8] = []
        var copied = 0
        for range in ranges {
            result.append(contentsOf: bytes[copied..<range.lowerBound])
            result.append(contentsOf: maskBytes)
            copied = range.upperBound
        }
        result.append(contentsOf: bytes[copied..<count])
        return result
    }
}

/// The secrets of a redactor, compiled: a table of every encoding of every secret of 4+
/// characters keyed by its first 4 bytes, and the set of whole values.
///
/// Immutable after init, so sharing it between threads is safe.
final class SecretMatcher: Sendable {
    /// One encoding of one secret.
    struct Pattern: Sendable {
        /// The encoded secret.
        let bytes: [UInt8]
        /// The first byte is a digit: no match right after another digit.
        let digitFirst: Bool
        /// The last byte is a digit: no match right before another digit.
        let digitLast: Bool
    }

    /// Every secret, as a whole value.
    let whole: Set<String>
    /// The longest secret, in UTF-8 bytes.
    let longest: Int
    /// Patterns by their first 4 bytes, longest first.
    let table: [UInt32: [Pattern]]
    /// A bit per 2-byte start of a pattern: most text positions are ruled out without a
    /// dictionary look-up.
    let starts: [UInt64]

    /// Compiles `secrets`.
    init(_ secrets: [String]) {
        whole = Set(secrets)
        longest = secrets.map(\.utf8.count).max() ?? 0
        var table: [UInt32: [Pattern]] = [:]
        var seen: Set<[UInt8]> = []
        for secret in secrets where secret.count >= 4 {
            for variant in Self.encodings(of: secret) {
                let bytes = Array(variant.utf8)
                guard bytes.count >= 4, seen.insert(bytes).inserted else { continue }
                let pattern = Pattern(bytes: bytes, digitFirst: Self.isDigit(bytes[0]), digitLast: Self.isDigit(bytes[bytes.count - 1]))
                table[Self.key(bytes, 0), default: []].append(pattern)
            }
        }
        var starts = [UInt64](repeating: 0, count: 1024)
        for key in table.keys {
            table[key]?.sort { $0.bytes.count > $1.bytes.count }
            let pair = Int(key & 0xFFFF)
            starts[pair >> 6] |= 1 << UInt64(pair & 63)
        }
        self.table = table
        self.starts = starts
    }

    /// Whether `byte` is an ASCII digit.
    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The 4 bytes at `index` as a table key.
    static func key(_ bytes: [UInt8], _ index: Int) -> UInt32 {
        UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
    }

    /// The forms in which `secret` may appear: plain, JSON-escaped, percent-encoded (strict
    /// upper- and lower-case, and as a query value), HTML-escaped, and base64 (without padding,
    /// so that it is also found at the start of a longer base64 text).
    static func encodings(of secret: String) -> [String] {
        var forms = [secret]
        let json = JSONValue.string(secret).serialized()
        forms.append(String(json.dropFirst().dropLast()))
        var strict = ""
        for byte in secret.utf8 {
            let unreserved = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
            if unreserved {
                strict.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                strict += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        forms.append(strict)
        forms.append(strict.replacingOccurrences(of: "%20", with: "+"))
        var lower = ""
        var afterPercent = 0
        for character in strict {
            if character == "%" {
                afterPercent = 2
                lower.append(character)
            } else if afterPercent > 0 {
                lower += character.lowercased()
                afterPercent -= 1
            } else {
                lower.append(character)
            }
        }
        forms.append(lower)
        if let query = secret.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) { forms.append(query) }
        forms.append(
            secret.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "'", with: "&#39;"))
        var base64 = Data(secret.utf8).base64EncodedString()
        while base64.hasSuffix("=") { base64.removeLast() }
        forms.append(base64)
        return forms
    }

    /// `bytes` with every pattern masked, or `nil` when none occurs.
    func maskSubstrings(_ bytes: [UInt8]) -> [UInt8]? {
        let count = bytes.count
        guard !table.isEmpty, count >= 4 else { return nil }
        var result: [UInt8] = []
        var copied = 0
        var index = 0
        scan: while index + 4 <= count {
            let pair = Int(bytes[index]) | Int(bytes[index + 1]) << 8
            if starts[pair >> 6] & (1 << UInt64(pair & 63)) == 0 {
                index += 1
                continue
            }
            if let candidates = table[Self.key(bytes, index)] {
                for pattern in candidates {
                    let end = index + pattern.bytes.count
                    guard end <= count else { continue }
                    if pattern.digitFirst, index > 0, Self.isDigit(bytes[index - 1]) { continue }
                    if pattern.digitLast, end < count, Self.isDigit(bytes[end]) { continue }
                    var equal = true
                    var offset = 4
                    while offset < pattern.bytes.count {
                        if bytes[index + offset] != pattern.bytes[offset] {
                            equal = false
                            break
                        }
                        offset += 1
                    }
                    guard equal else { continue }
                    if result.isEmpty { result.reserveCapacity(count) }
                    result.append(contentsOf: bytes[copied..<index])
                    result.append(contentsOf: Redactor.mask.utf8)
                    index = end
                    copied = end
                    continue scan
                }
            }
            index += 1
        }
        guard copied > 0 else { return nil }
        result.append(contentsOf: bytes[copied..<count])
        return result
    }
}

/// Every secret a run has learnt so far, shared by the transports that learn them and the
/// recorder that redacts the report with them; safe to use from concurrent tasks.
///
/// The runner learns a secret when it is given one (the admin token, the password of a
/// `--base-url` with credentials), when it sends one (any credential header it sends: the raw
/// value, a `Basic` token, its decoded `id:password` and the password; secret JSON keys of a
/// request body), and when a server hands one out (`managementPassword` in an answer).
package final class SecretStore: Sendable {
    /// The secrets, and the redactor built for them (until the next one is added).
    private struct State: Sendable {
        /// The secrets.
        var secrets: Set<String> = []
        /// The redactor for them, until a secret is added.
        var redactor: Redactor?
    }

    /// The store's state.
    private let state = Locked(State())

    /// A store holding `secrets` (empty ones are ignored).
    package init(_ secrets: [String?] = []) {
        for secret in secrets { add(secret) }
    }

    /// Adds a secret (nothing for `nil` or empty).
    package func add(_ secret: String?) {
        guard let secret, !secret.isEmpty else { return }
        state.withLock { state in
            if state.secrets.insert(secret).inserted { state.redactor = nil }
        }
    }

    /// The secrets so far.
    package var secrets: Set<String> { state.withLock { $0.secrets } }

    /// A redactor for every secret so far (built once per change).
    package var redactor: Redactor {
        if let built = state.withLock({ $0.redactor }) { return built }
        let snapshot = secrets
        let built = Redactor(secrets: Array(snapshot))
        state.withLock { state in
            if state.secrets == snapshot { state.redactor = built }
        }
        return built
    }

    /// Learns the credentials `request` carries: credential headers and secret JSON keys.
    package func learn(from request: TransportRequest) {
        for header in request.headers where Redactor.secretHeaders.contains(header.name.lowercased()) {
            learnCredential(header.value)
        }
        if request.body.first == UInt8(ascii: "{"), let body = try? JSONValue.parse(request.body) {
            learnValues(of: Redactor.secretKeys, in: body)
        }
    }

    /// Learns the management passwords a server handed out in `response`.
    package func learn(from response: TransportResponse) {
        guard response.body.first == UInt8(ascii: "{"), response.body.count < 1_000_000,
            let body = try? JSONValue.parse(response.body)
        else { return }
        learnValues(of: ["managementPassword"], in: body)
    }

    /// Learns a credential header value: a raw token, or `Scheme credential` (the credential and
    /// the whole value); a `Basic` credential also gives its decoded `user:password` and the
    /// password (when not empty). A bare scheme word (`Basic`) is not a secret.
    package func learnCredential(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if Redactor.schemes.contains(trimmed.lowercased()) { return }
        guard let space = trimmed.firstIndex(of: " "), Redactor.schemes.contains(trimmed[..<space].lowercased()) else {
            add(trimmed)
            return
        }
        let credential = trimmed[trimmed.index(after: space)...].trimmingCharacters(in: .whitespaces)
        add(credential)
        // The whole value as sent too: a server echoing `Bearer T` back shows it whole, and with
        // its scheme even a short token is long enough to be masked in every encoding.
        add(trimmed)
        // The user part of `user:password` is an announcement id, which reports must show: only
        // the password, and the pair, are secrets.
        guard trimmed[..<space].lowercased() == "basic", let data = Data(base64Encoded: credential),
            let decoded = String(data: data, encoding: .utf8), let colon = decoded.firstIndex(of: ":")
        else { return }
        let password = String(decoded[decoded.index(after: colon)...])
        guard !password.isEmpty else { return }
        add(decoded)
        add(password)
    }

    /// Learns the string values of `keys` at any depth of `value` (32 levels at most).
    private func learnValues(of keys: Set<String>, in value: JSONValue, depth: Int = 0) {
        guard depth < 32 else { return }
        switch value {
        case .object(let object):
            for member in object.members {
                if keys.contains(member.key), let text = member.value.stringValue {
                    add(text)
                } else {
                    learnValues(of: keys, in: member.value, depth: depth + 1)
                }
            }
        case .array(let elements):
            for element in elements { learnValues(of: keys, in: element, depth: depth + 1) }
        default:
            break
        }
    }
}
