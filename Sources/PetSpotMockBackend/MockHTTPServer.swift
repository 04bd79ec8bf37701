import Foundation
import PetSpotHTTP
import PetSpotJSON
import PetSpotContractKit

/// What `petspot-contracts mock` was asked for, already parsed.
public struct MockServerOptions: Sendable {
    /// The IPv4 address to bind (loopback by default; the project never binds anything else).
    public var host: String
    /// The port; 0 lets the OS pick a free one.
    public var port: Int
    /// The backend profile.
    public var profile: BackendProfile
    /// The fault plan (see ``FaultPlan/init(parsing:)``).
    public var faults: FaultPlan
    /// The admin token the delete routes accept.
    public var adminToken: String
    /// Connections open at once. At the limit a new client takes the slot of the longest-idle
    /// connection, else of the slowest sender (answered 503); when every connection has a request
    /// being handled, the new client is answered 503. Under a low open-file limit the server
    /// holds fewer (see ``ConnectionBudget``; ``MockHTTPServer/runMockServer(options:)`` warns).
    public var maxConnections: Int
    /// Seconds from a request's first byte until its header section must be complete (then 408);
    /// capped at ``requestTimeout``.
    public var headerTimeout: Double
    /// Seconds from a request's first byte until the whole request, body included, must have
    /// arrived (then 408). Sending slowly does not extend it.
    public var requestTimeout: Double
    /// Seconds a keep-alive connection with no request in progress stays open.
    public var idleTimeout: Double
    /// The backend defects to plant (see ``MockDefect``); none by default.
    public var defects: Set<MockDefect> = []
    /// The contract changes to serve (see ``MockChange``); none by default.
    public var changes: Set<MockChange> = []
    /// Whether the store starts with production's 8 sample announcements (``SampleRows``);
    /// `false` by default (`petspot-contracts mock --profile production` turns it on, as
    /// production reseeds them on every start).
    public var sampleRows = false

    /// Options; defaults: 127.0.0.1, port 0, strict, no faults, the default admin token,
    /// 512 connections, headers within 10 s and requests within 30 s of their first byte, 30 s idle.
    public init(
        host: String = "127.0.0.1", port: Int = 0, profile: BackendProfile = .strict, faults: FaultPlan = .none,
        adminToken: String = MockBackend.defaultAdminToken, requestTimeout: Double = 30, idleTimeout: Double = 30,
        maxConnections: Int = 512, headerTimeout: Double = 10
    ) {
        self.host = host
        self.port = port
        self.profile = profile
        self.faults = faults
        self.adminToken = adminToken
        self.maxConnections = maxConnections
        self.headerTimeout = headerTimeout
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
    }
}

/// A ``MockBackend`` served over HTTP/1.1 by an ``HTTPServer`` on loopback.
///
/// Protocol errors the server detects itself (malformed requests, oversized headers or bodies,
/// timeouts, too many connections) are answered with the same error envelope as the backend's
/// own errors. An injected dropped connection closes the socket without an answer.
///
/// ```swift
/// let server = MockHTTPServer(options: MockServerOptions(port: 0))
/// let port = try server.start()
/// // ... http://127.0.0.1:\(port)/api/health ...
/// server.stop()
/// ```
public final class MockHTTPServer: Sendable {
    /// The backend answering the requests (inspect its store in tests).
    public let backend: MockBackend
    /// The options the server was created with.
    public let options: MockServerOptions
    private let server: HTTPServer

    /// A server for `options`, not yet listening.
    /// - Parameter clock: the backend's clock (defaults to the system clock).
    public init(options: MockServerOptions, clock: @escaping @Sendable () -> Date = { Date() }) {
        let backend = MockBackend(profile: options.profile, adminToken: options.adminToken, faults: options.faults,
                                  defects: options.defects, changes: options.changes, clock: clock, sampleRows: options.sampleRows)
        self.backend = backend
        self.options = options
        let configuration = HTTPServer.Configuration(
            host: options.host, port: options.port, maxConnections: options.maxConnections,
            headerTimeout: options.headerTimeout, requestTimeout: options.requestTimeout, idleTimeout: options.idleTimeout,
            errorResponse: MockHTTPServer.envelope(for:), bodyLimit: { head in backend.maxBodyBytes(forHead: head) },
            minimumBodyLimit: RequestBodyReader.maxJSONBodyBytes)
        server = HTTPServer(configuration: configuration) { request throws(MockTransportError) in
            try backend.handle(request)
        }
    }

    /// Starts listening.
    /// - Returns: the port (the OS's choice when the options say 0).
    /// - Throws: ``HTTPSocketError`` when the address cannot be bound.
    @discardableResult
    public func start() throws(HTTPSocketError) -> Int { try server.start() }

    /// Stops accepting and closes every connection (requests in progress finish first).
    public func stop() { server.stop() }

    /// The port listened on, once started.
    public var port: Int? { server.port }

    /// The connections held at once and the descriptor limit they were fitted to, once started.
    public var connectionBudget: ConnectionBudget? { server.connectionBudget }

    /// Serves `options` until SIGINT or SIGTERM: prints `listening on http://HOST:PORT` (flushed)
    /// when ready, then blocks; returns after a clean stop, with the signal dispositions as they
    /// were. First raises the process's soft open-file limit (as far as the hard limit allows)
    /// so that ``MockServerOptions/maxConnections`` connections fit; when they do not, the
    /// server holds fewer (see ``ConnectionBudget``) and one warning line says so on standard
    /// error, before the ready line.
    /// - Throws: ``HTTPSocketError`` when the server cannot start.
    public static func runMockServer(options: MockServerOptions) throws(HTTPSocketError) {
        Socket.raiseOpenFileLimit(toAtLeast: ConnectionBudget.descriptorsNeeded(forConnections: options.maxConnections))
        let mock = MockHTTPServer(options: options)
        try mock.server.runUntilTerminated { port in
            if let budget = mock.connectionBudget, let warning = lowConnectionBudgetWarning(budget) {
                FileHandle.standardError.write(Data((warning + "\n").utf8))
            }
            FileHandle.standardOutput.write(Data("listening on http://\(options.host):\(port)\n".utf8))
        }
    }

    /// The one-line warning for a budget the descriptor limit lowered, or `nil` when it did not.
    static func lowConnectionBudgetWarning(_ budget: ConnectionBudget) -> String? {
        guard budget.isLowered else { return nil }
        let needed = ConnectionBudget.descriptorsNeeded(forConnections: budget.configuredConnections)
        return "warning: the open-file limit is \(budget.descriptorLimit) descriptors, so the mock holds at most "
            + "\(budget.connections) connections at once instead of \(budget.configuredConnections) (--max-connections); "
            + "raise the limit with 'ulimit -n \(needed)' before starting it"
    }

    /// The error envelope for a protocol error found by the HTTP layer: the status with its own
    /// code (every status in ``HTTPServer/protocolErrorStatuses`` has one).
    static func envelope(for error: HTTPParseError) -> HTTPResponse {
        MockError(error.status, errorCode(forProtocolStatus: error.status), error.reason).response
    }

    /// The envelope code of a status the HTTP layer answers on its own.
    static func errorCode(forProtocolStatus status: Int) -> String {
        switch status {
        case 400: "BAD_REQUEST"
        case 408: "REQUEST_TIMEOUT"
        case 413: "PAYLOAD_TOO_LARGE"
        case 417: "EXPECTATION_FAILED"
        case 431: "HEADERS_TOO_LARGE"
        case 503: "SERVICE_UNAVAILABLE"
        case 505: "HTTP_VERSION_NOT_SUPPORTED"
        case 500...: "INTERNAL_SERVER_ERROR"
        default: "BAD_REQUEST"
        }
    }
}
