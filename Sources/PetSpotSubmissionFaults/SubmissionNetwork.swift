import Foundation
import PetSpotConcurrency
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel

/// Where an app sends its report: the proxy's base URL, the request time-out, the photo file.
package struct SubmissionNetwork: Sendable {
    /// The base URL the app is given (the fault proxy).
    package var baseURL: URL
    /// Seconds the app waits for each answer before giving up.
    package var requestTimeout: Double
    /// The photo's bytes, as a file the app reads.
    package var photoPath: String

    /// A network at `baseURL`, the app's requests timing out after `requestTimeout`, the photo in `photoPath`.
    package init(baseURL: URL, requestTimeout: Double, photoPath: String) {
        self.baseURL = baseURL
        self.requestTimeout = requestTimeout
        self.photoPath = photoPath
    }
}
