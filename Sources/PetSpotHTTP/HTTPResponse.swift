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
    /// The body bytes.
    public var body: [UInt8]
    /// For an answer to `HEAD`: the length of the body the matching `GET` answer has, announced
    /// in `Content-Length` while no body is sent (``body`` is then empty). `nil` otherwise.
    public var announcedBodyLength: Int?

    /// A response; headers and body default to none.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.announcedBodyLength = nil
    }

    /// This response as the answer to a `HEAD` request: the same status and headers, no body,
    /// and `Content-Length` announcing the length of the body this (`GET`) answer has.
    ///
    /// ```swift
    /// let head = getAnswer.forHeadRequest()   // head.body == [], serialized with "Content-Length: 123"
    /// ```
    public func forHeadRequest() -> HTTPResponse {
        var head = self
        head.announcedBodyLength = announcedBodyLength ?? body.count
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
    /// code without a standard phrase.
    public static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        // RFC 9112 allows an empty reason phrase; a made-up one would mislead.
        default: ""
        }
    }

    /// The wire form: status line, headers with `Content-Length` set from the body, or from
    /// ``announcedBodyLength`` when it is set (omitted for 1xx, 204 and 304), a blank line, the
    /// body (never written when ``announcedBodyLength`` is set).
    /// - Parameters:
    ///   - closing: adds `Connection: close`.
    ///   - includeBody: `false` for answers to `HEAD` (the length is still that of ``body``).
    public func serialized(closing: Bool = false, includeBody: Bool = true) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(128 + headers.count * 32 + body.count)
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
            output.append(contentsOf: "Content-Length: \(announcedBodyLength ?? body.count)\r\n".utf8)
        }
        if closing { output.append(contentsOf: "Connection: close\r\n".utf8) }
        output.append(contentsOf: "\r\n".utf8)
        if includeBody && !bodyless && announcedBodyLength == nil { output.append(contentsOf: body) }
        return output
    }
}
