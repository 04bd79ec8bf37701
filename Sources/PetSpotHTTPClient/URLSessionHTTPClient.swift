import Dispatch
import Foundation
import PetSpotConcurrency
import PetSpotModel
import PetSpotReport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `https://` wire client of ``RunnerHTTPTransport``: `URLSession` (for TLS) with a delegate
/// that applies the runner's policy.
///
/// The delegate refuses every redirect (``RunnerHTTPTransport`` decides which to follow), counts
/// the body as it arrives and cancels past the cap, refuses an answer whose `Content-Encoding`
/// the runner did not ask for as soon as its header arrives, and a timer cancels the task at the
/// request's deadline. The caller is answered as soon as one of these decides, without waiting
/// for `URLSession` to wind the task down.
///
/// Limitation (Linux): FoundationNetworking's libcurl decodes `gzip`/`deflate` answers itself,
/// before the delegate sees them, and queues the decoded data without back-pressure; cancelling
/// does not stop it mid-buffer. The cap bounds what the runner keeps, but the memory libcurl
/// spends on a compressed answer is not bounded by it. `http://` targets use
/// ``SocketHTTPClient``, which never decodes.
package final class URLSessionHTTPClient: HTTPWireClient {
    /// The session, with ``Delegate`` as its delegate.
    private let session: URLSession
    /// The tasks in flight.
    private let delegate: Delegate
    /// The limits, for the plain-HTTP look after a failed handshake.
    private let limits: WireLimits

    /// A client with `limits`; `timeout` also bounds `URLSession`'s own timers.
    package init(limits: WireLimits, timeout: Double) {
        self.limits = limits
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        delegate = Delegate(limits: limits)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends `request` and collects the answer within the deadline and the cap.
    package func exchange(_ request: WireRequest) async -> Result<TransportResponse, TransportError> {
        guard let url = URL(string: request.endpoint.url) else {
            return .failure(.noConnection("cannot form a URL from \(DisplayText.sanitized(request.endpoint.url, maxBytes: 200))"))
        }
        let left = request.deadline - ContinuousClock.now
        let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
        guard seconds > 0 else { return .failure(.timedOut) }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: seconds)
        urlRequest.httpMethod = request.method
        var hasAcceptEncoding = false
        for header in request.headers {
            let name = header.name.lowercased()
            if ["host", "content-length", "transfer-encoding", "connection"].contains(name) { continue }
            if name == "accept-encoding" { hasAcceptEncoding = true }
            urlRequest.addValue(header.value, forHTTPHeaderField: header.name)
        }
        if !hasAcceptEncoding { urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding") }
        if !request.body.isEmpty || request.method == "POST" { urlRequest.httpBody = request.body }
        let task = session.dataTask(with: urlRequest)
        let box = TaskBox(task)
        let identifier = task.taskIdentifier
        let delegate = self.delegate
        let result = await withCheckedContinuation { continuation in
            delegate.register(identifier, continuation: continuation, cancel: { box.cancel() })
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                delegate.finish(identifier, with: .failure(.timedOut))
            }
            box.task.resume()
        }
        if case .failure(.noConnection(let detail)) = result, Self.isHandshakeFailure(detail) {
            return .failure(.noConnection(await plainHTTPDiagnosis(request, handshake: detail)))
        }
        return result
    }

    /// Whether a connection error reads as a failed TLS handshake (OpenSSL's "wrong version
    /// number" is what a plain-HTTP answer to a ClientHello gives).
    static func isHandshakeFailure(_ detail: String) -> Bool {
        let text = detail.lowercased()
        return ["ssl", "tls", "wrong version number", "secure connection", "handshake"].contains { text.contains($0) }
    }

    /// The handshake failure said in plain words: when the same host and port answer a plain
    /// `GET /` (one request, at most 2 s, within the request's deadline), the target speaks HTTP,
    /// not HTTPS, and its URL is probably `http://`.
    private func plainHTTPDiagnosis(_ request: WireRequest, handshake detail: String) async -> String {
        var plain = request
        plain.endpoint.scheme = "http"
        plain.endpoint.target = "/"
        plain.method = "GET"
        plain.headers = []
        plain.body = Data()
        plain.deadline = min(request.deadline, ContinuousClock.now + .seconds(2))
        let host = request.endpoint.host, port = request.endpoint.port
        let endpoint = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        guard case .success(let answer) = await SocketHTTPClient(limits: limits).exchange(plain) else {
            return "the TLS handshake with \(endpoint) failed: \(detail)"
        }
        return "the TLS handshake with \(endpoint) failed (\(detail)) because the server answers plain HTTP there (GET / over "
            + "http:// answered \(answer.status)): use --base-url http://\(endpoint) instead of https://"
    }

    /// A task, to cancel it from the timer or the delegate.
    ///
    /// Unchecked: `URLSessionTask` is thread-safe (its `cancel()` may be called from any
    /// thread), and the box holds it immutably.
    private final class TaskBox: @unchecked Sendable {
        /// The task.
        let task: URLSessionTask
        /// Boxes `task`.
        init(_ task: URLSessionTask) { self.task = task }
        /// Cancels the task.
        func cancel() { task.cancel() }
    }

    /// One task in flight: its continuation, how to cancel it, and the answer so far.
    private struct Pending: Sendable {
        /// Resumes the caller.
        var continuation: CheckedContinuation<Result<TransportResponse, TransportError>, Never>
        /// Cancels the task.
        var cancel: @Sendable () -> Void
        /// The status, once the head has come.
        var status = 0
        /// The headers, once the head has come.
        var headers: [(name: String, value: String)] = []
        /// The body so far.
        var body = Data()
    }

    /// The session's delegate: the tasks in flight by identifier, behind one lock.
    private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        /// The limits enforced.
        let limits: WireLimits
        /// The tasks in flight by identifier.
        private let pending = Locked<[Int: Pending]>([:])

        /// A delegate enforcing `limits`.
        init(limits: WireLimits) {
            self.limits = limits
        }

        /// Registers a task before it is resumed.
        func register(
            _ identifier: Int, continuation: CheckedContinuation<Result<TransportResponse, TransportError>, Never>,
            cancel: @escaping @Sendable () -> Void
        ) {
            pending.withLock { $0[identifier] = Pending(continuation: continuation, cancel: cancel) }
        }

        /// Answers the task's caller once (later calls do nothing) and cancels the task unless it
        /// succeeded.
        func finish(_ identifier: Int, with result: Result<TransportResponse, TransportError>) {
            guard let entry = pending.withLock({ $0.removeValue(forKey: identifier) }) else { return }
            if case .failure = result { entry.cancel() }
            entry.continuation.resume(returning: result)
        }

        /// Never follows a redirect: ``RunnerHTTPTransport`` decides. The caller is answered here
        /// with the redirect's status and headers (its body, which FoundationNetworking drains,
        /// is not kept), without waiting for the task to wind down. FoundationNetworking is told
        /// first: once answered, the caller may release the session, and a redirect decision on a
        /// task cancelled meanwhile is a fatal error there ("Received callback for HTTP
        /// redirection, but we're not waiting for it"). The later callbacks of this task wait for
        /// this one (the delegate queue is serial), so the caller still gets this answer.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
            let answer = TransportResponse(status: response.statusCode, headers: Self.headers(of: response), body: Data())
            finish(task.taskIdentifier, with: .success(answer))
        }

        /// The header fields of `response`, in the transport's form.
        static func headers(of response: HTTPURLResponse) -> [(name: String, value: String)] {
            response.allHeaderFields.compactMap { key, value -> (name: String, value: String)? in
                guard let name = key as? String else { return nil }
                return (name: name, value: "\(value)")
            }
        }

        /// Refuses an unrequested content coding or a declared length past the cap; keeps the head.
        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            guard let http = response as? HTTPURLResponse else {
                finish(dataTask.taskIdentifier, with: .failure(.noConnection("not an HTTP response")))
                completionHandler(.cancel)
                return
            }
            let headers = Self.headers(of: http)
            let coding = headers.filter { $0.name.caseInsensitiveCompare("Content-Encoding") == .orderedSame }.map(\.value)
                .joined(separator: ", ").trimmingCharacters(in: .whitespaces)
            if !coding.isEmpty, coding.lowercased() != "identity" {
                finish(dataTask.taskIdentifier, with: .failure(limits.encoded(status: http.statusCode, coding: coding)))
                completionHandler(.cancel)
                return
            }
            if http.expectedContentLength > Int64(limits.maxBodyBytes) {
                let declared = Int(clamping: http.expectedContentLength)
                finish(dataTask.taskIdentifier, with: .failure(limits.tooLarge(status: http.statusCode, declared: declared)))
                completionHandler(.cancel)
                return
            }
            pending.withLock { pending in
                pending[dataTask.taskIdentifier]?.status = http.statusCode
                pending[dataTask.taskIdentifier]?.headers = headers
            }
            completionHandler(.allow)
        }

        /// Keeps the body while it is within the cap; past it, fails the task.
        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let identifier = dataTask.taskIdentifier
            let over = pending.withLock { pending -> Int? in
                guard let size = pending[identifier]?.body.count else { return nil }
                if size + data.count > limits.maxBodyBytes { return pending[identifier]?.status ?? 0 }
                pending[identifier]?.body.append(data)
                return nil
            }
            if let status = over {
                finish(dataTask.taskIdentifier, with: .failure(limits.tooLarge(status: status)))
            }
        }

        /// Answers the caller with the answer or the error, unless already answered.
        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let entry = pending.withLock { $0[task.taskIdentifier] }
            guard let entry else { return }
            if let error {
                let code = (error as? URLError)?.code
                finish(task.taskIdentifier, with: .failure(code == .timedOut ? .timedOut : .noConnection(error.localizedDescription)))
            } else {
                finish(task.taskIdentifier, with: .success(TransportResponse(status: entry.status, headers: entry.headers, body: entry.body)))
            }
        }
    }
}
