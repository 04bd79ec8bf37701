import Foundation

/// What reached the app of one request.
package enum Delivery: Sendable, Hashable {
    /// The whole answer was written to the app.
    case answered(status: Int)
    /// The whole answer was written, but the app closed the connection with it unread (its close
    /// was a reset, which a socket closed with unread bytes sends), this many seconds after the
    /// request began: it gave up as the answer came, or read only the status and headers.
    case unread(status: Int, afterSeconds: Double)
    /// The connection was closed (or reset) without an answer.
    case noAnswer
    /// The app closed the connection before an answer was written: it gave up (its time-out).
    /// For a held answer, the seconds count from the moment the whole request had arrived.
    case gaveUp(afterSeconds: Double)
    /// The answer was held and the app was still waiting when the proxy closed the connection,
    /// this many seconds after the whole request had arrived (the hold's limit): it never gave up.
    case outwaited(afterSeconds: Double)

    /// The status of the answer written to the app, read or not.
    package var writtenStatus: Int? {
        switch self {
        case .answered(let status), .unread(let status, _): status
        case .noAnswer, .gaveUp, .outwaited: nil
        }
    }
}
