import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request as the submission sends it: a method, a path below the backend's base URL,
/// headers and a body.
public struct TransportRequest: Sendable, Hashable {
    /// The HTTP method, e.g. `POST`.
    public var method: String
    /// Path and query, e.g. `/api/v1/announcements`.
    public var path: String
    /// Header fields in order; names compare case-insensitively.
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: Data

    /// A request.
    public init(method: String, path: String, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public static func == (lhs: TransportRequest, rhs: TransportRequest) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.body == rhs.body
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(path)
        hasher.combine(body)
    }
}

/// An HTTP answer: status, headers, body.
public struct TransportResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields in order; names compare case-insensitively.
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: Data

    /// A response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public static func == (lhs: TransportResponse, rhs: TransportResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(body)
    }
}

/// The request never got an HTTP answer.
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No connection could be made, or it dropped before an answer.
    case noConnection(String)
    /// No answer within the time limit.
    case timedOut

    public var description: String {
        switch self {
        case .noConnection(let detail): "no connection: \(detail)"
        case .timedOut: "timed out"
        }
    }
}

/// How a submission reaches a backend: the in-process mock, an HTTP client, or a test fake.
///
/// Implementations answer every HTTP response they receive (any status) and throw
/// ``TransportError`` only when there is no answer at all.
public protocol AnnouncementTransport: Sendable {
    /// Sends `request` and returns the backend's answer.
    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse
}

/// A transport over HTTP with `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: AnnouncementTransport {
    /// The backend's base URL, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// Per-request time limit in seconds.
    public let timeout: TimeInterval
    private let session: URLSession

    /// A transport to `baseURL` with its own ephemeral session.
    public init(baseURL: URL, timeout: TimeInterval = 10) {
        self.baseURL = baseURL
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        self.session = URLSession(configuration: configuration)
    }

    /// Sends `request` over HTTP; any status is an answer, no answer throws.
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        guard let url = URL(string: baseURL.absoluteString.trimmingSuffix("/") + request.path) else {
            throw .noConnection("cannot form a URL from path \(request.path)")
        }
        var urlRequest = URLRequest(url: url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for header in request.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }
        if !request.body.isEmpty || request.method == "POST" { urlRequest.httpBody = request.body }
        let result: (Data, URLResponse)
        do {
            result = try await session.data(for: urlRequest)
        } catch let error as URLError where error.code == .timedOut {
            throw .timedOut
        } catch {
            throw .noConnection(error.localizedDescription)
        }
        guard let http = result.1 as? HTTPURLResponse else { throw .noConnection("not an HTTP response") }
        let headers = http.allHeaderFields.compactMap { key, value -> (name: String, value: String)? in
            guard let name = key as? String else { return nil }
            return (name: name, value: "\(value)")
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: result.0)
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
