import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel

/// A catalog case whose production answer is a known backend defect, checked in the production
/// profile: production's answer passes and is listed as still present; the sane answer also
/// passes, with a notice to update the catalog; anything else fails.
package struct KnownDefect {
    /// What the defect is.
    package let text: String
    /// The sane answer (the case's `strictExpected`).
    package let sane: ExpectedResponse

    /// The defect of a case in `profile`, or `nil` (no defect, or the strict profile, which
    /// expects the sane answer anyway).
    package init?(_ text: String?, sane: ExpectedResponse?, profile: BackendProfile) {
        guard profile == .production, let text, let sane else { return nil }
        self.text = text
        self.sane = sane
    }

    /// The case's problem once the defect is taken into account, noting what was seen.
    package func judge(caseId: String, problem: String?, status: Int, body: JSONValue?, backend: BackendTarget) -> String? {
        if problem == nil {
            backend.noteKnownDefect(KnownDefectSighting(caseId: caseId, defect: text, stillPresent: true, saneAnswer: sane.description))
            return nil
        }
        guard sane.mismatch(status: status, body: body) == nil else { return problem }
        backend.noteKnownDefect(KnownDefectSighting(caseId: caseId, defect: text, stillPresent: false, saneAnswer: sane.description))
        return nil
    }
}
