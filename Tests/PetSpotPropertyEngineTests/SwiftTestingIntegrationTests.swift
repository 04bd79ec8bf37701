import PetSpotPropertyEngine
import PetSpotPropertyEngineTestSupport
import PetSpotPropertyTesting
import Testing

@Suite("Swift Testing integration")
struct SwiftTestingIntegrationTests {
    let seeded = PropertyConfiguration(seed: 99, readsEnvironment: false)

    @Test("a failing property is recorded at the caller's line with the replay line")
    func reportedAtCallerLine() {
        let expectedLine = #line + 2
        withKnownIssue {
            propertyCheck(Gen.int(in: 0...10_000), configuration: seeded) { $0 < 1000 }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return issue.sourceLocation?.line == expectedLine
                && issue.sourceLocation?.fileID == #fileID
                && text.contains("PETSPOT_SEED=99 swift test --filter \"reportedAtCallerLine\"")
                && text.contains("Shrunk counterexample") && text.contains("1000")
        }
    }

    @Test("the throwing form and the Property form report at the caller's line too")
    func otherForms() {
        let lines = [#line + 2, #line + 5]
        withKnownIssue {
            propertyCheck(Gen.string(from: .asciiLetters), name: "throwing", configuration: seeded, verifying: { text in
                try require(text.count < 3, "\(text) is too long")
            })
            propertyCheck(StackMachine().property(name: "stack"), configuration: seeded)
        } matching: { issue in
            lines.contains(issue.sourceLocation?.line ?? -1)
                && issue.comments.map(\.rawValue).joined().contains("Replay:")
        }
    }

    @Test("coverage shortfalls are recorded as issues")
    func coverageIssue() {
        withKnownIssue {
            propertyCheck(
                Gen.int(in: 0...100), configuration: seeded, coverage: [CoverageRequirement("huge", atLeast: 5)]
            ) { value in
                classify(value > 1000, "huge")
                return true
            }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("label \"huge\" covered 0%")
        }
    }

    @Test("a passing property records nothing")
    func passingRecordsNothing() {
        let result = propertyCheck(Gen.int(in: 0...10), configuration: seeded) { $0 <= 10 }
        #expect(result.isPassed)
    }
}
