#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpotConcurrency
@testable import PetSpotHTTP

/// Misbehaving loopback clients for the adversarial server tests.
enum LoopbackClient {
    /// A connected, non-blocking, close-on-exec TCP socket to `127.0.0.1:port`; the connect
    /// itself gives up after a second.
    static func connect(port: Int) -> Int32? {
        guard var address = try? Socket.address(host: "127.0.0.1", port: port) else { return nil }
        let descriptor = socket(AF_INET, Socket.streamType, 0)
        guard descriptor >= 0 else { return nil }
        Socket.setCloseOnExec(descriptor)
        var limit = timeval(tv_sec: 1, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Socket.closeDescriptor(descriptor)
            return nil
        }
        Socket.configureConnection(descriptor)
        Socket.setNonBlocking(descriptor)
        return descriptor
    }

    /// Everything the peer sends until it closes the connection or `timeout` seconds pass.
    static func readUntilClosed(_ descriptor: Int32, timeout: Double) -> (bytes: [UInt8], closed: Bool) {
        let deadline = Socket.monotonicMilliseconds() + Int64(timeout * 1000)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count > 0 {
                received += chunk[0..<count]
                continue
            }
            if count == 0 { return (received, true) }
            if errno == ECONNRESET { return (received, true) }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return (received, true) }
            let remaining = deadline - Socket.monotonicMilliseconds()
            guard remaining > 0, Socket.wait(descriptor, events: Int16(POLLIN), timeoutMilliseconds: Int(remaining)) else {
                return (received, false)
            }
        }
    }

    /// What ``trickle(port:first:then:every:giveUpAfter:)`` saw.
    struct TrickleResult {
        /// The server's answer as text ("" when it closed without one).
        var answer: String
        /// Seconds from the first byte sent to the answer or close.
        var seconds: Double
        /// Whether the server closed the connection (else the client gave up).
        var closedByServer: Bool

        /// The status code of the answer, if it has a status line.
        var status: Int? {
            let parts = answer.split(separator: " ", maxSplits: 2)
            return parts.count >= 2 && parts[0].hasPrefix("HTTP/1.") ? Int(parts[1]) : nil
        }
    }

    /// Sends `first`, then the bytes of `then` one at a time (cycling) every `interval` seconds,
    /// until the server answers or closes, or `giveUpAfter` seconds pass.
    static func trickle(port: Int, first: [UInt8], then trickled: [UInt8], every interval: Double,
                        giveUpAfter: Double) -> TrickleResult? {
        guard let descriptor = connect(port: port) else { return nil }
        defer { Socket.closeDescriptor(descriptor) }
        let start = Socket.monotonicMilliseconds()
        func elapsed() -> Double { Double(Socket.monotonicMilliseconds() - start) / 1000 }
        _ = Socket.sendAvailable(descriptor, first)
        var index = 0
        while elapsed() < giveUpAfter {
            if Socket.wait(descriptor, events: Int16(POLLIN), timeoutMilliseconds: Int(interval * 1000)) {
                let (bytes, closed) = readUntilClosed(descriptor, timeout: 2)
                return TrickleResult(answer: String(decoding: bytes, as: UTF8.self), seconds: elapsed(), closedByServer: closed)
            }
            guard !trickled.isEmpty else { continue }
            _ = Socket.sendAvailable(descriptor, [trickled[index % trickled.count]])
            index += 1
        }
        return TrickleResult(answer: "", seconds: elapsed(), closedByServer: false)
    }
}

/// `count` clients on one background thread, each connected to `127.0.0.1:port` and taking a
/// step of its ``Behaviour`` every `interval` seconds; a client whose step finds the connection
/// answered or closed by the server is cut off and reconnects at once, with the persistence of
/// a client that retries.
final class ClientSwarm: Sendable {
    /// What one client does with its connection at each step.
    protocol Behaviour: AnyObject {
        /// Takes one step on `descriptor`; `false` when the server answered or closed it.
        func step(_ descriptor: Int32) -> Bool
    }

    /// Totals since the start.
    struct Counts: Sendable {
        /// Sockets open now.
        var open = 0
        /// Connections made, reconnections included.
        var connections = 0
        /// Connections the server answered or closed.
        var cutOff = 0
    }

    private struct Control {
        var stopRequested = false
        var finished = false
        var counts = Counts()
    }

    private let control = Locked(Control())
    private let port: Int
    private let count: Int
    private let interval: Double
    /// A fresh behaviour for each connection.
    private let behaviour: @Sendable () -> any Behaviour

    /// A swarm of `count` clients of `behaviour` (one fresh behaviour per connection).
    init(port: Int, count: Int, interval: Double, behaviour: @escaping @Sendable () -> any Behaviour) {
        self.port = port
        self.count = count
        self.interval = interval
        self.behaviour = behaviour
    }

    /// Clients that send one more byte of a header that never ends at each step, and count as
    /// cut off as soon as the server answers or closes: the slowloris attack.
    static func trickling(port: Int, count: Int, interval: Double) -> ClientSwarm {
        ClientSwarm(port: port, count: count, interval: interval) { Trickling() }
    }

    /// Clients that never read: each sends `opening` on connecting, then `more` at each step
    /// (resuming where a full socket buffer cut it short, so requests stay framed), and counts as
    /// cut off when a send fails because the server closed. Pipelining requests without reading
    /// the answers, or announcing a huge body and sending it.
    static func flooding(port: Int, count: Int, opening: [UInt8], more: [UInt8], interval: Double) -> ClientSwarm {
        ClientSwarm(port: port, count: count, interval: interval) { Flooding(opening: opening, more: more) }
    }

    /// Starts the clients.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "ClientSwarm"
        thread.start()
    }

    /// The totals so far.
    var counts: Counts { control.withLock { $0.counts } }

    /// Waits until `open` clients are connected at once, at most `timeout` seconds.
    func waitUntilOpen(_ open: Int, timeout: Double) -> Bool {
        control.withLock(waitingUntil: Date(timeIntervalSinceNow: timeout), for: { $0.counts.open >= open }) { _, ready in ready }
    }

    /// Waits until the server has cut off `cutOff` connections, at most `timeout` seconds.
    func waitUntilCutOff(_ cutOff: Int, timeout: Double) -> Bool {
        control.withLock(waitingUntil: Date(timeIntervalSinceNow: timeout), for: { $0.counts.cutOff >= cutOff }) { _, ready in ready }
    }

    /// Stops and closes every client; returns the totals.
    @discardableResult
    func stop() -> Counts {
        control.withLock { $0.stopRequested = true }
        return control.withLock(waitingUntil: Date(timeIntervalSinceNow: 10), for: { $0.finished }) { control, _ in control.counts }
    }

    private func run() {
        var clients: [(descriptor: Int32, behaviour: any Behaviour)?] = Array(repeating: nil, count: count)
        while !control.withLock({ $0.stopRequested }) {
            var connections = 0, cutOff = 0
            for index in 0..<count {
                if clients[index] == nil {
                    guard let descriptor = LoopbackClient.connect(port: port) else { continue }
                    clients[index] = (descriptor, behaviour())
                    connections += 1
                }
                guard let client = clients[index], !client.behaviour.step(client.descriptor) else { continue }
                Socket.closeDescriptor(client.descriptor)
                clients[index] = nil
                cutOff += 1
            }
            let open = clients.filter { $0 != nil }.count
            control.withLock {
                $0.counts.open = open
                $0.counts.connections += connections
                $0.counts.cutOff += cutOff
            }
            usleep(useconds_t(interval * 1_000_000))
        }
        for case let client? in clients { Socket.closeDescriptor(client.descriptor) }
        control.withLock {
            $0.counts.open = 0
            $0.finished = true
        }
    }

    /// One more byte of a header that never ends at each step.
    private final class Trickling: Behaviour {
        static let header = Array("GET /trickle HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: ".utf8)
        var sent = 0
        var scratch = [UInt8](repeating: 0, count: 4096)

        func step(_ descriptor: Int32) -> Bool {
            let received = recv(descriptor, &scratch, scratch.count, 0)
            if received >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { return false }
            var byte = sent < Self.header.count ? Self.header[sent] : UInt8(ascii: "a")
            guard send(descriptor, &byte, 1, Socket.sendFlags) == 1 else { return false }
            sent += 1
            return true
        }
    }

    /// `opening`, then `more` at each step, never reading.
    private final class Flooding: Behaviour {
        let more: [UInt8]
        /// What is still to send, and from where.
        var pending: [UInt8]
        var offset = 0

        init(opening: [UInt8], more: [UInt8]) {
            pending = opening
            self.more = more
        }

        func step(_ descriptor: Int32) -> Bool {
            if offset >= pending.count {
                pending = more
                offset = 0
            }
            switch Socket.sendAvailable(descriptor, pending, from: offset) {
            case .complete: offset = pending.count
            case .partial(let sent): offset += sent
            case .failed: return false
            }
            return true
        }
    }
}

#if canImport(Glibc)
private let systemConnect = Glibc.connect
#else
private let systemConnect = Darwin.connect
#endif

/// Raises this process's open-file limit so a test can hold hundreds of loopback sockets.
func allowManyOpenFiles() {
    Socket.raiseOpenFileLimit(toAtLeast: 4096)
}
