import Foundation
import PetSpotModel

/// What a failure keeps of the answer it got: the whole answer when its body is short, else the
/// redacted start of the body with its full length, so that the memory a run keeps does not grow
/// with the size of the failing answers (a run against a target that answers every request with
/// 4 MB would otherwise keep 4 MB per failure; every report shows at most
/// ``DisplayText/maxBytes`` of a text anyway).
///
/// ```swift
/// AnswerExcerpt.text(response, redactor: redactor)   // "500 {\"error\":{\"message\":\"xxxx... ... (4194304 bytes in all)"
/// ```
package enum AnswerExcerpt {
    /// Bodies up to this many bytes are shown whole, as ``Redactor/response(_:)`` renders them.
    package static let maxBodyBytes = 16 * 1024
    /// Characters shown of the start of a longer body.
    package static let shownCharacters = 1_900
    /// Body bytes an observation keeps of an answer until it is recorded (``kept(_:)``): the
    /// start redaction looks at, with room for long secrets.
    package static let keptBodyBytes = 64 * 1024

    /// An answer as a failure shows it: `STATUS body`, the body cut after ``shownCharacters``
    /// with ` ... (N bytes in all)` when it is longer than ``maxBodyBytes``. `bodyLength` is the
    /// full length of a body already cut by ``kept(_:)``. Secrets are masked in the start before
    /// it is cut, so none is shown in part.
    package static func text(_ response: TransportResponse, bodyLength: Int? = nil, redactor: Redactor) -> String {
        let length = max(bodyLength ?? 0, response.body.count)
        guard length > maxBodyBytes else { return redactor.response(response) }
        if let type = response.header("Content-Type")?.lowercased(), type.hasPrefix("multipart/") {
            return "\(response.status) (multipart body, \(length) bytes)"
        }
        let window = min(response.body.count, redactor.prefixWindow(maxBytes: 8_000))
        guard let start = validUTF8Prefix(response.body.prefix(window)) else {
            return "\(response.status) (\(length) bytes of binary data)"
        }
        // Rendered as text (a JSON body's start is not JSON), redacted, then cut.
        let rendered = redactor.body(Data(start.utf8), contentType: "text/plain")
        return "\(response.status) \(rendered.prefix(shownCharacters)) ... (\(length) bytes in all)"
    }

    /// `response` as an observation keeps it until it is recorded: the body cut after
    /// ``keptBodyBytes``, with the full length to pass to ``text(_:bodyLength:redactor:)``.
    package static func kept(_ response: TransportResponse) -> (response: TransportResponse, bodyLength: Int) {
        guard response.body.count > keptBodyBytes else { return (response, response.body.count) }
        var cut = response
        cut.body = Data(response.body.prefix(keptBodyBytes))
        return (cut, response.body.count)
    }

    /// `bytes` as text, dropping at most 3 bytes of a character cut at the end; `nil` when they
    /// are not UTF-8 text.
    static func validUTF8Prefix(_ bytes: Data) -> String? {
        for dropped in 0...min(3, bytes.count) {
            if let text = String(data: bytes.dropLast(dropped), encoding: .utf8) { return text }
        }
        return nil
    }
}
