import Foundation

/// What reached the app of one request.
package enum Delivery: Sendable, Hashable {
    /// The whole answer was written to the app.
    case answered(status: Int)
    /// The connection was closed (or reset) without an answer.
    case noAnswer
    /// The app closed the connection before an answer was written: it gave up (its time-out).
    /// For a held answer, the seconds count from the moment the whole request had arrived.
    case gaveUp(afterSeconds: Double)
    /// The answer was held and the app was still waiting when the proxy closed the connection,
    /// this many seconds after the whole request had arrived (the hold's limit): it never gave up.
    case outwaited(afterSeconds: Double)
}
