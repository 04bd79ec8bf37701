import Foundation
import PetSpotConcurrency
import PetSpotModel
import PetSpotReport

/// Sends one HTTP exchange, never following redirects and never decoding a content coding.
package protocol HTTPWireClient: Sendable {
    /// The answer to `request`, whatever its status; a ``TransportError`` when there is none in
    /// time, or when it breaks the client's limits.
    func exchange(_ request: WireRequest) async -> Result<TransportResponse, TransportError>
}
