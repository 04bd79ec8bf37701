import Foundation
import PetSpotConcurrency
import PetSpotModel
import PetSpotReport

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
