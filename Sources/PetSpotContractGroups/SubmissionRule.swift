import Foundation
import PetSpotConcurrency
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel

/// The rule a reference app follows when the user taps Try Again.
package enum SubmissionRule: String, CaseIterable, Sendable {
    /// report-flows.md in this version: Try Again repeats both requests from the start.
    case spec
    /// The later iteration's rule: after a stored create whose upload failed, Try Again retries
    /// only the upload with the kept id and password.
    case later
}
