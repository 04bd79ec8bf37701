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
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel

/// The network between an app and the backend under test: a loopback HTTP/1.1 proxy that
/// forwards each request to the backend, or applies a fault to it.
///
/// A scenario starts with ``begin(faults:holdLimit:)``: the n-th request the app sends meets the
/// n-th fault of the list (`nil` for none), and every request after the list is healthy. Faults
/// go to requests, in the order their first bytes arrive, never to connections: a connection the
/// app opens and sends nothing on takes no fault, is not logged, and is not waited for.
/// ``exchanges(settlingFor:)`` returns what happened to each request, in order. Every answer is
/// sent with `Connection: close`, so each request comes on a connection of its own and a fault
/// hits exactly one request (no HTTP client retries a request on a fresh connection it opened
/// itself).
///
/// What it holds is bounded whatever the app sends: at most ``maxOpenConnections`` connections
/// are open at once (when a new one waits, the oldest connection that has sent nothing is closed
/// to make room; otherwise it waits in the listen queue), and the bodies announced over
/// ``smallBodyBytes`` are read only while the bytes of all of them fit ``bodyBudget`` (one of
/// ``maxRequestBytes`` at a time, the app's sending stalls meanwhile). Such a body, announced by
/// its `Content-Length`, is read once, into memory mapped for it alone (returned to the kernel
/// when the request is dropped), and forwarded by one thread (``SerialForwarder``), so that the
/// backend's copies of large bodies come from one malloc arena, not one per request thread. A
/// body over the backend's own limit is answered 413 unread, as the backend answers it: a create
/// over ``maxCreateBytes``, any other over ``maxRequestBytes`` (a photo is under 20 MiB). The log
/// keeps ``loggedBodyBytes`` of each body.
///
/// One thread accepts and watches the connections that have sent nothing yet; each request has a
/// thread of its own. Requests are forwarded by a function the request's thread calls and waits
/// for (those with a body over ``smallBodyBytes``: the forwarder's thread calls it): straight into
/// the in-process mock on that thread, or over HTTP to a staging backend. Binds 127.0.0.1 only.
package final class FaultProxy: Sendable {
    /// The most connections open at once (requests and connections that have sent nothing).
    package static let maxOpenConnections = 32
    /// The longest request body read (a photo of 20 MiB plus its multipart framing).
    package static let maxRequestBytes = 21 * 1024 * 1024
    /// The longest create body read: the backend's limit (backend-contract.md: at most 100 KB,
    /// larger is answered 413).
    package static let maxCreateBytes = MockBackend.maxCreateBodyBytes
    /// Bodies announced up to this size are read without asking the budget.
    package static let smallBodyBytes = 64 * 1024
    /// The bytes of announced bodies over ``smallBodyBytes`` read at once: one of the largest.
    package static let bodyBudget = maxRequestBytes
    /// The bytes of each request body the log keeps (a create is at most 100 KB; the photos the
    /// runner gives apps are a few KB).
    package static let loggedBodyBytes = 256 * 1024
    /// Seconds a request may take to arrive in full, once its first byte came.
    static let requestArrivalSeconds = 10.0
    /// Milliseconds between two looks at a held connection.
    static let holdWatchMilliseconds = 20

    /// What the proxy holds, and the most it held at once (for tests and measurements).
    package struct Load: Sendable, Equatable {
        /// Connections open now.
        package var openConnections = 0
        /// The most connections open at once.
        package var peakOpenConnections = 0
        /// Body bytes over the small size being read or forwarded now.
        package var bodyBytes = 0
        /// The most such bytes at once.
        package var peakBodyBytes = 0
        /// Connections closed after sending nothing: by the app, or by the proxy to make room.
        package var silentConnections = 0
    }

    private struct Scenario: Sendable {
        /// Counts the scenarios, so that a request of an earlier one that ends late is not logged.
        var generation = 0
        var faults: [NetworkFault?] = []
        var holdLimit = 5.0
        var nextIndex = 0
        var log: [ProxiedExchange] = []
        var inFlight = 0
        /// Connections the app opened and closed without sending a byte.
        var abandoned = 0
    }

    /// Sends a request to the backend and waits for its answer (on the request's thread).
    private let forward: @Sendable (TransportRequest) -> Result<TransportResponse, TransportError>
    /// Sends the requests whose bodies the budget holds, one at a time on one thread.
    private let largeBodies: SerialForwarder
    private let scenario = Locked(Scenario())
    private let loadState = Locked(Load())
    private let listener = Locked<Int32?>(nil)
    private let running = Locked(false)

    /// A proxy that sends each request it forwards with `forward`, which blocks until the answer.
    package init(forward: @escaping @Sendable (TransportRequest) -> Result<TransportResponse, TransportError>) {
        self.forward = forward
        largeBodies = SerialForwarder(forward: forward)
    }

    /// A proxy in front of the in-process mock `backend`, answered on the request's thread.
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

    /// Stops accepting and closes the connections that have sent nothing; requests under way
    /// finish on their own.
    ///
    /// The listener is shut down here and closed by the accept loop once it has left it: a
    /// descriptor closed while the loop still polls it could be reused by another thread's
    /// listener, whose connections the loop would then accept and proxy.
    package func stop() {
        if let fd = listener.withLock({ fd -> Int32? in defer { fd = nil }; return fd }) {
            _ = shutdown(fd, Int32(SHUT_RDWR))
        }
        running.withLock { $0 = false }
        largeBodies.stop()
    }

    /// What the proxy holds now, and the most it held at once.
    package var load: Load { loadState.withLock { $0 } }

    /// Starts a scenario: the requests sent from now on meet `faults` in order, then none. An
    /// answer held past the app's time-out is held until the app closes the connection, at most
    /// `holdLimit` seconds after the request arrived.
    package func begin(faults: [NetworkFault?], holdLimit: Double) {
        scenario.withLock { scenario in
            scenario = Scenario(
                generation: scenario.generation + 1, faults: faults, holdLimit: holdLimit, nextIndex: 0, log: [], inFlight: 0)
        }
    }

    /// How many connections the app has opened and closed without sending a byte since the
    /// scenario began (as the proxy has seen so far: it notices a close on its next look).
    package var abandonedConnections: Int { scenario.withLock { $0.abandoned } }

    /// What happened to every request of the scenario so far, in order, once the requests under
    /// way have ended (waiting at most `seconds`). Connections that have sent nothing are not
    /// waited for.
    package func exchanges(settlingFor seconds: Double) -> [ProxiedExchange] {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while scenario.withLock({ $0.inFlight > 0 }) && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.002)
        }
        return scenario.withLock { $0.log.sorted { $0.index < $1.index } }
    }

    // MARK: Connections

    /// Accepts connections on `fd` and watches those that have sent nothing until ``stop()``;
    /// a connection whose first byte arrives becomes a request of the scenario, on a thread of its
    /// own. Then closes `fd` and the silent connections.
    private func acceptLoop(_ fd: Int32) {
        var silent: [Int32] = []  // connections that have sent nothing, oldest first
        defer {
            Socket.closeDescriptor(fd)
            for connection in silent { closeConnection(connection, silent: true) }
        }
        while running.withLock({ $0 }) {
            let accepting = loadState.withLock { $0.openConnections } < Self.maxOpenConnections || !silent.isEmpty
            var descriptors = (accepting ? [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)] : [])
                + silent.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), 200)
            if ready < 0 && errno != EINTR { Thread.sleep(forTimeInterval: 0.01) }
            guard ready > 0 else { continue }
            let first = accepting ? 1 : 0
            var stillSilent: [Int32] = []
            for (offset, connection) in silent.enumerated() {
                guard descriptors[first + offset].revents != 0 else {
                    stillSilent.append(connection)
                    continue
                }
                switch Self.firstByte(connection) {
                case .none: stillSilent.append(connection)
                case .closed:
                    scenario.withLock { $0.abandoned += 1 }
                    closeConnection(connection, silent: true)
                case .arrived: startRequest(connection)
                }
            }
            silent = stillSilent
            guard accepting, descriptors[0].revents != 0 else { continue }
            if loadState.withLock({ $0.openConnections }) >= Self.maxOpenConnections, !silent.isEmpty {
                closeConnection(silent.removeFirst(), silent: true)
            }
            let client = accept(fd, nil, nil)
            guard client >= 0 else {
                if errno == EINTR || errno == EAGAIN || errno == ECONNABORTED { continue }
                if !running.withLock({ $0 }) { return }
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            Socket.setCloseOnExec(client)
            Socket.setNonBlocking(client)
            loadState.withLock { load in
                load.openConnections += 1
                load.peakOpenConnections = max(load.peakOpenConnections, load.openConnections)
            }
            silent.append(client)
        }
    }

    /// What a look at a silent connection found.
    private enum FirstByte {
        /// Nothing to read yet.
        case none
        /// The app closed (or reset) it without sending a byte.
        case closed
        /// A request's first byte is there.
        case arrived
    }

    private static func firstByte(_ client: Int32) -> FirstByte {
        var byte: UInt8 = 0
        let count = recv(client, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if count > 0 { return .arrived }
        if count == 0 { return .closed }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .none : .closed
    }

    /// Makes `client`'s request the scenario's next one and serves it with its fault.
    private func startRequest(_ client: Int32) {
        let (generation, index, fault, holdLimit) = scenario.withLock { scenario -> (Int, Int, NetworkFault?, Double) in
            let index = scenario.nextIndex
            scenario.nextIndex += 1
            scenario.inFlight += 1
            return (scenario.generation, index, index < scenario.faults.count ? scenario.faults[index] : nil, scenario.holdLimit)
        }
        if fault == .refuse {
            Self.reset(client)
            closeConnection(nil, silent: false)
            finish(ProxiedExchange(index: index, fault: fault, request: nil, backendAnswer: nil, sentAnswer: nil, delivery: .noAnswer), generation)
            return
        }
        let thread = Thread { [self] in
            let exchange = serve(client, index: index, fault: fault, holdLimit: holdLimit)
            closeConnection(client, silent: false)
            finish(exchange, generation)
        }
        thread.name = "petspot-fault-proxy-request"
        thread.start()
    }

    /// Closes `client` (unless already closed) and counts it out.
    private func closeConnection(_ client: Int32?, silent: Bool) {
        if let client { Socket.closeDescriptor(client) }
        loadState.withLock { load in
            load.openConnections -= 1
            if silent { load.silentConnections += 1 }
        }
    }

    private func finish(_ exchange: ProxiedExchange, _ generation: Int) {
        scenario.withLock { scenario in
            guard scenario.generation == generation else { return }
            scenario.inFlight -= 1
            scenario.log.append(exchange)
        }
    }

    // MARK: Requests

    /// Reads one request from `client`, applies `fault`, answers (or not). The caller closes it.
    private func serve(_ client: Int32, index: Int, fault: NetworkFault?, holdLimit: Double) -> ProxiedExchange {
        let started = ContinuousClock.now
        func record(
            _ request: TransportRequest?, bodyBytes: Int = 0, _ backendAnswer: Result<TransportResponse, TransportError>?,
            _ sent: TransportResponse?, _ delivery: Delivery, watchDelay: Double = 0
        ) -> ProxiedExchange {
            ProxiedExchange(
                index: index, fault: fault, request: request, bodyBytes: bodyBytes, backendAnswer: backendAnswer, sentAnswer: sent,
                delivery: delivery, watchDelay: watchDelay)
        }
        var arrived: TransportRequest
        var reserved = 0
        switch readRequest(client) {
        case .none:
            return record(nil, nil, nil, .gaveUp(afterSeconds: Self.seconds(since: started)))
        case .tooLarge(let head, let announced):
            if fault == .dropRequest { return record(head, bodyBytes: announced, nil, nil, .noAnswer) }
            let answer = Self.tooLarge
            return record(head, bodyBytes: announced, nil, answer, Self.deliver(answer, to: client, started: started))
        case .request(let request, let bytes):
            arrived = request
            reserved = bytes
        }
        let received = ContinuousClock.now
        let logged = Self.logged(arrived), bodyBytes = arrived.body.count
        switch fault {
        case .dropRequest:
            releaseBody(reserved)
            return record(logged, bodyBytes: bodyBytes, nil, nil, .noAnswer)
        case .answer500, .answer503:
            releaseBody(reserved)
            let answer = Self.injected(status: fault == .answer500 ? 500 : 503)
            return record(logged, bodyBytes: bodyBytes, nil, answer, Self.deliver(answer, to: client, started: started))
        default:
            break
        }
        let backendAnswer = reserved > 0 ? largeBodies.send(arrived) : forward(arrived)
        // The body is not needed past the backend: it no longer counts against the budget.
        arrived.body = Data()
        releaseBody(reserved)
        switch fault {
        case .loseAnswer:
            return record(logged, bodyBytes: bodyBytes, backendAnswer, nil, .noAnswer)
        case .holdPastTimeout:
            let (delivery, delay) = Self.hold(client, from: received, limit: holdLimit)
            return record(logged, bodyBytes: bodyBytes, backendAnswer, nil, delivery, watchDelay: delay)
        default:
            switch backendAnswer {
            case .success(let answer):
                return record(logged, bodyBytes: bodyBytes, backendAnswer, answer, Self.deliver(answer, to: client, started: started))
            case .failure: return record(logged, bodyBytes: bodyBytes, backendAnswer, nil, .noAnswer)
            }
        }
    }

    /// Holds the answer until the app closes `client` or `limit` seconds have passed since the
    /// request arrived, looking every ``holdWatchMilliseconds``; returns what the app did, and the
    /// longest a look came late (how much the machine delayed the proxy meanwhile).
    private static func hold(_ client: Int32, from received: ContinuousClock.Instant, limit: Double) -> (Delivery, Double) {
        var delay = 0.0
        var previous = ContinuousClock.now
        while true {
            let waited = seconds(since: received)
            if waited >= limit { return (.outwaited(afterSeconds: waited), delay) }
            let closed = peerClosed(client, waitMilliseconds: holdWatchMilliseconds)
            let now = ContinuousClock.now
            delay = max(delay, seconds(from: previous, to: now) - Double(holdWatchMilliseconds) / 1000)
            previous = now
            if closed { return (.gaveUp(afterSeconds: seconds(since: received)), delay) }
        }
    }

    /// A copy of `request` whose body is cut to ``loggedBodyBytes``.
    private static func logged(_ request: TransportRequest) -> TransportRequest {
        guard request.body.count > loggedBodyBytes else { return request }
        var copy = request
        copy.body = Data([UInt8](request.body.prefix(loggedBodyBytes)))
        return copy
    }

    /// The error envelope of an injected 500 or 503.
    private static func injected(status: Int) -> TransportResponse {
        let code = status == 500 ? "INTERNAL_SERVER_ERROR" : "SERVICE_UNAVAILABLE"
        return TransportResponse(
            status: status, headers: [("Content-Type", "application/json"), ("Access-Control-Allow-Origin", "*")],
            body: Data(#"{"error":{"requestId":"petspot-fault-proxy","code":"\#(code)","message":"Injected fault: status \#(status)"}}"#.utf8))
    }

    /// The backend's answer to a body over its limits (backend-contract.md), given unread.
    private static let tooLarge = TransportResponse(
        status: 413, headers: [("Content-Type", "application/json"), ("Access-Control-Allow-Origin", "*")],
        body: Data(#"{"error":{"requestId":"petspot-fault-proxy","code":"PAYLOAD_TOO_LARGE","message":"Request payload exceeds maximum size limit (100KB)"}}"#.utf8))

    /// Writes `answer` (with `Connection: close`), unless the app has already closed the
    /// connection: then it gave up. A reset after the write is the app closing with the answer
    /// unread.
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
        // The app reads the answer and closes; wait briefly so that its close is not a reset. A
        // reset from the app is the app closing with the answer unread.
        if peerClose(client, waitMilliseconds: 200) == .reset { return .unread(status: answer.status, afterSeconds: seconds(since: started)) }
        return .answered(status: answer.status)
    }

    /// What reading a request found.
    private enum Arrival {
        /// The whole request, and the bytes of the body budget it holds (to release).
        case request(TransportRequest, reserved: Int)
        /// A request whose body is announced (or grew) over ``maxRequestBytes``: its head, and the
        /// size announced; the body is not read.
        case tooLarge(TransportRequest, announced: Int)
        /// No request: the app closed first, sent a malformed one, or took longer than
        /// ``requestArrivalSeconds``.
        case none
    }

    /// Reads one whole request (answering `Expect: 100-continue`); a body announced over
    /// ``smallBodyBytes`` is read once the budget has room for it.
    private func readRequest(_ client: Int32) -> Arrival {
        let announced = Locked<Int?>(nil)
        var parser = HTTPRequestParser(
            limits: HTTPParserLimits(maxHeaderBytes: 64 * 1024, maxBodyBytes: Self.maxRequestBytes),
            bodyLimit: { head in
                announced.withLock { $0 = head.headers["Content-Length"].flatMap { Int($0) } ?? Self.maxRequestBytes }
                let path = head.target.split(separator: "?").first.map(String.init) ?? head.target
                return head.method == "POST" && path == "/api/v1/announcements" ? Self.maxCreateBytes : Self.maxRequestBytes
            },
            minimumBodyLimit: Self.smallBodyBytes)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let deadline = Socket.monotonicMilliseconds() + Int64(Self.requestArrivalSeconds * 1000)
        var reserved = 0
        func none() -> Arrival {
            releaseBody(reserved)
            return .none
        }
        while true {
            switch parser.nextRequest() {
            case .request(let request):
                let transport = TransportRequest(
                    method: request.method, path: request.target,
                    headers: request.headers.fields.map { (name: $0.name, value: $0.value) }, body: Data(request.body))
                if request.isBodyOverLimit {
                    releaseBody(reserved)
                    return .tooLarge(transport, announced: announced.withLock { $0 } ?? Self.maxRequestBytes)
                }
                return .request(transport, reserved: reserved)
            case .failure:
                return none()
            case .incomplete:
                if reserved == 0, parser.isReceivingBody, let bytes = announced.withLock({ $0 }) {
                    guard reserveBody(min(bytes, Self.maxRequestBytes), until: deadline) else { return none() }
                    reserved = min(bytes, Self.maxRequestBytes)
                }
                if parser.continueRequested {
                    try? Socket.writeAll(client, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), timeoutMilliseconds: 1000)
                    parser.acknowledgeContinue()
                }
                // A body the budget holds, announced by its length: read it into one buffer of that length.
                if reserved > 0, let handed = parser.handOverForBodyRead() {
                    return readBody(handed, from: client, until: deadline, reserved: reserved)
                }
            }
            let remaining = Int(deadline - Socket.monotonicMilliseconds())
            guard remaining > 0, Socket.wait(client, events: Int16(POLLIN), timeoutMilliseconds: remaining) else { return none() }
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return none() }
            parser.append(chunk[0..<count])
        }
    }

    /// Reads the rest of `handed`'s body from `client` (until `deadline`) straight into memory
    /// mapped for it alone, of its announced length: the body is held once, and its pages go back
    /// to the kernel when the last copy of the request is dropped (a block from malloc would stay
    /// in the arena of the request's thread).
    private func readBody(
        _ handed: (request: HTTPRequest, length: Int, received: [UInt8]), from client: Int32, until deadline: Int64, reserved: Int
    ) -> Arrival {
        let length = handed.length
        guard let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), mapped != MAP_FAILED else {
            releaseBody(reserved)
            return .none
        }
        func giveUp() -> Arrival {
            munmap(mapped, length)
            releaseBody(reserved)
            return .none
        }
        UnsafeMutableRawBufferPointer(start: mapped, count: length).copyBytes(from: handed.received)
        var filled = handed.received.count
        while filled < length {
            let remaining = Int(deadline - Socket.monotonicMilliseconds())
            guard remaining > 0, Socket.wait(client, events: Int16(POLLIN), timeoutMilliseconds: remaining) else { return giveUp() }
            let count = recv(client, mapped + filled, length - filled, 0)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return giveUp() }
            filled += count
        }
        let body = Data(bytesNoCopy: mapped, count: length, deallocator: .custom { pointer, count in munmap(pointer, count) })
        let request = handed.request
        return .request(
            TransportRequest(
                method: request.method, path: request.target, headers: request.headers.fields.map { (name: $0.name, value: $0.value) },
                body: body),
            reserved: reserved)
    }

    /// Takes `bytes` of the body budget, waiting (until `deadline`, in monotonic milliseconds)
    /// while other bodies hold it; a body is always let through when no other is being read.
    private func reserveBody(_ bytes: Int, until deadline: Int64) -> Bool {
        while true {
            let taken = loadState.withLock { load -> Bool in
                guard load.bodyBytes == 0 || load.bodyBytes + bytes <= Self.bodyBudget else { return false }
                load.bodyBytes += bytes
                load.peakBodyBytes = max(load.peakBodyBytes, load.bodyBytes)
                return true
            }
            if taken { return true }
            if Socket.monotonicMilliseconds() >= deadline || !running.withLock({ $0 }) { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// Gives `bytes` of the body budget back.
    private func releaseBody(_ bytes: Int) {
        guard bytes > 0 else { return }
        loadState.withLock { $0.bodyBytes -= bytes }
    }

    /// How the app closed a connection.
    private enum PeerClose {
        /// An orderly close.
        case finished
        /// A reset: the app closed it with bytes unread.
        case reset
    }

    /// How the app closed `client` within `waitMilliseconds`, or `nil` while it is open.
    private static func peerClose(_ client: Int32, waitMilliseconds: Int) -> PeerClose? {
        guard Socket.wait(client, events: Int16(POLLIN), timeoutMilliseconds: waitMilliseconds) else { return nil }
        var byte: UInt8 = 0
        let count = recv(client, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if count == 0 { return .finished }
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
            return errno == ECONNRESET ? .reset : .finished
        }
        // The app sent more bytes (it should not): drain them and keep waiting.
        _ = recv(client, &byte, 1, Int32(MSG_DONTWAIT))
        return nil
    }

    /// Whether the app closed (or reset) the connection, waiting at most `waitMilliseconds`.
    private static func peerClosed(_ client: Int32, waitMilliseconds: Int) -> Bool {
        peerClose(client, waitMilliseconds: waitMilliseconds) != nil
    }

    /// Closes `client` with a reset (`SO_LINGER` 0), as a refused connection looks to the app.
    private static func reset(_ client: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        Socket.closeDescriptor(client)
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        seconds(from: start, to: ContinuousClock.now)
    }

    private static func seconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
        let elapsed = end - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
