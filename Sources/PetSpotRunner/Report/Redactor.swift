import Foundation
import PetSpotJSON
import PetSpotModel

/// Removes secrets from everything a report shows: management passwords, the admin token and
/// Basic credentials.
///
/// Redaction is structural where the structure is known (the `Authorization` header keeps its
/// scheme, `"managementPassword": "******"` keeps its key) and textual for the secrets the run
/// was given (the admin token is replaced wherever it appears). Every request, answer and
/// argument list passes through it before it is recorded.
public struct Redactor: Sendable, Hashable {
    /// What a secret is replaced with.
    public static let mask = "******"
    /// JSON keys whose values are secrets.
    public static let secretKeys: Set<String> = ["managementPassword", "password", "adminToken", "token"]
    /// Header names whose values are credentials.
    public static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "x-admin-token"]
    /// Command-line flags whose values are secrets.
    public static let secretFlags: Set<String> = ["--admin-token"]

    /// Literal secrets replaced wherever they appear (the admin token).
    public var secrets: [String]

    /// A redactor for these literal secrets (empty ones are ignored).
    public init(secrets: [String] = []) {
        self.secrets = secrets.filter { $0.count >= 4 }
    }

    /// This redactor, also masking `secret` (a management password learnt during the run).
    public func adding(_ secret: String) -> Redactor {
        Redactor(secrets: secrets + [secret])
    }

    /// `text` with every literal secret masked.
    public func scrub(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.mask)
        }
        return result
    }

    /// A header value as it may be shown: credentials keep their scheme only.
    public func header(name: String, value: String) -> String {
        guard Self.secretHeaders.contains(name.lowercased()) else { return scrub(value) }
        if let space = value.firstIndex(of: " ") {
            let scheme = value[..<space]
            if ["basic", "bearer", "token"].contains(scheme.lowercased()) { return "\(scheme) \(Self.mask)" }
        }
        return Self.mask
    }

    /// A JSON value with every secret key's value masked (at any depth).
    public func json(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            var members: [JSONObject.Element] = []
            for member in object.members {
                if Self.secretKeys.contains(member.key), !member.value.isNull {
                    members.append((member.key, .string(Self.mask)))
                } else {
                    members.append((member.key, json(member.value)))
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

    /// A body as text: JSON redacted and compact, other text scrubbed, binary summarised.
    public func body(_ data: Data, contentType: String? = nil) -> String {
        if data.isEmpty { return "" }
        if let parsed = try? JSONValue.parse(data) { return json(parsed).serialized() }
        if let type = contentType?.lowercased(), type.hasPrefix("multipart/") {
            return "(multipart body, \(data.count) bytes)"
        }
        guard let text = String(data: data, encoding: .utf8) else { return "(\(data.count) bytes of binary data)" }
        let limited = text.count > 2_000 ? String(text.prefix(2_000)) + "... (\(text.utf8.count) bytes)" : text
        return scrub(Self.maskingPasswordMembers(limited))
    }

    /// A request as a report shows it.
    public func request(_ request: TransportRequest) -> ReportedRequest {
        ReportedRequest(
            method: request.method, path: scrub(request.path),
            headers: request.headers.map { ReportedHeader(name: $0.name, value: header(name: $0.name, value: $0.value)) },
            body: body(request.body, contentType: request.header("Content-Type")))
    }

    /// An answer as a report shows it: `STATUS body`.
    public func response(_ response: TransportResponse) -> String {
        let text = body(response.body, contentType: response.header("Content-Type"))
        return text.isEmpty ? "\(response.status) (empty body)" : "\(response.status) \(text)"
    }

    /// Command-line arguments with the values of secret flags masked.
    public func arguments(_ arguments: [String]) -> [String] {
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
}
