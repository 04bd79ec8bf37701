#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpotConcurrency
import PetSpotHTTP
import PetSpotMockTransport
import PetSpotModel

/// The network between an app and the backend under test: a loopback HTTP/1.1 proxy that
/// forwards each request to the backend, or applies a fault to it.
///
/// A scenario starts with ``begin(faults:holdLimit:)``: the n-th connection the app opens meets
/// the n-th fault of the list (`nil` for none), and every connection after the list is healthy.
/// ``exchanges(settlingFor:)`` returns what happened to each connection, in the order they were
/// opened. Every answer is sent with `Connection: close`, so each request comes on a connection
/// of its own and a fault hits exactly one request (no HTTP client retries a request on a fresh
/// connection it opened itself).
///
/// One thread accepts; each connection has a thread of its own (an app opens a handful per
/// scenario). Requests are forwarded by a function the connection's thread calls and waits for:
/// straight into the in-process mock on that thread, or over HTTP to a staging backend. Binds
/// 127.0.0.1 only.
package final class FaultProxy: Sendable {
    private struct Scenario: Sendable {
        var faults: [NetworkFault?] = []
        var holdLimit = 5.0
        var nextIndex = 0
        var log: [ProxiedExchange] = []
        var inFlight = 0
    }

    /// Sends a request to the backend and waits for its answer (on the connection's thread).
    private let forward: @Sendable (TransportRequest) -> Result<TransportResponse, TransportError>
    private let scenario = Locked(Scenario())
    private let listener = Locked<Int32?>(nil)
    private let running = Locked(false)
    /// The longest request read (a photo of 20 MiB plus its multipart framing).
    static let maxRequestBytes = 21 * 1024 * 1024

    /// A proxy that sends each request it forwards with `forward`, which blocks until the answer.
    package init(forward: @escaping @Sendable (TransportRequest) -> Result<TransportResponse, TransportError>) {
        self.forward = forward
    }

    /// A proxy in front of the in-process mock `backend`, answered on the connection's thread.
    package convenience init(backend: InProcessTransport) {
        self.init(forward: { backend.answerNow($0) })
    }

    deinit { stop() }

    /// Starts listening on 127.0.0.1 (a free port) and returns the base URL the app is given.
    package func start() throws(HTTPSocketError) -> URL {
        Socket.ignoreSIGPIPE()
        let (fd, port) = try Socket.listen(host: "127.0.0.1", port: 0, backlog: 64)
        listener.withLock { $0 = fd }
        running.withLock { $0 = true }
        let thread = Thread { [self] in acceptLoop(fd) }
        thread.name = "petspot-fault-proxy"
        thread.start()
        guard let url = URL(string: "http://127.0.0.1:\(port)") else { throw HTTPSocketError(operation: "form the proxy URL", code: 0) }
        return url
    }

    /// Stops accepting; connections under way finish on their own.
    ///
    /// The listener is shut down here and closed by the accept loop once it has left it: a
    /// descriptor closed while the loop still polls it could be reused by another thread's
    /// listener, whose connections the loop would then accept and proxy.
    package func stop() {
        if let fd = listener.withLock({ fd -> Int32? in defer { fd = nil }; return fd }) {
            _ = shutdown(fd, Int32(SHUT_RDWR))
        }
        running.withLock { $0 = false }
    }

    /// Starts a scenario: the connections opened from now on meet `faults` in order, then none. An
    /// answer held past the app's time-out is held at most `holdLimit` seconds.
    package func begin(faults: [NetworkFault?], holdLimit: Double) {
        scenario.withLock { scenario in
            scenario = Scenario(faults: faults, holdLimit: holdLimit, nextIndex: 0, log: [], inFlight: scenario.inFlight)
        }
    }

    /// What happened to every connection of the scenario so far, in the order they were opened,
    /// once the connections under way have ended (waiting at most `seconds`).
    package func exchanges(settlingFor seconds: Double) -> [ProxiedExchange] {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while scenario.withLock({ $0.inFlight > 0 }) && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.002)
        }
        return scenario.withLock { $0.log.sorted { $0.index < $1.index } }
    }

    // MARK: Connections

    /// Accepts connections on `fd` until ``stop()``, then closes it.
    private func acceptLoop(_ fd: Int32) {
        defer { Socket.closeDescriptor(fd) }
        while running.withLock({ $0 }) {
            guard Socket.wait(fd, events: Int16(POLLIN), timeoutMilliseconds: 200) else { continue }
            let client = accept(fd, nil, nil)
            guard client >= 0 else {
                if errno == EINTR || errno == EAGAIN || errno == ECONNABORTED { continue }
                if !running.withLock({ $0 }) { return }
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            Socket.setCloseOnExec(client)
            let (index, fault, holdLimit) = scenario.withLock { scenario -> (Int, NetworkFault?, Double) in
                let index = scenario.nextIndex
                scenario.nextIndex += 1
                scenario.inFlight += 1
                return (index, index < scenario.faults.count ? scenario.faults[index] : nil, scenario.holdLimit)
            }
            if fault == .refuse {
                Self.reset(client)
                finish(ProxiedExchange(index: index, fault: fault, request: nil, backendAnswer: nil, sentAnswer: nil, delivery: .noAnswer))
                continue
            }
            let thread = Thread { [self] in
                finish(serve(client, index: index, fault: fault, holdLimit: holdLimit))
            }
            thread.name = "petspot-fault-proxy-connection"
            thread.start()
        }
    }

    private func finish(_ exchange: ProxiedExchange) {
        scenario.withLock { scenario in
            scenario.inFlight -= 1
            scenario.log.append(exchange)
        }
    }

    /// Reads one request from `client`, applies `fault`, answers (or not) and closes.
    private func serve(_ client: Int32, index: Int, fault: NetworkFault?, holdLimit: Double) -> ProxiedExchange {
        Socket.setNonBlocking(client)
        func record(_ request: TransportRequest?, _ backendAnswer: Result<TransportResponse, TransportError>?, _ sent: TransportResponse?, _ delivery: Delivery) -> ProxiedExchange {
            Socket.closeDescriptor(client)
            return ProxiedExchange(index: index, fault: fault, request: request, backendAnswer: backendAnswer, sentAnswer: sent, delivery: delivery)
        }
        let started = ContinuousClock.now
        guard let request = Self.readRequest(client) else {
            return record(nil, nil, nil, .gaveUp(afterSeconds: Self.seconds(since: started)))
        }
        switch fault {
        case .dropRequest:
            return record(request, nil, nil, .noAnswer)
        case .answer500, .answer503:
            let status = fault == .answer500 ? 500 : 503
            let code = status == 500 ? "INTERNAL_SERVER_ERROR" : "SERVICE_UNAVAILABLE"
            let answer = TransportResponse(
                status: status, headers: [("Content-Type", "application/json"), ("Access-Control-Allow-Origin", "*")],
                body: Data(#"{"error":{"requestId":"petspot-fault-proxy","code":"\#(code)","message":"Injected fault: status \#(status)"}}"#.utf8))
            return record(request, nil, answer, Self.deliver(answer, to: client, started: started))
        default:
            break
        }
        let backendAnswer = forward(request)
        switch fault {
        case .loseAnswer:
            return record(request, backendAnswer, nil, .noAnswer)
        case .holdPastTimeout:
            let deadline = ContinuousClock.now + .milliseconds(Int64(holdLimit * 1000))
            while ContinuousClock.now < deadline {
                if Self.peerClosed(client, waitMilliseconds: 20) { return record(request, backendAnswer, nil, .gaveUp(afterSeconds: Self.seconds(since: started))) }
            }
            return record(request, backendAnswer, nil, .noAnswer)
        default:
            switch backendAnswer {
            case .success(let answer): return record(request, backendAnswer, answer, Self.deliver(answer, to: client, started: started))
            case .failure: return record(request, backendAnswer, nil, .noAnswer)
            }
        }
    }

    /// Writes `answer` (with `Connection: close`), unless the app has already closed the
    /// connection: then it gave up.
    private static func deliver(_ answer: TransportResponse, to client: Int32, started: ContinuousClock.Instant) -> Delivery {
        if peerClosed(client, waitMilliseconds: 0) { return .gaveUp(afterSeconds: seconds(since: started)) }
        var headers = HTTPHeaders()
        for header in answer.headers { headers.add(header.name, header.value) }
        let bytes = HTTPResponse(status: answer.status, headers: headers, body: [UInt8](answer.body)).serialized(closing: true)
        do {
            try Socket.writeAll(client, bytes, timeoutMilliseconds: 5000)
        } catch {
            return .gaveUp(afterSeconds: seconds(since: started))
        }
        _ = shutdown(client, Int32(SHUT_WR))
        // The app reads the answer and closes; wait briefly so that its close is not a reset.
        _ = peerClosed(client, waitMilliseconds: 200)
        return .answered(status: answer.status)
    }

    /// Reads one whole request (answering `Expect: 100-continue`), or `nil` when the app closes
    /// first, sends a malformed one, or takes longer than 10 s.
    private static func readRequest(_ client: Int32) -> TransportRequest? {
        var parser = HTTPRequestParser(limits: HTTPParserLimits(maxHeaderBytes: 64 * 1024, maxBodyBytes: maxRequestBytes))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let deadline = Socket.monotonicMilliseconds() + 10_000
        while true {
            switch parser.nextRequest() {
            case .request(let request):
                return TransportRequest(
                    method: request.method, path: request.target,
                    headers: request.headers.fields.map { (name: $0.name, value: $0.value) }, body: Data(request.body))
            case .failure:
                return nil
            case .incomplete:
                if parser.continueRequested {
                    try? Socket.writeAll(client, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), timeoutMilliseconds: 1000)
                    parser.acknowledgeContinue()
                }
            }
            let remaining = Int(deadline - Socket.monotonicMilliseconds())
            guard remaining > 0, Socket.wait(client, events: Int16(POLLIN), timeoutMilliseconds: remaining) else { return nil }
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return nil }
            parser.append(chunk[0..<count])
        }
    }

    /// Whether the app closed (or reset) the connection, waiting at most `waitMilliseconds`.
    private static func peerClosed(_ client: Int32, waitMilliseconds: Int) -> Bool {
        guard Socket.wait(client, events: Int16(POLLIN), timeoutMilliseconds: waitMilliseconds) else { return false }
        var byte: UInt8 = 0
        let count = recv(client, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if count == 0 { return true }
        if count < 0 { return !(errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) }
        // The app sent more bytes (it should not): drain them and keep waiting.
        _ = recv(client, &byte, 1, Int32(MSG_DONTWAIT))
        return false
    }

    /// Closes `client` with a reset (`SO_LINGER` 0), as a refused connection looks to the app.
    private static func reset(_ client: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        Socket.closeDescriptor(client)
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
