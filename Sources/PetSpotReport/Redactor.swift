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
/// learnt (a ``SecretStore``), so console, JSON, JUnit, HTML and annotations read an already
/// redacted report and none of them can forget it.
///
/// What counts as a secret: what the run was given (the admin token, a URL's password), handed
/// out (management passwords) or sent as a credential, except the decoys the runner made up to
/// be refused, which protect nothing (``SecretStore``).
///
/// Where a secret is masked (with ``mask``):
/// - A secret of at least ``minimumLength`` (6) characters is masked wherever it appears, in any
///   encoding: literal or with its letters in another case, JSON `\u` and backslash escapes
///   (also escaped twice, as a JSON text inside a JSON string), HTML references (`&#x27;`,
///   `&#39;`, `&apos;`, ..., also without `;`), percent-encoding in either case and `+` for a
///   space (also applied twice: `%2541`), SQL-doubled quotes, mixed within one value, and
///   base64, base64url (also inside a longer base64 text, as in `Basic base64(id:password)`,
///   and wrapped in lines as MIME writes it) and hexadecimal (also with `:`, `-` or a space
///   between bytes); see ``SecretMatcher``. A secret made of digits is not masked inside a
///   longer run of digits (`123456` is not a password inside the microchip `987123456001234`).
/// - A shorter secret cannot be told apart from ordinary text (`"x"`, `ok`, an id's part): it is
///   masked only where it stands as a credential: the value of a credential header
///   (``secretHeaders``, as a header, a `Name: value` line or a JSON member of that name), of a
///   secret JSON key (``secretKeys``) or query parameter (``credentialNames``), of a secret flag
///   (``secretFlags``), and after an authorization scheme (`Basic X`, `Bearer X`).
/// - Structurally, whatever its value: credential headers (their scheme kept), secret JSON keys,
///   secret flags, and the password of any `scheme://user:password@host` URL.
/// - What a secret shows of itself: `Basic <credential>` keeps its scheme, and a credential pair
///   `id:password` keeps its user part (an announcement id, which reports must show, whole even
///   when it holds a `:`), when the credential or password is a secret of its own.
///
/// Cost: building a redactor is linear in the secrets; ``scrub(_:)`` is linear in the text (one
/// table look-up per byte, a few byte comparisons where a secret could start).
package struct Redactor: Sendable, Hashable {
    /// What a secret is replaced with.
    package static let mask = "******"
    /// The fewest characters a secret has to be masked wherever it appears (shorter ones are
    /// masked only where they stand as a credential).
    package static let minimumLength = 6
    /// JSON keys whose values are secrets.
    static let secretKeys: Set<String> = ["managementPassword", "password", "adminToken", "token"]
    /// Header names whose values are credentials.
    static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "x-admin-token"]
    /// Command-line flags whose values are secrets.
    static let secretFlags: Set<String> = ["--admin-token"]
    /// Authorization schemes kept in front of a masked credential.
    static let schemes: Set<String> = ["basic", "bearer", "token", "digest"]
    /// Names (lower-cased, without `-` and `_`) whose value is a credential: in a JSON member, a
    /// `Name: value` line or a `name=value` parameter.
    static let credentialNames: Set<String> = [
        "authorization", "proxyauthorization", "cookie", "xadmintoken", "admintoken", "token", "password", "managementpassword",
        "accesstoken", "apikey", "xapikey", "secret", "passwd",
    ]

    /// The secrets masked, sorted, without repeats (empty strings are ignored).
    package let secrets: [String]
    /// Every secret, as a whole value (for credential positions).
    private let whole: Set<String>
    /// Whether a secret is shorter than ``minimumLength``: only then can a credential position
    /// hold a secret that the matcher has not masked already.
    private let hasShortSecrets: Bool
    /// The secrets of ``minimumLength`` or more, compiled for matching in any encoding.
    private let matcher: SecretMatcher

    /// A redactor for these literal secrets.
    package init(secrets: [String] = []) {
        let unique = Array(Set(secrets.filter { !$0.isEmpty })).sorted()
        self.secrets = unique
        let whole = Set(unique)
        self.whole = whole
        hasShortSecrets = unique.contains { $0.count < Self.minimumLength }
        matcher = SecretMatcher(unique.filter { $0.count >= Self.minimumLength }) { Self.keptPrefix(of: $0, among: whole) }
    }

    /// How many leading bytes of `secret` stay visible: `Basic ` of `Basic <secret>`, `id:` of
    /// `id:<secret>`; 0 for any other secret.
    static func keptPrefix(of secret: String, among secrets: Set<String>) -> Int {
        let bytes = Array(secret.utf8)
        if let space = bytes.firstIndex(of: UInt8(ascii: " ")), schemes.contains(String(decoding: bytes[..<space], as: UTF8.self).lowercased()),
            secrets.contains(String(decoding: bytes[(space + 1)...], as: UTF8.self))
        {
            return space + 1
        }
        for colon in bytes.indices.reversed() where bytes[colon] == UInt8(ascii: ":") && colon + 1 < bytes.count {
            if secrets.contains(String(decoding: bytes[(colon + 1)...], as: UTF8.self)) { return colon + 1 }
        }
        return 0
    }

    /// Redactors are equal when they mask the same secrets.
    package static func == (lhs: Redactor, rhs: Redactor) -> Bool { lhs.secrets == rhs.secrets }

    /// Hashes the secrets.
    package func hash(into hasher: inout Hasher) { hasher.combine(secrets) }

    /// This redactor, also masking `secret` (a management password learnt during the run).
    package func adding(_ secret: String) -> Redactor {
        Redactor(secrets: secrets + [secret])
    }

    /// The length in UTF-8 bytes of the longest form of a secret matched (0 when there is none).
    package var longestSecretBytes: Int { max(matcher.longest, secrets.map(\.utf8.count).max() ?? 0) }

    /// `text` scrubbed, looking at its first `maxBytes` bytes only (plus a margin so that a secret
    /// across the cut, in any encoding, is still found): for long texts that are cut anyway.
    package func scrubbedPrefix(_ text: String, maxBytes: Int) -> String {
        let window = prefixWindow(maxBytes: maxBytes)
        guard text.utf8.count > window else { return scrub(text) }
        return scrub(String(decoding: text.utf8.prefix(window), as: UTF8.self))
    }

    /// How many bytes of a text ``scrubbedPrefix(_:maxBytes:)`` keeps: enough for the longest
    /// form of a secret written with an escape of up to 12 bytes (`\uD83D\uDE00`) per byte.
    package func prefixWindow(maxBytes: Int) -> Int { maxBytes + 12 * longestSecretBytes + 256 }

    /// Whether `value`, as a whole, is one of the secrets.
    func isSecret(_ value: String) -> Bool { whole.contains(value) }

    /// Whether `value` is a secret, or `Scheme secret`.
    func isCredential(_ value: String) -> Bool {
        if whole.contains(value) { return true }
        guard let space = value.firstIndex(of: " "), Self.schemes.contains(value[..<space].lowercased()) else { return false }
        return whole.contains(value[value.index(after: space)...].trimmingCharacters(in: .whitespaces))
    }

    /// Whether `name` names a credential (``credentialNames``, any case, `-` and `_` ignored).
    static func isCredentialName<Name: StringProtocol>(_ name: Name) -> Bool {
        credentialNames.contains(String(name.lowercased().filter { $0 != "-" && $0 != "_" }))
    }

    /// `text` with every secret masked: long secrets in any encoding, secrets of any length
    /// where they stand as a credential, and URL credentials.
    package func scrub(_ text: String) -> String {
        if text.isEmpty { return text }
        var bytes = Array(text.utf8)
        var changed = false
        let found = matcher.ranges(in: bytes)
        if !found.isEmpty {
            bytes = Self.replacing(found, in: bytes)
            changed = true
        }
        if let masked = Self.maskURLCredentials(bytes) {
            bytes = masked
            changed = true
        }
        if hasShortSecrets, let masked = maskCredentialPositions(bytes) {
            bytes = masked
            changed = true
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : text
    }

    /// `bytes` with each of `ranges` (sorted, disjoint) replaced by ``mask``.
    private static func replacing(_ ranges: [Range<Int>], in bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var copied = 0
        for range in ranges where range.lowerBound >= copied {
            result.append(contentsOf: bytes[copied..<range.lowerBound])
            result.append(contentsOf: maskBytes)
            copied = range.upperBound
        }
        result.append(contentsOf: bytes[copied...])
        return result
    }

    /// A header value as it may be shown: credentials keep their scheme only; anything else is
    /// scrubbed (a secret after a scheme is a credential whatever the header).
    func header(name: String, value: String) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if Self.secretHeaders.contains(name.lowercased()) {
            if let space = trimmed.firstIndex(of: " ") {
                let scheme = trimmed[..<space]
                if Self.schemes.contains(scheme.lowercased()) { return "\(scheme) \(Self.mask)" }
            }
            return Self.mask
        }
        if let space = trimmed.firstIndex(of: " "), Self.schemes.contains(trimmed[..<space].lowercased()),
            isSecret(trimmed[trimmed.index(after: space)...].trimmingCharacters(in: .whitespaces))
        {
            return "\(trimmed[..<space]) \(Self.mask)"
        }
        return scrub(value)
    }

    /// A JSON value with every secret key's value masked, every credential-named member whose
    /// value is a secret masked, and every string scrubbed, at any depth.
    func json(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            var members: [JSONObject.Element] = []
            for member in object.members {
                if Self.secretKeys.contains(member.key), !member.value.isNull {
                    members.append((scrub(member.key), .string(Self.mask)))
                } else if Self.isCredentialName(member.key), let text = member.value.stringValue, isCredential(text) {
                    members.append((scrub(member.key), .string(Self.masked(credential: text))))
                } else {
                    members.append((scrub(member.key), json(member.value)))
                }
            }
            return .object(JSONObject(members))
        case .array(let elements):
            return .array(elements.map(json))
        case .string(let text):
            return .string(scrub(text))
        default:
            return value
        }
    }

    /// A credential value masked, its scheme kept: `Basic ******`.
    static func masked(credential: String) -> String {
        if let space = credential.firstIndex(of: " "), schemes.contains(credential[..<space].lowercased()) {
            return "\(credential[..<space]) \(mask)"
        }
        return mask
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
    package func request(_ request: TransportRequest) -> ReportedRequest {
        ReportedRequest(
            method: request.method, path: scrub(request.path),
            headers: request.headers.map { ReportedHeader(name: $0.name, value: header(name: $0.name, value: $0.value)) },
            body: body(request.body, contentType: request.header("Content-Type")))
    }

    /// An answer as a report shows it: `STATUS body`.
    package func response(_ response: TransportResponse) -> String {
        let text = body(response.body, contentType: response.header("Content-Type"))
        return text.isEmpty ? "\(response.status) (empty body)" : "\(response.status) \(text)"
    }

    /// Command-line arguments with the values of secret flags masked, and every word scrubbed
    /// (long secrets, URLs with credentials).
    package func arguments(_ arguments: [String]) -> [String] {
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

    // MARK: Credential positions

    /// ``mask`` as bytes.
    private static let maskBytes = Array(mask.utf8)

    /// Bytes that end a `name=value` value or a credential after a scheme.
    private static func endsFormValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "#"), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: " "), UInt8(ascii: "\t"),
            UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"),
            UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "\\"):
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

    /// Masks secrets (of any length) where they stand as a credential: the value of a JSON
    /// member (or a quoted value after `name: `), `name=value` parameter or `Name: value` line
    /// named as a credential
    /// (``isCredentialName(_:)``), and the word after an authorization scheme. Inside a JSON
    /// string, its decoded text is looked at in turn. `nil` when nothing was masked.
    private func maskCredentialPositions(_ bytes: [UInt8], depth: Int = 0) -> [UInt8]? {
        var edits: [(range: Range<Int>, replacement: [UInt8])] = []
        var index = 0
        let count = bytes.count
        var lineStart = 0
        // The last JSON string seen and where it ended: the key of a member value.
        var lastString: (text: String, end: Int)?
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\""), let end = Self.closingQuote(bytes, after: index) {
                let content = bytes[(index + 1)..<end]
                let value: String? = content.contains(UInt8(ascii: "\\"))
                    ? (try? JSONValue.parse(Data(bytes[index...end])))?.stringValue : String(decoding: content, as: UTF8.self)
                if let value {
                    let key = lastString.flatMap { previous in
                        Self.isMemberSeparator(bytes[(previous.end + 1)..<index]) ? previous.text : nil
                    } ?? Self.unquotedKey(bytes, before: index)
                    if let key, Self.isCredentialName(key), isCredential(value) {
                        let masked = JSONValue.string(Self.masked(credential: value)).serialized()
                        edits.append(((index + 1)..<end, Array(masked.utf8.dropFirst().dropLast())))
                    } else if depth < 3, value.contains(where: { $0 == "=" || $0 == ":" || $0 == "\"" || $0 == " " }),
                        let inner = maskCredentialPositions(Array(value.utf8), depth: depth + 1)
                    {
                        let escaped = JSONValue.string(String(decoding: inner, as: UTF8.self)).serialized()
                        edits.append(((index + 1)..<end, Array(escaped.utf8.dropFirst().dropLast())))
                    }
                    lastString = (value, end)
                }
                index = end + 1
                continue
            } else if byte == UInt8(ascii: "="), index > 0, Self.isNameByte(bytes[index - 1]) {
                var nameStart = index
                while nameStart > 0, Self.isNameByte(bytes[nameStart - 1]) { nameStart -= 1 }
                var end = index + 1
                while end < count, !Self.endsFormValue(bytes[end]) { end += 1 }
                if end > index + 1, Self.isCredentialName(String(decoding: bytes[nameStart..<index], as: UTF8.self)) {
                    let raw = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                    let decoded = raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
                    if isCredential(raw) || decoded.map(isCredential) == true { edits.append(((index + 1)..<end, Self.maskBytes)) }
                }
                index = end
                continue
            } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                lineStart = index + 1
            } else if byte == UInt8(ascii: ":"), let range = headerLineValue(bytes, lineStart: lineStart, colon: index) {
                edits.append((range, Self.maskBytes))
                index = range.upperBound
                continue
            } else if let range = schemeCredential(bytes, at: index) {
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

    /// The name before `NAME: ` ending at `index` (`/managementPassword: "12345"` in a validation
    /// message), if there is one.
    private static func unquotedKey(_ bytes: [UInt8], before index: Int) -> String? {
        var end = index
        while end > 0, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        guard end > 0, bytes[end - 1] == UInt8(ascii: ":") else { return nil }
        end -= 1
        while end > 0, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        var start = end
        while start > 0, isNameByte(bytes[start - 1]) { start -= 1 }
        return start < end ? String(decoding: bytes[start..<end], as: UTF8.self) : nil
    }

    /// Whether `bytes` (between two JSON strings) is a member separator: `:` with optional spaces.
    private static func isMemberSeparator(_ bytes: ArraySlice<UInt8>) -> Bool {
        var colon = false
        for byte in bytes {
            if byte == UInt8(ascii: ":"), !colon {
                colon = true
            } else if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
                return false
            }
        }
        return colon
    }

    /// For an authorization scheme word starting at `index` (`Basic`, `Bearer`, ...) followed by
    /// a space and a secret: the range of the secret.
    private func schemeCredential(_ bytes: [UInt8], at index: Int) -> Range<Int>? {
        let first = bytes[index] | 0x20
        guard first == UInt8(ascii: "b") || first == UInt8(ascii: "t") || first == UInt8(ascii: "d"),
            index == 0 || !Self.isNameByte(bytes[index - 1])
        else { return nil }
        var wordEnd = index
        while wordEnd < bytes.count, wordEnd - index < 7, Self.isNameByte(bytes[wordEnd]) { wordEnd += 1 }
        guard wordEnd < bytes.count, bytes[wordEnd] == UInt8(ascii: " "),
            Self.schemes.contains(String(decoding: bytes[index..<wordEnd], as: UTF8.self).lowercased())
        else { return nil }
        var start = wordEnd
        while start < bytes.count, bytes[start] == UInt8(ascii: " ") { start += 1 }
        var end = start
        while end < bytes.count, !Self.endsFormValue(bytes[end]) { end += 1 }
        guard end > start, isSecret(String(decoding: bytes[start..<end], as: UTF8.self)) else { return nil }
        return start..<end
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

    /// For a line `Name: value` whose colon is at `colon` and whose name is a credential's: the
    /// range of the value (or of the credential after a `Basic`/`Bearer` scheme) when it is a
    /// secret.
    private func headerLineValue(_ bytes: [UInt8], lineStart: Int, colon: Int) -> Range<Int>? {
        var nameStart = lineStart
        while nameStart < colon, bytes[nameStart] == UInt8(ascii: " ") || bytes[nameStart] == UInt8(ascii: "\t") { nameStart += 1 }
        guard nameStart < colon, bytes[nameStart..<colon].allSatisfy({ Self.isNameByte($0) }),
            Self.isCredentialName(String(decoding: bytes[nameStart..<colon], as: UTF8.self))
        else { return nil }
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

/// Every secret a run has learnt so far, shared by the transports that learn them and the
/// recorder that redacts the report with them; safe to use from concurrent tasks.
///
/// The runner learns a secret when it is given one (the admin token, the password of a
/// `--base-url` with credentials), when it sends one (any credential header it sends: the raw
/// value, a `Basic` token, its decoded `id:password` and the password; secret JSON keys of a
/// request body), and when a server hands one out (`managementPassword` in an answer).
///
/// Decoys are not secrets: a credential the runner made up to be refused (the photo cases' wrong
/// password, the admin-delete group's wrong token, a malformed `Authorization`) protects nothing,
/// and masking it hides what the case sent. The code that sends one marks it first
/// (``markDecoy(_:)``, the header value exactly as sent), and sending a marked value teaches
/// nothing. Every credential sent unmarked is a secret. A value the run was given or handed out
/// stays a secret even when a decoy equals it (a management password of `100000` is masked).
package final class SecretStore: Sendable {
    /// The secrets, the decoys, and the redactor built for the secrets.
    private struct State: Sendable {
        /// The secrets.
        var secrets: Set<String> = []
        /// Credential values the runner made up to be refused, exactly as sent.
        var decoys: Set<String> = []
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

    /// Marks `credential`, a credential header value (or secret JSON value) the runner made up
    /// to be refused, as a decoy: a request sending it teaches no secret. Call it before sending.
    package func markDecoy(_ credential: String) {
        let trimmed = credential.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        state.withLock { _ = $0.decoys.insert(trimmed) }
    }

    /// Marks the credential headers of `request`, made up to be refused, as decoys (``markDecoy(_:)``).
    package func markDecoys(in request: TransportRequest) {
        for header in request.headers where Redactor.secretHeaders.contains(header.name.lowercased()) { markDecoy(header.value) }
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

    /// Learns the credentials `request` carries (credential headers and secret JSON keys), except
    /// decoys; the segments of its path are the announcement ids a `Basic` user part may be.
    package func learn(from request: TransportRequest) {
        let decoys = state.withLock { $0.decoys }
        let credentials = request.headers.filter { Redactor.secretHeaders.contains($0.name.lowercased()) }.map(\.value)
            .filter { !decoys.contains($0.trimmingCharacters(in: .whitespaces)) }
        if !credentials.isEmpty {
            let ids = Self.pathSegments(request.path)
            for value in credentials { learnCredential(value, ids: ids) }
        }
        if request.body.first == UInt8(ascii: "{"), let body = try? JSONValue.parse(request.body) {
            learnValues(of: Redactor.secretKeys, in: body, except: decoys)
        }
    }

    /// The segments of `path` (before its query), percent-decoded.
    static func pathSegments(_ path: String) -> Set<String> {
        let route = path.prefix { $0 != "?" && $0 != "#" }
        return Set(route.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) })
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
    ///
    /// The user part of a `Basic` credential is an announcement id, which reports must show, and
    /// an id may hold colons: the password follows the longest of `ids` (the request path's
    /// segments) that the decoded text starts with before a colon, else the last colon whose rest
    /// is a password learnt already, else the first colon (RFC 7617). Decoded text without a
    /// colon is a secret whole (an id and a password run together: the rest after an id of `ids`
    /// too), unless it is one of `ids`.
    package func learnCredential(_ value: String, ids: Set<String> = []) {
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
        guard trimmed[..<space].lowercased() == "basic", let data = Data(base64Encoded: credential),
            let decoded = String(data: data, encoding: .utf8)
        else { return }
        let password: Substring
        if let id = Self.longestID(ids, startingWithColonAfter: decoded) {
            password = decoded[decoded.utf8.index(decoded.startIndex, offsetBy: id.utf8.count + 1)...]
        } else if let colon = Self.passwordColon(in: decoded, known: secrets) {
            password = decoded[decoded.index(after: colon)...]
        } else {
            // No colon: an id and a password run together (after an id of `ids`, the rest is the
            // password), or a credential of another form; an id alone is no secret.
            guard !ids.contains(decoded) else { return }
            add(decoded)
            if let id = ids.filter({ !$0.isEmpty && decoded.utf8.starts(with: $0.utf8) }).max(by: { $0.utf8.count < $1.utf8.count }) {
                add(String(decoded[decoded.utf8.index(decoded.startIndex, offsetBy: id.utf8.count)...]))
            }
            return
        }
        guard !password.isEmpty else { return }
        add(decoded)
        add(String(password))
    }

    /// The longest of `ids` that `decoded` starts with, followed by a colon.
    private static func longestID(_ ids: Set<String>, startingWithColonAfter decoded: String) -> String? {
        ids.filter { !$0.isEmpty && decoded.utf8.starts(with: $0.utf8 + [UInt8(ascii: ":")]) }.max { $0.utf8.count < $1.utf8.count }
    }

    /// The colon before the password of a decoded `user:password`: the last one whose rest is a
    /// password in `known`, else the first; `nil` when there is none.
    private static func passwordColon(in decoded: String, known: Set<String>) -> String.Index? {
        for index in decoded.indices.reversed() where decoded[index] == ":" && known.contains(String(decoded[decoded.index(after: index)...])) {
            return index
        }
        return decoded.firstIndex(of: ":")
    }

    /// Learns the string values of `keys` at any depth of `value` (32 levels at most), except `decoys`.
    private func learnValues(of keys: Set<String>, in value: JSONValue, except decoys: Set<String> = [], depth: Int = 0) {
        guard depth < 32 else { return }
        switch value {
        case .object(let object):
            for member in object.members {
                if keys.contains(member.key), let text = member.value.stringValue {
                    if !decoys.contains(text.trimmingCharacters(in: .whitespaces)) { add(text) }
                } else {
                    learnValues(of: keys, in: member.value, except: decoys, depth: depth + 1)
                }
            }
        case .array(let elements):
            for element in elements { learnValues(of: keys, in: element, except: decoys, depth: depth + 1) }
        default:
            break
        }
    }
}
