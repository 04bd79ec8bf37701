import Foundation
import PetSpotConcurrency
import PetSpotModel
import PetSpotReport

/// One request as a wire client sends it: the endpoint, method, headers, body, and the instant
/// by which the whole exchange must be over.
package struct WireRequest: Sendable {
    /// Where it goes.
    package var endpoint: HTTPEndpoint
    /// `GET`, `POST`, ...
    package var method: String
    /// Header fields in order (the client adds `Host`, `Content-Length`, `Connection` and
    /// `Accept-Encoding: identity`).
    package var headers: [(name: String, value: String)]
    /// The body bytes.
    package var body: Data
    /// Connect to last byte must be over by then.
    package var deadline: ContinuousClock.Instant

    /// A request to `endpoint` that must be over by `deadline`.
    package init(
        endpoint: HTTPEndpoint, method: String, headers: [(name: String, value: String)], body: Data, deadline: ContinuousClock.Instant
    ) {
        self.endpoint = endpoint
        self.method = method
        self.headers = headers
        self.body = body
        self.deadline = deadline
    }
}
