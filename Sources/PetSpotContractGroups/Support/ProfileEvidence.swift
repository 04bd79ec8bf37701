import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// Which profile a backend seems to answer as, from the catalog cases where the profiles differ.
package struct ProfileEvidence: Sendable {
    /// Cases (where the profiles differ) answered as the run's profile expects.
    package var matchedExpected = 0
    /// Cases answered as the other profile expects: the case id and that answer.
    package var matchedOther: [(caseId: String, answer: String)] = []

    /// A hint that the run's `--profile` is the wrong one, or `nil`: at least two cases answered
    /// as the other profile expects and none as this one.
    package func hint(profile: BackendProfile) -> String? {
        guard matchedOther.count >= 2, matchedExpected == 0 else { return nil }
        let other: BackendProfile = profile == .production ? .strict : .production
        let examples = matchedOther.prefix(3).map { "\($0.caseId) answered \($0.answer)" }.joined(separator: ", ")
        let what = other == .strict ? "the project's strict mock (petspot-contracts mock without --profile)" : "production (or the mock's production profile)"
        return "the run expected the \(profile.rawValue) profile, but \(matchedOther.count) case(s) where the profiles differ were "
            + "answered as the \(other.rawValue) profile expects (\(examples)) and none as \(profile.rawValue): this looks like "
            + "\(what); rerun with --profile \(other.rawValue)"
    }
}
