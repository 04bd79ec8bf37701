import PetSpotReport

extension BackendTarget {
    /// Adds to the report what the run learnt beyond pass and fail: the known production
    /// defects still present (one line), those gone (one notice each: update the catalog), and
    /// the hint that `--profile` looks wrong. Returns the hint.
    @discardableResult
    package func noteFindings(recorder: ContractRecorder) -> String? {
        let sightings = knownDefectSightings
        let hint = profileEvidence.hint(profile: profile)
        var present: [(defect: String, cases: [String])] = []
        for sighting in sightings.sorted(by: { $0.caseId < $1.caseId }) where sighting.stillPresent {
            if let index = present.firstIndex(where: { $0.defect == sighting.defect }) {
                if !present[index].cases.contains(sighting.caseId) { present[index].cases.append(sighting.caseId) }
            } else {
                present.append((sighting.defect, [sighting.caseId]))
            }
        }
        if !present.isEmpty {
            recorder.note("known backend defect still present (the contracts expect production's answer): "
                + present.map { "\($0.cases.joined(separator: ", ")): \($0.defect)" }.joined(separator: "; "))
        }
        // With the wrong profile, the sane answers say nothing about production's defects.
        if hint == nil {
            var noted: Set<String> = []
            for gone in sightings.sorted(by: { $0.caseId < $1.caseId }) where !gone.stillPresent && noted.insert(gone.caseId).inserted {
                let remedy = gone.isCatalogCase
                    ? "update the catalog (drop its knownProductionDefect and expect \(gone.saneAnswer))"
                    : "production's defect seems fixed: update backend-contract.md and the runner's known defects (\(gone.defect))"
                recorder.note("known backend defect no longer present: \(gone.caseId) now answers the sane \(gone.saneAnswer); \(remedy)")
            }
        }
        if let hint { recorder.note(hint) }
        return hint
    }
}
