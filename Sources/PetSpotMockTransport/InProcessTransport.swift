import Foundation
import PetSpotHTTP
import PetSpotMockBackend
import PetSpotModel

/// The model's submission transport straight into a ``MockBackend``, with no sockets.
///
/// A request goes through the backend's routing, validation, storage and fault plan exactly as
/// it would over HTTP; a dropped connection becomes ``TransportError/noConnection(_:)``. This is
/// how tests and `petspot-contracts check` submit reports in-process:
///
/// ```swift
/// let backend = MockBackend()
/// let submitter = ReportSubmitter(transport: InProcessTransport(backend: backend))
/// ```
public struct InProcessTransport: AnnouncementTransport {
    /// The backend every request goes to.
    public let backend: MockBackend

    /// A transport to `backend`.
    public init(backend: MockBackend) {
        self.backend = backend
    }

    /// Answers `request` through the backend (its fault plan included).
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let response: HTTPResponse
        do {
            response = try await backend.respond(to: Self.httpRequest(request))
        } catch {
            throw .noConnection("the mock dropped the connection")
        }
        return Self.transportResponse(response)
    }

    /// Answers `request` on the calling thread (a delay in the fault plan blocks it): for callers
    /// that must not wait for a task, such as a proxy's connection thread.
    public func answerNow(_ request: TransportRequest) -> Result<TransportResponse, TransportError> {
        do throws(MockTransportError) {
            return .success(Self.transportResponse(try backend.handle(Self.httpRequest(request))))
        } catch {
            return .failure(.noConnection("the mock dropped the connection"))
        }
    }

    /// The HTTP request a transport request stands for (with `Host` and `Content-Length`).
    public static func httpRequest(_ request: TransportRequest) -> HTTPRequest {
        var headers: HTTPHeaders = ["Host": "127.0.0.1"]
        for header in request.headers { headers.add(header.name, header.value) }
        if headers["Content-Length"] == nil { headers.set("Content-Length", String(request.body.count)) }
        return HTTPRequest(method: request.method, target: request.path, headers: headers, body: [UInt8](request.body))
    }

    /// The transport response for an HTTP response.
    public static func transportResponse(_ response: HTTPResponse) -> TransportResponse {
        TransportResponse(
            status: response.status, headers: response.headers.fields.map { (name: $0.name, value: $0.value) },
            body: Data(response.body))
    }
}
