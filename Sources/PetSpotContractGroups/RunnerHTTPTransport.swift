import Foundation
import PetSpotConcurrency
import PetSpotHTTPClient
import PetSpotModel
import PetSpotReport

/// The transport of `run`: HTTP to one base URL with the limits a run against a shared staging
/// server needs.
///
/// - **Deadlines, not idle timeouts**: each request (redirects it follows included) must be
///   over, from connecting to the last byte, within ``timeout`` seconds; a server trickling one
///   byte a second fails it at the deadline.
/// - **Bounded answers**: an answer is read while it is at most ``maxResponseBytes`` long (the
///   header block at most ``WireLimits/maxHeaderBytes``); a longer one, or one declaring a longer
///   `Content-Length`, fails the request at once. Requests say `Accept-Encoding: identity` and an
///   answer with another `Content-Encoding` is refused before its body is read, so the size read
///   is the size kept: a gzip bomb is never expanded.
/// - **Redirects stay home**: a redirect to another origin (scheme, host, port) is never
///   followed, so no credential, admin token or password leaves the target; a same-origin
///   redirect is followed only for `GET` (at most ``maxRedirects`` in a row, with the same
///   headers, since they stay on the same origin). A redirect not followed is the request's
///   answer: the contract sees the 3xx. Every redirect is noted (``redirectNotes``).
///
/// Two wire clients: `http://` goes over this package's own HTTP/1.1 client on POSIX sockets
/// (``SocketHTTPClient``), whose every byte is counted and every wait bounded; `https://` goes
/// over `URLSession` (``URLSessionHTTPClient``) for TLS, with the same policy enforced by a
/// delegate. On Linux, FoundationNetworking's libcurl decodes a content coding before the
/// delegate sees the answer and cannot be stopped mid-buffer, so over `https://` the size cap
/// bounds what the runner keeps but a compressed answer is expanded by libcurl before it is
/// refused; over `http://` nothing is ever expanded.
package final class RunnerHTTPTransport: AnnouncementTransport {
    /// Which wire client sends the requests.
    package enum Wire: Sendable {
        /// Sockets for `http://`, URLSession for `https://`.
        case automatic
        /// URLSession whatever the scheme (tests exercise the `https://` path over loopback HTTP).
        case urlSession
    }

    /// Same-origin `GET` redirects followed in a row at most.
    package static let maxRedirects = 3
    /// Redirect notes kept; later redirects are only counted.
    package static let maxRedirectNotes = 20
    /// The default of `--max-response-bytes`: 4 MiB.
    package static let defaultMaxResponseBytes = 4 * 1024 * 1024

    /// The base URL, without credentials.
    package let base: HTTPEndpoint
    /// Seconds from connecting to the last byte of each request.
    package let timeout: Double
    /// The longest answer body read.
    package let maxResponseBytes: Int
    /// The wire client: sockets or URLSession.
    private let client: any HTTPWireClient
    /// The redirect notes kept, and how many more there were.
    private let notes = Locked<(kept: [String], more: Int)>(([], 0))

    /// A transport to `baseURL` (an `http` or `https` URL without credentials).
    package init(baseURL: URL, timeout: Double, maxResponseBytes: Int = defaultMaxResponseBytes, wire: Wire = .automatic) {
        base = HTTPEndpoint(baseURL) ?? HTTPEndpoint(scheme: "http", host: "invalid", port: 80, target: "/")
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        let limits = WireLimits(maxBodyBytes: maxResponseBytes)
        if base.scheme == "https" || wire == .urlSession {
            client = URLSessionHTTPClient(limits: limits, timeout: timeout)
        } else {
            client = SocketHTTPClient(limits: limits)
        }
    }

    /// The redirects seen so far, one sentence each (at most ``maxRedirectNotes``, then a count).
    package var redirectNotes: [String] {
        notes.withLock { notes in
            notes.more == 0 ? notes.kept : notes.kept + ["\(notes.more) more redirect(s), not listed"]
        }
    }

    /// Sends `request` to the base URL's path followed by `request.path`.
    package func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let deadline = ContinuousClock.now + .milliseconds(Int64((timeout * 1000).rounded()))
        let basePath = base.target.hasSuffix("/") ? String(base.target.dropLast()) : base.target
        var endpoint = base
        endpoint.target = basePath + (request.path.hasPrefix("/") ? request.path : "/" + request.path)
        var hops = 0
        while true {
            let wire = WireRequest(endpoint: endpoint, method: request.method, headers: request.headers, body: request.body, deadline: deadline)
            let response = try await client.exchange(wire).get()
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.header("Location") else {
                return response
            }
            let what = "redirect: \(request.method) \(endpoint.target) answered \(response.status) to '\(location.prefix(300))'"
            guard let current = URL(string: endpoint.url), let resolved = URL(string: location, relativeTo: current)?.absoluteURL,
                let next = HTTPEndpoint(resolved)
            else {
                note("\(what), not an http(s) URL without credentials: not followed; the contract got the \(response.status)")
                return response
            }
            guard next.sameOrigin(base) else {
                note("\(what), another origin (\(next.origin)): not followed, nothing was sent there; the contract got the \(response.status)")
                return response
            }
            guard request.method == "GET" else {
                note("\(what), same origin: not followed (only GET is); the contract got the \(response.status)")
                return response
            }
            guard hops < Self.maxRedirects else {
                note("\(what), same origin: not followed after \(Self.maxRedirects) redirects in a row; the contract got the \(response.status)")
                return response
            }
            note("\(what), same origin: followed")
            hops += 1
            endpoint = next
        }
    }

    /// Keeps a redirect note (or counts it past ``maxRedirectNotes``).
    private func note(_ text: String) {
        notes.withLock { notes in
            if notes.kept.count < Self.maxRedirectNotes { notes.kept.append(text) } else { notes.more += 1 }
        }
    }
}
