#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import PetSpotHTTP

/// The built `petspot-contracts mock` in a child process: signals, descriptor exhaustion, and the
/// statuses its HTTP layer answers on its own. No test signals the test process itself.
@Suite("petspot-contracts mock as a process", .serialized)
struct MockProcessTests {
    private func startMock(_ arguments: [String], fileLimit: Int? = nil) throws -> (ChildProcess, Int) {
        let binary = try #require(ToolBinary.path, "petspot-contracts not found beside the test bundle")
        let child: ChildProcess
        if let fileLimit {
            child = try ChildProcess("/bin/sh", ["-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", binary, "mock", "--port", "0"] + arguments)
        } else {
            child = try ChildProcess(binary, ["mock", "--port", "0"] + arguments)
        }
        let port = try #require(child.listeningPort(), "no 'listening on http://127.0.0.1:PORT' line")
        return (child, port)
    }

    @Test("mock exits 0 promptly on SIGTERM and on SIGINT, with a keep-alive connection and a slow client open",
          arguments: [SIGTERM, SIGINT])
    func exitsCleanlyOnSignal(_ signalNumber: Int32) throws {
        let (child, port) = try startMock(["--header-timeout", "300", "--request-timeout", "300"])
        let keepAlive = try RawHTTPConnection(port: port, timeout: 5)
        #expect(try keepAlive.send(HTTPRequest(method: "GET", target: "/api/health"))?.status == 200)
        let slow = try #require(LoopbackClient.connect(port: port))
        defer { Socket.closeDescriptor(slow) }
        _ = Socket.sendAvailable(slow, Array("POST /api/v1/announcements HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{".utf8))
        child.send(signalNumber)
        // Waiting for the slow client would take its request timeout (300 s here); a prompt
        // exit comes long before, however loaded the machine.
        let exit = try #require(child.waitForExit(timeout: 120), "still running 120 s after signal \(signalNumber)")
        #expect(exit.status == 0 && exit.signal == nil, "status \(String(describing: exit.status)), signal \(String(describing: exit.signal))")
        #expect(try keepAlive.isClosedByPeer(waitSeconds: 1))
    }

    @Test("out of file descriptors, the mock backs off instead of spinning, and serves waiting clients once descriptors are free")
    func descriptorExhaustion() throws {
        // 64 descriptors in all; requests held half-sent are not idle, so none can be closed to make room.
        let (child, port) = try startMock(["--header-timeout", "30", "--request-timeout", "30", "--idle-timeout", "30"], fileLimit: 64)
        var holders: [Int32] = []
        defer { for descriptor in holders { Socket.closeDescriptor(descriptor) } }
        for _ in 0..<80 {
            guard let descriptor = LoopbackClient.connect(port: port) else { continue }
            _ = Socket.sendAvailable(descriptor, Array("GET /api/health HTTP/1.1\r\nHost: x\r\n".utf8))
            holders.append(descriptor)
        }
        // Its read time-out bounds how long the freed descriptors may take to serve it.
        let waiting = try RawHTTPConnection(port: port, timeout: 30)
        try waiting.write(Array("GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        // Two seconds at the descriptor limit, with clients waiting in the listen backlog. A
        // spinning acceptor burns a core meanwhile; backing off costs next to nothing.
        let cpuBefore = child.cpuSecondsSoFar()
        Thread.sleep(forTimeInterval: 2)
        if let cpuBefore, let cpuAfter = child.cpuSecondsSoFar() {
            #expect(cpuAfter - cpuBefore < 0.2, "the mock used \(cpuAfter - cpuBefore) s of CPU in 2 s at the descriptor limit")
        }
        #expect(!Socket.wait(waiting.descriptor, events: Int16(POLLIN), timeoutMilliseconds: 0),
                "the waiting client was answered before descriptors were freed: the limit was not reached")
        for descriptor in holders { Socket.closeDescriptor(descriptor) }
        holders.removeAll()
        let response = try waiting.readResponse()
        #expect(response?.status == 200)
        child.send(SIGTERM)
        let exit = try #require(child.waitForExit(timeout: 10))
        #expect(exit.status == 0)
        // Start-up included, the whole run stays well under the two seconds a spinning acceptor burns.
        #expect(exit.cpuSeconds < 0.8, "the mock used \(exit.cpuSeconds) s of CPU in all")
    }

    @Test("every status the HTTP layer answers on its own has its reason phrase and its own error code")
    func protocolErrorStatuses() throws {
        let (child, port) = try startMock(["--max-connections", "1", "--header-timeout", "0.3", "--faults", "delay=700ms:1"])
        defer { child.send(SIGTERM) }
        let expected: [Int: (reason: String, code: String)] = [
            400: ("Bad Request", "BAD_REQUEST"), 408: ("Request Timeout", "REQUEST_TIMEOUT"),
            413: ("Content Too Large", "PAYLOAD_TOO_LARGE"), 417: ("Expectation Failed", "EXPECTATION_FAILED"),
            431: ("Request Header Fields Too Large", "HEADERS_TOO_LARGE"), 503: ("Service Unavailable", "SERVICE_UNAVAILABLE"),
            505: ("HTTP Version Not Supported", "HTTP_VERSION_NOT_SUPPORTED"),
        ]
        #expect(Set(expected.keys) == Set(HTTPServer.protocolErrorStatuses))
        let probes: [(status: Int, request: String)] = [
            (400, "BROKEN\r\n\r\n"),
            (408, "GET /api/health HTTP/1.1\r\nHost: x\r\n"),
            (413, "POST /api/v1/announcements HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999\r\n\r\n"),
            (417, "GET /api/health HTTP/1.1\r\nHost: x\r\nExpect: tea\r\n\r\n"),
            (431, "GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 17_000) + "\r\n\r\n"),
            (505, "GET /api/health HTTP/2.0\r\nHost: x\r\n\r\n"),
        ]
        var answers: [Int: String] = [:]
        for probe in probes {
            let descriptor = try #require(LoopbackClient.connect(port: port))
            _ = Socket.sendAvailable(descriptor, Array(probe.request.utf8))
            answers[probe.status] = String(decoding: LoopbackClient.readUntilClosed(descriptor, timeout: 3).bytes, as: UTF8.self)
            Socket.closeDescriptor(descriptor)
        }
        // 503: the only connection slot is busy (the handler is delayed; the health route is
        // exempt from faults, so another route), so a newcomer is refused.
        let busy = try #require(LoopbackClient.connect(port: port))
        defer { Socket.closeDescriptor(busy) }
        _ = Socket.sendAvailable(busy, Array("GET /api/v1/announcements/missing HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        Thread.sleep(forTimeInterval: 0.2)
        let newcomer = try #require(LoopbackClient.connect(port: port))
        answers[503] = String(decoding: LoopbackClient.readUntilClosed(newcomer, timeout: 3).bytes, as: UTF8.self)
        Socket.closeDescriptor(newcomer)

        for status in HTTPServer.protocolErrorStatuses {
            let answer = try #require(answers[status], "no probe for \(status)")
            let (reason, code) = try #require(expected[status])
            let statusLine = answer.components(separatedBy: "\r\n").first ?? ""
            #expect(statusLine.hasPrefix("HTTP/1.1 \(status) "), "\(status): \(statusLine.debugDescription)")
            #expect(statusLine == "HTTP/1.1 \(status) \(reason)")
            let body = answer.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
            let envelope = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            let error = envelope?["error"] as? [String: Any]
            #expect(error?["code"] as? String == code, "\(status): \(body)")
        }
    }
}
