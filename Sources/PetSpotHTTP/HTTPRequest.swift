/// An HTTP request as the server hands it to a handler, or as a test builds it for an
/// in-process backend.
///
/// `target` is the request target exactly as sent (`/api/v1/announcements?lat=1`); ``path`` and
/// ``queryItems`` are derived from it: the path is percent-decoded, the query split on `&` and
/// `=` with `+` read as a space, as web frameworks do. The body is raw bytes (already de-chunked
/// by the server).
///
/// ```swift
/// let request = HTTPRequest(method: "GET", target: "/api/v1/announcements?lat=52&lng=21")
/// request.path                  // "/api/v1/announcements"
/// request.queryValues("lat")    // ["52"]
/// ```
public struct HTTPRequest: Sendable {
    /// The method token, as sent (`GET`, `POST`, ...).
    public var method: String
    /// The request target as sent: path plus optional `?query`.
    public var target: String
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body bytes (empty when there is none).
    public var body: [UInt8]
    /// The protocol version's minor number: 1 for HTTP/1.1, 0 for HTTP/1.0.
    public var minorVersion: Int
    /// Whether the body was larger than the limit the server's
    /// ``HTTPServer/Configuration/bodyLimit`` set for this request, and so was not read:
    /// ``body`` is then empty, and the connection closes after the answer.
    public var isBodyOverLimit = false

    /// A request; the body defaults to none and the version to HTTP/1.1.
    public init(method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], minorVersion: Int = 1) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.minorVersion = minorVersion
    }

    /// The percent-decoded path: the target up to `?` (or `#`). Invalid escapes are kept as written.
    public var path: String {
        let raw = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let withoutFragment = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return HTTPRequest.percentDecode(withoutFragment, plusAsSpace: false)
    }

    /// The raw query string after `?` (without a fragment), or `nil` when there is none.
    public var rawQuery: String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        let query = target[target.index(after: mark)...]
        return String(query.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// The query's name/value pairs in order, decoded (`+` is a space); a bare `name` has value "".
    public var queryItems: [(name: String, value: String)] {
        guard let query = rawQuery, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = HTTPRequest.percentDecode(String(parts[0]), plusAsSpace: true)
            let value = parts.count > 1 ? HTTPRequest.percentDecode(String(parts[1]), plusAsSpace: true) : ""
            return (name: name, value: value)
        }
    }

    /// Every value given for the query parameter `name`, in order.
    public func queryValues(_ name: String) -> [String] {
        queryItems.filter { $0.name == name }.map(\.value)
    }

    /// Decodes `%XX` escapes (and `+` when asked); malformed escapes stay literal, and byte
    /// sequences that are not UTF-8 decode with replacement characters.
    public static func percentDecode(_ text: String, plusAsSpace: Bool) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "%")) || (plusAsSpace && bytes.contains(UInt8(ascii: "+"))) else {
            return text
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                output.append(0x20)
                index += 1
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
