/// An HTTP response: a status, header fields and body bytes.
///
/// The server adds `Content-Length` (and `Connection: close` when it is about to close), so a
/// handler sets only what is specific to its answer:
///
/// ```swift
/// HTTPResponse(status: 201, headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
/// ```
public struct HTTPResponse: Sendable {
    /// The status code (100...599).
    public var status: Int
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body bytes (a body made of ``bodyParts`` is joined on each read; ``bodyLength`` does not join).
    public var body: [UInt8] {
        get { bodyParts.count == 1 ? bodyParts[0] : Array(bodyParts.joined()) }
        set { bodyParts = [newValue] }
    }
    /// The body as the byte arrays it is made of, in order. The server writes them one after
    /// another without joining them, so a large answer made of arrays its handler keeps anyway
    /// (a list's stored rows) shares their storage instead of copying it.
    public private(set) var bodyParts: [[UInt8]]
    /// For an answer to `HEAD`: the length of the body the matching `GET` answer has, announced
    /// in `Content-Length` while no body is sent (``body`` is then empty). `nil` otherwise.
    public var announcedBodyLength: Int?

    /// A response; headers and body default to none.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.init(status: status, headers: headers, bodyParts: [body])
    }

    /// A response whose body is `bodyParts`, one after another (see ``bodyParts``).
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), bodyParts: [[UInt8]]) {
        self.status = status
        self.headers = headers
        self.bodyParts = bodyParts
        self.announcedBodyLength = nil
    }

    /// The number of body bytes.
    public var bodyLength: Int { bodyParts.reduce(0) { $0 + $1.count } }

    /// This response as the answer to a `HEAD` request: the same status and headers, no body,
    /// and `Content-Length` announcing the length of the body this (`GET`) answer has.
    ///
    /// ```swift
    /// let head = getAnswer.forHeadRequest()   // head.body == [], serialized with "Content-Length: 123"
    /// ```
    public func forHeadRequest() -> HTTPResponse {
        var head = self
        head.announcedBodyLength = announcedBodyLength ?? bodyLength
        head.body = []
        return head
    }

    /// The body decoded as UTF-8 (invalid bytes become replacement characters).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// A plain-text response, for the server's own protocol errors.
    public static func plainText(status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// The standard reason phrase for a status code (`"Not Found"` for 404), or an empty one for a
    /// code without a standard phrase (RFC 9112 allows it; a made-up one would mislead).
    public static func reasonPhrase(for status: Int) -> String { reasonPhrases[status] ?? "" }

    private static let reasonPhrases: [Int: String] = [
        100: "Continue", 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 206: "Partial Content",
        301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified", 307: "Temporary Redirect",
        308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required",
        412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type",
        416: "Range Not Satisfiable", 417: "Expectation Failed", 422: "Unprocessable Content", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]

    /// The wire form: status line, headers with `Content-Length` set from the body, or from
    /// ``announcedBodyLength`` when it is set (omitted for 1xx, 204 and 304), a blank line, the
    /// body (never written when ``announcedBodyLength`` is set).
    /// - Parameters:
    ///   - closing: adds `Connection: close`.
    ///   - includeBody: `false` for answers to `HEAD` (the length is still that of ``body``).
    public func serialized(closing: Bool = false, includeBody: Bool = true) -> [UInt8] {
        let parts = wireParts(closing: closing, includeBody: includeBody)
        var output = parts[0]
        output.reserveCapacity(output.count + (parts.count > 1 ? bodyLength : 0))
        for part in parts.dropFirst() { output.append(contentsOf: part) }
        return output
    }

    /// ``serialized(closing:includeBody:)`` as the head followed by the ``bodyParts``, not joined.
    package func wireParts(closing: Bool = false, includeBody: Bool = true) -> [[UInt8]] {
        var output: [UInt8] = []
        output.reserveCapacity(128 + headers.count * 32)
        output.append(contentsOf: "HTTP/1.1 \(status) \(HTTPResponse.reasonPhrase(for: status))\r\n".utf8)
        for field in headers.fields {
            if HTTPHeaders.namesMatch(field.name, "Content-Length") || HTTPHeaders.namesMatch(field.name, "Connection")
                || HTTPHeaders.namesMatch(field.name, "Transfer-Encoding")
            {
                continue
            }
            output.append(contentsOf: field.name.utf8)
            output.append(contentsOf: ": ".utf8)
            output.append(contentsOf: field.value.utf8)
            output.append(contentsOf: "\r\n".utf8)
        }
        let bodyless = status < 200 || status == 204 || status == 304
        if !bodyless {
            output.append(contentsOf: "Content-Length: \(announcedBodyLength ?? bodyLength)\r\n".utf8)
        }
        if closing { output.append(contentsOf: "Connection: close\r\n".utf8) }
        output.append(contentsOf: "\r\n".utf8)
        guard includeBody && !bodyless && announcedBodyLength == nil else { return [output] }
        return [output] + bodyParts
    }
}
