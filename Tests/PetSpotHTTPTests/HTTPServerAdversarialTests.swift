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

/// An echo server (200 "METHOD PATH BODYLENGTH"); `/block` waits until `gate` opens.
private func startEchoServer(_ configuration: HTTPServer.Configuration, gate: Locked<Bool> = Locked(true)) throws -> (HTTPServer, Int) {
    let server = HTTPServer(configuration: configuration) { request in
        if request.path == "/block" {
            _ = gate.withLock(waitingUntil: Date(timeIntervalSinceNow: 10), for: { $0 }) { _, opened in opened }
        }
        return HTTPResponse(status: 200, body: Array("\(request.method) \(request.path) \(request.body.count)".utf8))
    }
    return (server, try server.start())
}

@Suite("HTTPServer under hostile clients", .serialized, .onOwnThreads)
struct HTTPServerAdversarialTests {
    @Test("76 normal requests are served while 260 slow clients trickle bytes and reconnect whenever dropped")
    func slowClientSwarm() throws {
        allowManyOpenFiles()
        let (server, port) = try startEchoServer(HTTPServer.Configuration(
            maxConnections: 256, headerTimeout: 1, requestTimeout: 2, idleTimeout: 5))
        defer { server.stop() }
        let swarm = ClientSwarm.trickling(port: port, count: 260, interval: 0.1)
        swarm.start()
        defer { swarm.stop() }
        #expect(swarm.waitUntilOpen(255, timeout: 5), "the swarm could not connect: \(swarm.counts)")
        let statuses = Locked([Int]())
        // Spread over about 2.5 s, so the slow clients are cut off and reconnect meanwhile.
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<19 {
                Thread.sleep(forTimeInterval: 0.13)
                let status = (try? RawHTTPConnection(port: port, timeout: 3)
                    .send(HTTPRequest(method: "GET", target: "/normal/\(worker)/\(index)")))??.status ?? 0
                statuses.withLock { $0.append(status) }
            }
        }
        let counts = swarm.stop()
        let answered = statuses.withLock { $0 }
        // A server that blocks everyone (the old one did for 30 s) fails these requests at their
        // 3 s timeout: starvation shows as statuses other than 200, with no wall-clock bound.
        #expect(answered.filter { $0 == 200 }.count == 76, "statuses other than 200: \(answered.filter { $0 != 200 })")
        #expect(counts.connections > 260, "the slow clients were never cut off, so never reconnected: \(counts)")
    }

    @Test("256 idle keep-alive connections at the limit do not keep a new client out: the longest-idle one makes room")
    func idleConnectionsMakeRoom() throws {
        allowManyOpenFiles()
        let (server, port) = try startEchoServer(HTTPServer.Configuration(maxConnections: 256, idleTimeout: 30))
        defer { server.stop() }
        var idle: [RawHTTPConnection] = []
        for index in 0..<256 {
            let connection = try RawHTTPConnection(port: port, timeout: 3)
            // Half made a request and kept the connection; half never sent a byte.
            if index % 2 == 0 { #expect(try connection.send(HTTPRequest(method: "GET", target: "/\(index)"))?.status == 200) }
            idle.append(connection)
        }
        // The server's loop may wait seconds for a core when the whole test suite runs at once.
        #expect(eventually { server.openConnectionCount == 256 }, "open: \(server.openConnectionCount)")
        var newcomers: [RawHTTPConnection] = []
        for attempt in 0..<3 {
            // Served at once, not after the 30 s idle timeout: within its own 3 s read timeout.
            let newcomer = try RawHTTPConnection(port: port, timeout: 3)
            #expect(try newcomer.send(HTTPRequest(method: "GET", target: "/new/\(attempt)"))?.status == 200)
            newcomers.append(newcomer)
        }
        // Each newcomer closed one of the connections idle the longest (the first ones opened).
        Thread.sleep(forTimeInterval: 0.1)
        let closed = idle.indices.filter { Socket.wait(idle[$0].descriptor, events: Int16(POLLIN), timeoutMilliseconds: 0) }
        #expect(closed.count == 3 && closed.allSatisfy { $0 < 8 }, "closed: \(closed)")
        #expect(try closed.allSatisfy { try idle[$0].isClosedByPeer(waitSeconds: 1) })
        #expect(server.openConnectionCount == 256)
    }

    @Test("a trickling client is cut off at its deadline, whatever it sends; a slow body within the deadline is served")
    func deadlinesCannotBeExtended() throws {
        let (server, port) = try startEchoServer(HTTPServer.Configuration(headerTimeout: 0.5, requestTimeout: 1.5, idleTimeout: 10))
        defer { server.stop() }
        let results = Locked([String: LoopbackClient.TrickleResult]())
        let cases: [(name: String, first: String, trickle: String, interval: Double)] = [
            ("header", "GET /h HTTP/1.1\r\nHost: x\r\nX-Slow: ", "a", 0.05),
            ("blank lines", "\r\n", "\r\n", 0.05),
            ("body", "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n", "b", 0.05),
            ("chunked body", "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", "1\r\nc\r\n", 0.02),
            ("slow body in time", "POST /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 8\r\n\r\n", "12345678", 0.12),
        ]
        DispatchQueue.concurrentPerform(iterations: cases.count) { index in
            let testCase = cases[index]
            let result = LoopbackClient.trickle(port: port, first: Array(testCase.first.utf8), then: Array(testCase.trickle.utf8),
                                                every: testCase.interval, giveUpAfter: 4)
            if let result { results.withLock { $0[testCase.name] = result } }
        }
        let seen = results.withLock { $0 }
        for name in ["header", "blank lines"] {
            let result = try #require(seen[name], "\(name): could not connect")
            #expect(result.status == 408, "\(name): \(result.answer.debugDescription)")
            #expect(result.answer.contains("header section not complete within 0.5 s"), "\(name)")
            #expect(result.closedByServer && (0.45...1.3).contains(result.seconds), "\(name): cut off after \(result.seconds) s")
        }
        for name in ["body", "chunked body"] {
            let result = try #require(seen[name], "\(name): could not connect")
            #expect(result.status == 408, "\(name): \(result.answer.debugDescription)")
            #expect(result.answer.contains("request not complete within 1.5 s"), "\(name)")
            #expect(result.closedByServer && (1.45...2.3).contains(result.seconds), "\(name): cut off after \(result.seconds) s")
        }
        let inTime = try #require(seen["slow body in time"])
        #expect(inTime.status == 200 && inTime.answer.hasSuffix("POST /ok 8"), "\(inTime.answer.debugDescription)")
    }

    @Test("when every connection has a request being handled, a newcomer is answered 503; once they finish, clients are served")
    func busySlotsRefuseWith503() throws {
        let gate = Locked(false)
        let (server, port) = try startEchoServer(HTTPServer.Configuration(maxConnections: 2), gate: gate)
        defer { server.stop() }
        let blocked = Locked([Int]())
        let group = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                let status = (try? RawHTTPConnection(port: port, timeout: 10).send(HTTPRequest(method: "GET", target: "/block")))??.status
                blocked.withLock { $0.append(status ?? 0) }
            }
        }
        #expect(eventually { server.handledConnectionCount == 2 })
        let refused = try RawHTTPConnection(port: port, timeout: 3)
        let refusal = try #require(try refused.readResponse())
        #expect(refusal.status == 503)
        #expect(refusal.bodyText.contains("busy"))
        gate.withLock { $0 = true }
        #expect(group.wait(timeout: .now() + 5) == .success)
        #expect(blocked.withLock { $0 } == [200, 200])
        #expect(try RawHTTPConnection(port: port).send(HTTPRequest(method: "GET", target: "/after"))?.status == 200)
    }

    @Test("a client that pipelines requests but never reads is disconnected at the write deadline; others are served meanwhile")
    func nonReadingClient() throws {
        let server = HTTPServer(configuration: HTTPServer.Configuration(writeTimeout: 0.5)) { request in
            HTTPResponse(status: 200, body: [UInt8](repeating: 0x61, count: request.path == "/big" ? 256 * 1024 : 2))
        }
        let port = try server.start()
        defer { server.stop() }
        let hog = try #require(LoopbackClient.connect(port: port))
        defer { Socket.closeDescriptor(hog) }
        let requests = [UInt8](Array(String(repeating: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", count: 64).utf8))
        _ = Socket.sendAvailable(hog, requests)
        #expect(try RawHTTPConnection(port: port, timeout: 2).send(HTTPRequest(method: "GET", target: "/small"))?.status == 200)
        // The hog's socket buffers fill; at the write deadline the server gives up on it (a
        // server without one would keep it open for ever).
        #expect(eventually { server.openConnectionCount == 0 }, "the hog is still connected")
    }
}
