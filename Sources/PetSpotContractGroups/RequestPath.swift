/// The list route's query, built from text the runner does not control: numbers as a payload
/// spells them (`1E+1`). Every name and value is percent-encoded, so what the backend reads is
/// what the runner meant: a `+` in a query is a space to a backend. (Ids become path segments
/// through ``AnnouncementPath``, with the same encoding.)
///
/// ```swift
/// RequestPath.list(["lat": "1E+1", "lng": "-0.5", "range": "1"])  // /api/v1/announcements?lat=1E%2B1&lng=-0.5&range=1
/// ```
package enum RequestPath {
    /// `GET /api/v1/announcements` with `parameters` as its query, in the order given, each
    /// value percent-encoded (no query when `parameters` is empty).
    package static func list(_ parameters: KeyValuePairs<String, String>) -> String {
        list(parameters.map { ($0.key, $0.value) })
    }

    /// The list route with `parameters` as its query (see the `KeyValuePairs` form).
    package static func list(_ parameters: [(String, String)]) -> String {
        guard !parameters.isEmpty else { return "/api/v1/announcements" }
        return "/api/v1/announcements?" + parameters.map { "\(percentEncoded($0.0))=\(percentEncoded($0.1))" }.joined(separator: "&")
    }

    /// `text` with every byte of its UTF-8 form outside RFC 3986's unreserved set (letters,
    /// digits, `-`, `.`, `_`, `~`) written as `%XX`: safe as one query name or value, or as one
    /// path segment.
    package static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
