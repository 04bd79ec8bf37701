#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpotConcurrency
import PetSpotTestSupport
import Testing
@testable import PetSpotHTTP

/// Sends all of `bytes` on a non-blocking socket, waiting for room at most `timeout` seconds in
/// all; returns the bytes sent.
private func sendWithin(_ timeout: Double, _ descriptor: Int32, _ bytes: [UInt8]) -> Int {
    let deadline = Socket.monotonicMilliseconds() + Int64(timeout * 1000)
    var offset = 0
    while offset < bytes.count {
        switch Socket.sendAvailable(descriptor, bytes, from: offset) {
        case .complete: return bytes.count
        case .failed: return offset
        case .partial(let sent): offset += sent
        }
        let remaining = deadline - Socket.monotonicMilliseconds()
        if remaining <= 0 { return offset }
        _ = Socket.wait(descriptor, events: Int16(POLLOUT), timeoutMilliseconds: Int(min(remaining, 100)))
    }
    return offset
}

/// `count` pipelined `GET target` requests.
private func pipelined(_ count: Int, _ target: String) -> [UInt8] {
    Array(String(repeating: "GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n", count: count).utf8)
}

/// The HTTP server at its limits, in miniature: bodies over a route's limit, clients that do not
/// read their answers, the descriptor budget. Loopback only; every wait has a generous hang guard,
/// and the checks count events.
@Suite("HTTPServer at its limits", .serialized, .onOwnThreads)
struct HTTPServerLimitsTests {
    @Test("the connection budget follows the descriptor limit: fewer slots under a low limit, never more than configured")
    func connectionBudget() {
        let low = ConnectionBudget(configuredConnections: 512, descriptorLimit: 64)
        #expect(low.connections == 42 && low.waitingAdmissions == 6 && low.isLowered)
        let ample = ConnectionBudget(configuredConnections: 512, descriptorLimit: 20_000)
        #expect(ample.connections == 512 && ample.waitingAdmissions == 64 && !ample.isLowered)
        let needed = ConnectionBudget.descriptorsNeeded(forConnections: 512)
        #expect(!ConnectionBudget(configuredConnections: 512, descriptorLimit: needed).isLowered)
        #expect(ConnectionBudget(configuredConnections: 512, descriptorLimit: needed - 1).isLowered)
        #expect(ConnectionBudget(configuredConnections: 512, descriptorLimit: .max).connections == 512)
        #expect(ConnectionBudget(configuredConnections: 8, descriptorLimit: 3).connections == 1)
        let overdrawn = (19...2000).filter { limit in
            let budget = ConnectionBudget(configuredConnections: 1000, descriptorLimit: limit)
            return budget.connections + budget.waitingAdmissions + ConnectionBudget.reservedDescriptors > limit
                || budget.connections < 1 || budget.waitingAdmissions < 1
        }
        #expect(overdrawn.isEmpty, "budgets over their limit at \(overdrawn.count) limits, from \(overdrawn.first ?? 0)")
    }

    @Test("a body announced over the hook's limit is not read: the handler answers the head at once and the connection closes")
    func bodyOverLimitIsNotRead() throws {
        let hookCalls = Locked(0)
        let server = HTTPServer(configuration: HTTPServer.Configuration(bodyLimit: { head in
            hookCalls.withLock { $0 += 1 }
            return head.path == "/limited" ? 1000 : nil
        })) { request in
            let text = request.isBodyOverLimit ? "over \(request.body.count)" : "read \(request.body.count)"
            return HTTPResponse(status: request.isBodyOverLimit ? 413 : 200, body: Array(text.utf8))
        }
        let port = try server.start()
        defer { server.stop() }
        func answer(_ head: String, then body: [UInt8] = []) throws -> (text: String, closed: Bool) {
            let descriptor = try #require(LoopbackClient.connect(port: port))
            defer { Socket.closeDescriptor(descriptor) }
            _ = Socket.sendAvailable(descriptor, Array(head.utf8) + body)
            // Without the hook the server waits for the rest of the body (30 s request timeout).
            let (bytes, closed) = LoopbackClient.readUntilClosed(descriptor, timeout: 10)
            return (String(decoding: bytes, as: UTF8.self), closed)
        }
        // Ten megabytes announced, none sent: answered from the head alone.
        let announced = try answer("POST /limited HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n")
        #expect(announced.text.hasPrefix("HTTP/1.1 413 ") && announced.text.hasSuffix("over 0"), "\(announced.text.debugDescription)")
        #expect(announced.closed && announced.text.contains("Connection: close"))
        // Expect: 100-continue gets the final answer instead of an invitation to send.
        let expecting = try answer("POST /limited HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n")
        #expect(expecting.text.hasPrefix("HTTP/1.1 413 ") && !expecting.text.contains("100 Continue"), "\(expecting.text.debugDescription)")
        // Chunked: 1000 bytes are within the limit; the next chunk passes it, and no last chunk is awaited.
        let chunks = Array("3e8\r\n".utf8) + [UInt8](repeating: 0x61, count: 1000) + Array("\r\n1\r\nb\r\n".utf8)
        let chunked = try answer("POST /limited HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", then: chunks)
        #expect(chunked.text.hasPrefix("HTTP/1.1 413 ") && chunked.closed, "\(chunked.text.debugDescription)")
        // At the limit: read and answered, and the connection stays open for the next request.
        let keepAlive = try RawHTTPConnection(port: port, timeout: 5)
        let within = try keepAlive.send(HTTPRequest(method: "POST", target: "/limited", body: [UInt8](repeating: 0x61, count: 1000)))
        #expect(within?.status == 200 && within?.bodyText == "read 1000")
        #expect(try keepAlive.send(HTTPRequest(method: "GET", target: "/after"))?.bodyText == "read 0")
        // The hook said nothing for this route: the server's own 25 MiB limit answers.
        let unlimited = try answer("POST /other HTTP/1.1\r\nHost: x\r\nContent-Length: 30000000\r\n\r\n")
        #expect(unlimited.text.hasPrefix("HTTP/1.1 413 ") && unlimited.text.contains("exceeds the limit"), "\(unlimited.text.debugDescription)")
        // Consulted for requests with a body only: five above, not the GET.
        #expect(hookCalls.withLock { $0 } == 5)
    }

    @Test("a client that pipelines requests and never reads is paused after a bounded number of answers, then closed; a reading one gets every answer")
    func nonReadingPipelinerIsPaused() throws {
        let handled = Locked(0)
        let body = [UInt8](repeating: 0x61, count: 1000)
        let small = HTTPResponse(status: 200, body: [0x6F, 0x6B])
        let server = HTTPServer(configuration: HTTPServer.Configuration(writeTimeout: 1)) { request in
            handled.withLock { $0 += 1 }
            return request.path == "/p" ? HTTPResponse(status: 200, body: body) : small
        }
        let port = try server.start()
        defer { server.stop() }
        let requestCount = 20_000
        let hog = try #require(LoopbackClient.connect(port: port))
        defer { Socket.closeDescriptor(hog) }
        _ = sendWithin(3, hog, pipelined(requestCount, "/p"))
        // Wait until the server stops answering (the count holds still for half a second).
        var last = -1
        var steady = 0
        let deadline = Date(timeIntervalSinceNow: 20)
        while steady < 5 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            let now = handled.withLock { $0 }
            steady = now == last ? steady + 1 : 0
            last = now
        }
        // About 200 answers (64 KiB unsent plus the client's receive buffer); without the bound the
        // kernel queues megabytes, some 4000 answers here.
        let answered = handled.withLock { $0 }
        #expect(answered < 1000, "\(answered) answers produced for a client that reads none")
        #expect(answered > 0)
        // Its answer unsent for the write timeout (1 s), it is disconnected.
        #expect(eventually { server.openConnectionCount == 0 }, "open: \(server.openConnectionCount)")

        // As many requests from a client that reads as it sends: every answer arrives.
        let answerSize = small.serialized().count
        let reader = try #require(LoopbackClient.connect(port: port))
        defer { Socket.closeDescriptor(reader) }
        let sender = Thread { _ = sendWithin(30, reader, pipelined(requestCount, "/q")) }
        sender.start()
        let (bytes, _) = readUntil(reader, count: requestCount * answerSize, timeout: 60)
        #expect(bytes == requestCount * answerSize, "read \(bytes) of \(requestCount * answerSize) bytes")
    }

    @Test("a pipelined request waits behind other clients' requests when every handler thread is busy")
    func pipelinerTakesTurns() throws {
        let gate = Locked(false)
        let gateEntered = Locked(false)
        let order = Locked([String]())
        let server = HTTPServer(configuration: HTTPServer.Configuration(maxConcurrentRequests: 1)) { request in
            if request.path == "/gate" {
                gateEntered.withLock { $0 = true }
                _ = gate.withLock(waitingUntil: Date(timeIntervalSinceNow: 10), for: { $0 }) { _, opened in opened }
            }
            order.withLock { $0.append(request.path) }
            return HTTPResponse(status: 200, body: [0x6F, 0x6B])
        }
        let port = try server.start()
        defer { server.stop() }
        let hog = try #require(LoopbackClient.connect(port: port))
        defer { Socket.closeDescriptor(hog) }
        // The hog reads nothing; 2000 small answers fit the socket buffers, so only turn-taking lets the probe in early.
        _ = sendWithin(3, hog, pipelined(1, "/gate") + pipelined(2000, "/p"))
        #expect(eventually { gateEntered.withLock { $0 } })
        let probeStatus = Locked<Int?>(nil)
        let probe = Thread {
            let status = (try? RawHTTPConnection(port: port, timeout: 20).send(HTTPRequest(method: "GET", target: "/probe")))??.status
            probeStatus.withLock { $0 = status ?? 0 }
        }
        probe.start()
        // The probe's request waits for the one handler thread, busy at the gate.
        #expect(eventually { server.queuedRequestCount == 1 })
        gate.withLock { $0 = true }
        #expect(eventually { probeStatus.withLock { $0 } != nil })
        #expect(probeStatus.withLock { $0 } == 200)
        let served = order.withLock { $0 }
        let position = try #require(served.firstIndex(of: "/probe"), "the probe was not served")
        // Only the hog's request at the gate was ahead of it.
        #expect(position == 1, "the probe was served after \(position) of the hog's requests")
    }

    @Test("at the connection limit, a client that has left its answer unread a while gives its slot to a newcomer")
    func stalledReaderMakesRoom() throws {
        let body = [UInt8](repeating: 0x61, count: 64 * 1024)
        let server = HTTPServer(configuration: HTTPServer.Configuration(maxConnections: 2, writeTimeout: 30)) { request in
            HTTPResponse(status: 200, body: request.path == "/big" ? body : [0x6F, 0x6B])
        }
        let port = try server.start()
        defer { server.stop() }
        var hogs: [Int32] = []
        defer { for hog in hogs { Socket.closeDescriptor(hog) } }
        for _ in 0..<2 {
            let hog = try #require(LoopbackClient.connect(port: port))
            _ = sendWithin(3, hog, pipelined(256, "/big"))
            hogs.append(hog)
        }
        #expect(eventually { server.openConnectionCount == 2 })
        // Both have megabytes of answers pending and read none; more than the 200 ms grace passes.
        Thread.sleep(forTimeInterval: 0.5)
        let newcomer = try RawHTTPConnection(port: port, timeout: 10)
        #expect(try newcomer.send(HTTPRequest(method: "GET", target: "/small"))?.status == 200)
        #expect(server.openConnectionCount == 2)
    }
}

/// Reads from `descriptor` until `count` bytes arrived, the peer closed, or `timeout` seconds
/// passed; returns the bytes read (counted, not kept).
private func readUntil(_ descriptor: Int32, count: Int, timeout: Double) -> (bytes: Int, closed: Bool) {
    let deadline = Socket.monotonicMilliseconds() + Int64(timeout * 1000)
    var total = 0
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while total < count {
        let received = recv(descriptor, &chunk, chunk.count, 0)
        if received > 0 {
            total += received
            continue
        }
        if received == 0 { return (total, true) }
        guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return (total, true) }
        let remaining = deadline - Socket.monotonicMilliseconds()
        if remaining <= 0 { return (total, false) }
        _ = Socket.wait(descriptor, events: Int16(POLLIN), timeoutMilliseconds: Int(min(remaining, 500)))
    }
    return (total, false)
}
