#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import PetSpotHTTP

@Suite("HTTPServer signal handling")
struct HTTPServerSignalTests {
    @Test("runUntilTerminated reports its port, serves, and returns after SIGTERM")
    func sigterm() throws {
        let server = HTTPServer { _ in HTTPResponse(status: 200) }
        let portBox = PortBox()
        let returned = DispatchSemaphore(value: 0)
        Thread {
            try? server.runUntilTerminated { port in portBox.set(port) }
            returned.signal()
        }.start()
        let port = try #require(portBox.wait())
        #expect(try RawHTTPConnection(port: port).send(HTTPRequest(method: "GET", target: "/"))?.status == 200)
        kill(getpid(), SIGTERM)
        #expect(returned.wait(timeout: .now() + 10) == .success)
        #expect(server.port == nil)
        #expect(throws: HTTPSocketError.self) { try RawHTTPConnection(port: port) }
    }
}

private final class PortBox: @unchecked Sendable {
    private let condition = NSCondition()
    private var port: Int?

    func set(_ value: Int) {
        condition.lock()
        port = value
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: 10)
        while port == nil && condition.wait(until: deadline) {}
        return port
    }
}
