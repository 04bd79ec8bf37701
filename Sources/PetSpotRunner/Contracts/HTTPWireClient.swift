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
}

/// Sends one HTTP exchange, never following redirects and never decoding a content coding.
package protocol HTTPWireClient: Sendable {
    /// The answer to `request`, whatever its status; a ``TransportError`` when there is none in
    /// time, or when it breaks the client's limits.
    func exchange(_ request: WireRequest) async -> Result<TransportResponse, TransportError>
}

/// The limits every wire client enforces on an answer.
package struct WireLimits: Sendable {
    /// The longest body read (`--max-response-bytes`).
    package var maxBodyBytes: Int
    /// The longest status line and header block read.
    package var maxHeaderBytes = 64 * 1024

    /// Limits with a body cap.
    package init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// The failure for a body longer than the cap.
    package func tooLarge(status: Int, read: Int? = nil, declared: Int? = nil) -> TransportError {
        let how = declared.map { "declares Content-Length \($0)" } ?? "goes on past \(read ?? maxBodyBytes) bytes"
        return .noConnection(
            "answer too large: the \(status) answer \(how), more than --max-response-bytes \(maxBodyBytes); the runner stopped reading it")
    }

    /// The failure for an answer in a content coding the runner did not ask for.
    package func encoded(status: Int, coding: String) -> TransportError {
        .noConnection(
            "answer refused: the \(status) answer has Content-Encoding '\(DisplayText.sanitized(coding, maxBytes: 100))' though the "
                + "request asked for identity; the runner does not expand content it did not ask to be compressed")
    }
}
