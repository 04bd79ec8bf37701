import Foundation
@testable import PetSpotCLI
import PetSpotContractGroups
import PetSpotHTTPClient
import PetSpotJSON
import PetSpotModel
import PetSpotTestSupport
import Testing

/// `run`'s transport, both wire clients: sockets (`http://`) and URLSession (`https://`, here
/// driven over loopback HTTP), against the hostile server.
@Suite("run's HTTP transport", .serialized, .onOwnThreads)
struct HTTPTransportTests {
    static let wires: [RunnerHTTPTransport.Wire] = [.automatic, .urlSession]

    /// A transport to `server`. The default deadline is long: on CI's two cores, with the whole
    /// suite running, four loopback requests over URLSession once took more than 10 s.
    static func transport(_ server: HostileServer, wire: RunnerHTTPTransport.Wire, timeout: Double = 60) throws -> RunnerHTTPTransport {
        RunnerHTTPTransport(baseURL: try #require(URL(string: server.url)), timeout: timeout, maxResponseBytes: 1 << 20, wire: wire)
    }

    static func failure(_ transport: RunnerHTTPTransport, _ request: TransportRequest) async -> TransportError? {
        do {
            _ = try await transport.send(request)
            return nil
        } catch {
            return error
        }
    }

    @Test("an ordinary exchange: status, headers and body", arguments: wires)
    func ordinary(wire: RunnerHTTPTransport.Wire) async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let response = try await Self.transport(server, wire: wire).send(BackendTarget.getRequest("/api/health"))
        #expect(response.status == 200)
        #expect(try JSONValue.parse(response.body)["status"] == "ok")
        #expect(server.requests.first?.header("Accept-Encoding") == "identity")
    }

    @Test("a base URL's path prefixes every request", arguments: wires)
    func basePath(wire: RunnerHTTPTransport.Wire) async throws {
        let server = try HostileServer { _, _ in .redirect(status: 204, location: "/") }
        defer { server.stop() }
        let transport = RunnerHTTPTransport(
            baseURL: try #require(URL(string: server.url + "/staging/")), timeout: 60, maxResponseBytes: 1 << 20, wire: wire)
        _ = try await transport.send(BackendTarget.getRequest("/api/health?x=1"))
        #expect(server.requests.map(\.target) == ["/staging/api/health?x=1"])
    }

    @Test("a redirect to another origin is returned as the answer; nothing is sent there", arguments: wires)
    func crossOrigin(wire: RunnerHTTPTransport.Wire) async throws {
        let elsewhere = try HostileServer()
        defer { elsewhere.stop() }
        let other = elsewhere.url
        let server = try HostileServer { _, _ in .redirect(status: 302, location: "\(other)/api/health") }
        defer { server.stop() }
        let transport = try Self.transport(server, wire: wire)
        let response = try await transport.send(BackendTarget.adminDeleteRequest(AnnouncementPath(constant: "x"), authorization: "token"))
        #expect(response.status == 302)
        let get = try await transport.send(BackendTarget.getRequest("/api/health"))
        #expect(get.status == 302)
        #expect(elsewhere.requests.isEmpty)
        #expect(transport.redirectNotes.count == 2)
        #expect(transport.redirectNotes.allSatisfy { $0.contains("another origin (\(other))") })
    }

    @Test("a same-origin GET redirect is followed at most 3 times in a row", arguments: wires)
    func redirectLoop(wire: RunnerHTTPTransport.Wire) async throws {
        let server = try HostileServer { request, _ in .redirect(status: 302, location: request.target + "x") }
        defer { server.stop() }
        let transport = try Self.transport(server, wire: wire)
        let response = try await transport.send(BackendTarget.getRequest("/a"))
        #expect(response.status == 302)
        #expect(server.requests.map(\.target) == ["/a", "/ax", "/axx", "/axxx"])
        #expect(transport.redirectNotes.last?.contains("not followed after 3 redirects") == true)
    }

    @Test("an answer past the cap fails at once, whatever its framing", arguments: wires)
    func cap(wire: RunnerHTTPTransport.Wire) async throws {
        let framings: [HostileServer.Framing] = [.chunked, .close, .contentLength]
        // Over URLSession, libcurl reads ahead of the delegate: a smaller stream keeps the test fast.
        let size = wire == .urlSession ? 1 << 27 : 1 << 30
        let server = try HostileServer { _, index in .stream(bytes: size, framing: framings[index % 3]) }
        defer { server.stop() }
        let transport = try Self.transport(server, wire: wire)
        for _ in framings {
            let error = await Self.failure(transport, BackendTarget.getRequest("/big"))
            #expect(error?.description.contains("answer too large") == true, "\(String(describing: error))")
            #expect(error?.description.contains("--max-response-bytes 1048576") == true)
        }
        // "At once": the client hung up long before the end of each 1 GB stream (what the server
        // sent is what was read, plus socket buffers), judged by bytes, not by a clock. (Over
        // URLSession libcurl reads ahead of the delegate, so there only the refusal is checked.)
        if wire != .urlSession {
            let streams = server.endedStreams()
            #expect(streams.count == framings.count && streams.allSatisfy { $0.clientLeft && $0.bytes < size / 2 }, "\(streams)")
        }
    }

    @Test("a compressed answer the runner did not ask for is refused", arguments: wires)
    func compressed(wire: RunnerHTTPTransport.Wire) async throws {
        let server = try HostileServer { _, _ in .gzipBomb }
        defer { server.stop() }
        let error = await Self.failure(try Self.transport(server, wire: wire), BackendTarget.getRequest("/bomb"))
        #expect(error?.description.contains("Content-Encoding 'gzip'") == true, "\(String(describing: error))")
    }

    @Test("the timeout is a deadline: a trickle that would last 100 s fails at it", arguments: wires)
    func deadline(wire: RunnerHTTPTransport.Wire) async throws {
        let server = try HostileServer { _, _ in .trickle(interval: 0.1, count: 1000) }
        defer { server.stop() }
        let error = await Self.failure(try Self.transport(server, wire: wire, timeout: 1), BackendTarget.getRequest("/slow"))
        #expect(error == .timedOut)
        // A timeout per read would never fire (a byte comes every 0.1 s): the client left before
        // the 1000th byte (about the 10th), judged by what the server sent, not by a clock.
        let trickles = server.endedTrickles()
        #expect(trickles.count == 1 && trickles.allSatisfy { $0.clientLeft && $0.bytes < 1000 }, "\(trickles)")
    }

    @Test("a reset connection is a clear failure", arguments: wires)
    func reset(wire: RunnerHTTPTransport.Wire) async throws {
        let server = try HostileServer { _, _ in .reset }
        defer { server.stop() }
        let error = await Self.failure(try Self.transport(server, wire: wire), BackendTarget.getRequest("/reset"))
        #expect(error != nil && error != .timedOut)
    }

    @Test("a request the client cannot send names the header or byte at fault")
    func unsendable() throws {
        let endpoint = HTTPEndpoint(scheme: "http", host: "::1", port: 8080, target: "/x")
        #expect(endpoint.hostHeader == "[::1]:8080")
        let request = WireRequest(endpoint: endpoint, method: "GET", headers: [("X-Bad", "a\r\nInjected: 1")], body: Data(), deadline: .now)
        #expect(throws: TransportError.noConnection("cannot send: header X-Bad has a line break or NUL at byte 1 of its value")) {
            try SocketHTTPClient.serializeHead(request)
        }
        var spaced = request
        spaced.headers = []
        spaced.endpoint.target = "/a b"
        #expect(throws: TransportError.noConnection("cannot send: the request target has a space or control character at byte 2")) {
            try SocketHTTPClient.serializeHead(spaced)
        }
    }

    @Test("base URLs: scheme and host case-insensitive, IPv6 in brackets, credentials taken out; the rest refused with the reason", arguments: [
        ("HTTP://Example.COM:8080/api/", "http://example.com:8080/api/"),
        ("http://[::1]:8080", "http://[::1]:8080"),
        ("https://user:secret@staging.example.com", "https://staging.example.com"),
    ])
    func baseURLs(text: String, expected: String) throws {
        let base = try ParsedArguments(["--base-url", text], for: RunCommand.spec).resolve(environment: [:])[BackendTargetOptions.baseURL]
        #expect(base.url.absoluteString == expected)
        #expect(HTTPEndpoint(base.url) != nil)
        if text.contains("secret") { #expect(base.password == "secret") }
    }
}
