#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpotProcess
import PetSpotTestSupport
import Testing
@testable import PetSpotHTTP

/// The built `petspot-contracts mock` in a child process: signals, descriptor exhaustion, and the
/// statuses its HTTP layer answers on its own. No test signals the test process itself.
@Suite("petspot-contracts mock as a process", .serialized, .onOwnThreads)
struct MockProcessTests {
    private func startMock(_ arguments: [String], fileLimit: Int? = nil) throws -> (ChildProcess, Int) {
        let binary = try #require(ToolBinary.path, "petspot-contracts not found beside the test bundle")
        let child: ChildProcess
        if let fileLimit {
            child = try ChildProcess("/bin/sh", ["-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", binary, "mock", "--port", "0"] + arguments,
                                     output: .pipe, error: .pipe)
        } else {
            child = try ChildProcess(binary, ["mock", "--port", "0"] + arguments, output: .pipe)
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

    @Test("at a 64-descriptor limit the mock holds fewer connections and says so once; slow senders make room for a new client, with no spinning")
    func lowDescriptorLimit() throws {
        allowManyOpenFiles()
        let (child, port) = try startMock(["--header-timeout", "30", "--request-timeout", "30", "--idle-timeout", "30"], fileLimit: 64)
        let warning = child.readErrorLine(timeout: 300) ?? ""
        #expect(warning.hasPrefix("warning: the open-file limit is 64 descriptors, so the mock holds at most 42 connections at once instead of 512"),
                "\(warning.debugDescription)")
        #expect(warning.contains("ulimit -n 592"))
        #expect(child.readErrorLine(timeout: 0.2) == nil, "more than one line on standard error")
        // 80 requests held half-sent: more than the descriptors allow. None is idle; each newcomer
        // past the slots evicts the slowest sender (the oldest), so the process never runs out.
        var holders: [Int32] = []
        defer { for descriptor in holders { Socket.closeDescriptor(descriptor) } }
        for _ in 0..<80 {
            guard let descriptor = LoopbackClient.connect(port: port) else { continue }
            _ = Socket.sendAvailable(descriptor, Array("GET /api/health HTTP/1.1\r\nHost: x\r\n".utf8))
            holders.append(descriptor)
        }
        #expect(holders.count == 80)
        let cpuBefore = child.cpuSecondsSoFar()
        let waiting = try RawHTTPConnection(port: port, timeout: 10)
        try waiting.write(Array("GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        #expect(try waiting.readResponse()?.status == 200, "a new client was not served while slow senders held the slots")
        // Each holder either still holds a slot or was answered 503 and closed.
        var evicted = 0
        for descriptor in holders where Socket.wait(descriptor, events: Int16(POLLIN), timeoutMilliseconds: 0) {
            let answer = String(decoding: LoopbackClient.readUntilClosed(descriptor, timeout: 3).bytes, as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 503 ") && answer.contains("slowest"), "\(answer.debugDescription)")
            evicted += 1
        }
        #expect(holders.count - evicted <= 42, "\(holders.count - evicted) slow senders still hold connections")
        // A second at the limit with every slot held: a spinning acceptor would burn a core.
        Thread.sleep(forTimeInterval: 1)
        if let cpuBefore, let cpuAfter = child.cpuSecondsSoFar() {
            #expect(cpuAfter - cpuBefore < 0.3, "the mock used \(cpuAfter - cpuBefore) s of CPU at the limit")
        }
        child.send(SIGTERM)
        let exit = try #require(child.waitForExit(timeout: 120), "still running 120 s after SIGTERM")
        #expect(exit.status == 0)
    }

    @Test("at a 64-descriptor limit the mock answers every probe while 200 hostile clients hold connections")
    func hostileClientsAtLowDescriptorLimit() throws {
        allowManyOpenFiles()
        let (child, port) = try startMock([], fileLimit: 64)
        defer { child.send(SIGTERM) }
        // 100 slow senders, 50 clients pipelining list requests without reading the answers, 50
        // creates announcing 50 MB and sending it: each reconnects whenever the mock closes it.
        let slow = ClientSwarm.trickling(port: port, count: 100, interval: 0.05)
        let list = Array("GET /api/v1/announcements HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        let pipelining = ClientSwarm.flooding(port: port, count: 50, opening: Array([[UInt8]](repeating: list, count: 2000).joined()),
                                              more: list, interval: 0.05)
        let head = "POST /api/v1/announcements HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n"
        let announcing = ClientSwarm.flooding(port: port, count: 50, opening: Array(head.utf8) + [UInt8](repeating: 0x20, count: 64 * 1024),
                                              more: [UInt8](repeating: 0x20, count: 1024), interval: 0.05)
        slow.start()
        pipelining.start()
        announcing.start()
        defer {
            slow.stop()
            pipelining.stop()
            announcing.stop()
        }
        #expect(slow.waitUntilOpen(90, timeout: 10), "the slow senders could not connect: \(slow.counts)")
        // The slots are full and churning: each kind has been cut off and has come back.
        #expect(pipelining.waitUntilCutOff(50, timeout: 30), "pipelining clients: \(pipelining.counts)")
        #expect(announcing.waitUntilCutOff(50, timeout: 30), "announcing clients: \(announcing.counts)")
        let cutOff = Date(timeIntervalSinceNow: 30)
        while slow.counts.cutOff < 100 && Date() < cutOff { Thread.sleep(forTimeInterval: 0.05) }
        #expect(slow.counts.cutOff >= 100, "the slow senders are not cut off: \(slow.counts)")
        var failures: [String] = []
        for index in 0..<20 {
            let target = index % 2 == 0 ? "/api/health" : "/api/v1/announcements"
            let response = (try? RawHTTPConnection(port: port, timeout: 10).send(HTTPRequest(method: "GET", target: target))) ?? nil
            if response?.status != 200 { failures.append("probe \(index): \(response.map { "\($0.status) \($0.bodyText)" } ?? "no answer")") }
        }
        #expect(failures.isEmpty, "\(failures)")
        // A create announcing a body over 100 KB is refused from its head, whatever follows.
        let announcer = try RawHTTPConnection(port: port, timeout: 10)
        try announcer.write(Array(head.utf8))
        #expect(try announcer.readResponse()?.status == 413)
    }

    @Test("150 clients that request a large list and never read it: every probe is answered, and memory stays near a normal run's")
    func unreadListAnswers() throws {
        allowManyOpenFiles()
        let (child, port) = try startMock([])
        defer { child.send(SIGTERM) }
        // 200 announcements with photos and 20 KB descriptions: a list answer of about 4 MB.
        let filler = try RawHTTPConnection(port: port, timeout: 30)
        let description = String(repeating: "d", count: 20_000)
        let photo = Array("--b\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.jpg\"\r\n\r\n".utf8)
            + [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 40) + Array("\r\n--b--\r\n".utf8)
        var someID = ""
        for index in 0..<200 {
            let create = #"{"species":"DOG","sex":"MALE","lastSeenDate":"2025-06-01","status":"MISSING","locationLatitude":52.2,"#
                + #""locationLongitude":21.0,"email":"owner@example.com","petName":"Pet \#(index)","description":"\#(description)"}"#
            let created = try #require(try filler.send(HTTPRequest(method: "POST", target: "/api/v1/announcements",
                                                                   headers: ["Content-Type": "application/json"], body: Array(create.utf8))))
            let answer = try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any]
            let id = try #require(answer?["id"] as? String), password = try #require(answer?["managementPassword"] as? String)
            let credentials = "Basic " + Data("\(id):\(password)".utf8).base64EncodedString()
            let uploaded = try filler.send(HTTPRequest(method: "POST", target: "/api/v1/announcements/\(id)/photos", headers: [
                "Content-Type": "multipart/form-data; boundary=b", "Authorization": credentials,
            ], body: photo))
            #expect(uploaded?.status == 201)
            someID = id
        }
        // A normal run: one client reads the list. Its peak memory is the baseline.
        let answerSize = try #require(try filler.send(HTTPRequest(method: "GET", target: "/api/v1/announcements"))?.body.count)
        #expect(answerSize > 4_000_000)
        let baseline = Self.peakResidentBytes(of: child.pid)
        // 150 clients request the list and never read; meanwhile health probes and a small
        // request are answered, every one.
        var hostile: [Int32] = []
        defer { for descriptor in hostile { Socket.closeDescriptor(descriptor) } }
        for _ in 0..<150 {
            let descriptor = try #require(LoopbackClient.connect(port: port))
            hostile.append(descriptor)
            _ = Socket.sendAvailable(descriptor, Array("GET /api/v1/announcements HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        }
        var answered = 0
        for index in 0..<18 {
            let target = index == 9 ? "/api/v1/announcements/\(someID)" : "/api/health"
            if (try? RawHTTPConnection(port: port, timeout: 10).send(HTTPRequest(method: "GET", target: target)))??.status == 200 {
                answered += 1
            }
        }
        #expect(answered == 18, "\(answered) of 18 probes answered while 150 clients held unread list answers")
        // Each list answer was started (the client has bytes to read), then left unread.
        var started = 0
        for descriptor in hostile where Socket.wait(descriptor, events: Int16(POLLIN), timeoutMilliseconds: 60_000) { started += 1 }
        #expect(started == 150, "\(started) of 150 list answers started")
        // The unread answers share the stored rows: no copy of the answer per client.
        if let baseline, let peak = Self.peakResidentBytes(of: child.pid) {
            #expect(peak <= baseline + 4 * answerSize, "peak \(peak) bytes; a normal run's \(baseline), answers of \(answerSize)")
        }
    }

    /// The peak resident memory of process `pid` (`VmHWM`), or `nil` where `/proc` does not tell.
    private static func peakResidentBytes(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
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
            // A gzip body counts after inflating, so the mock sets no limit of its own: the HTTP layer's answers.
            (413, "POST /api/v1/announcements HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: 999999999\r\n\r\n"),
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
