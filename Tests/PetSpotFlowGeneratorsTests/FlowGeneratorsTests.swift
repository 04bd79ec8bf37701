import Foundation
import PetSpotPropertyEngine
import PetSpotModel
import Testing
@testable import PetSpotFlowGenerators

@Suite("Flow generators")
struct FlowGeneratorsTests {
    @Test("valid mood: every generated report submits, in both flows")
    func validSubmits() {
        let cases = FlowGenerators.flowCase(.valid).samples(count: 500, seed: 7)
        #expect(cases.count == 500)
        for flowCase in cases {
            guard case .submitted = flowCase.referenceOutcome else {
                Issue.record("valid input blocked: \(flowCase.referenceOutcome) for \(flowCase)")
                return
            }
        }
        #expect(Set(cases.map(\.flow)) == Set(ReportFlowKind.allCases))
    }

    @Test("hostile mood: both outcomes and every blocking step occur")
    func hostileReachesEveryStep() {
        let cases = FlowGenerators.flowCase(.hostile).samples(count: 1500, seed: 11)
        var submitted = 0
        var blockedSteps = Set<ReportStep>()
        for flowCase in cases {
            switch flowCase.referenceOutcome {
            case .submitted: submitted += 1
            case .blocked(let step, _): blockedSteps.insert(step)
            }
        }
        #expect(submitted > 20)
        #expect(blockedSteps == [.photo, .description, .contactDetails, .petDetails, .contactInfo])
    }

    @Test("hostile text reaches each character class")
    func hostileCharacterClasses() {
        let texts = FieldGenerators.phone(.hostile).samples(count: 400, seed: 3)
            + FieldGenerators.freeText(.hostile, cap: 500).samples(count: 400, seed: 4).compactMap { $0 }
        let scalars = Set(texts.flatMap(\.unicodeScalars))
        for (name, characterClass) in [
            ("non-ASCII digits", HostileCharacters.nonASCIIDigits), ("invisibles", HostileCharacters.invisibles),
            ("emoji", HostileCharacters.emoji), ("combining marks", HostileCharacters.combiningMarks),
            ("right-to-left", HostileCharacters.rightToLeft),
        ] {
            let classScalars = Set(characterClass.characters.flatMap(\.unicodeScalars))
            #expect(!scalars.isDisjoint(with: classScalars), "no \(name) generated")
        }
    }

    @Test("the same seed gives the same cases")
    func deterministic() {
        let first = FlowGenerators.flowCase(.hostile).samples(count: 50, seed: 99)
        let second = FlowGenerators.flowCase(.hostile).samples(count: 50, seed: 99)
        #expect(first == second)
    }

    @Test("photo contents carry the declared type's signature and size")
    func photoContents() {
        let png = PhotoContents.materialized(PhotoAttachment(fileName: "a.png", mimeType: "IMAGE/PNG", byteCount: 20))
        #expect(png.contents?.count == 20)
        #expect(png.contents?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(PhotoContents.bytes(mimeType: "image/jpeg", count: 2) == Data([0xFF, 0xD8]))
        #expect(PhotoContents.bytes(mimeType: "image/gif", count: 0).isEmpty)
    }
}
