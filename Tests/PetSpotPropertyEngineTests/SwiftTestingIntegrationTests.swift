import Foundation
import PetSpotPropertyEngine
import PetSpotPropertyEngineTestSupport
import PetSpotPropertyTesting
import Testing

/// Issues a helper reported, captured instead of recorded so that expected failures print nothing.
final class CapturedIssues {
    struct Captured {
        let report: String
        let location: SourceLocation
    }

    var all: [Captured] = []

    /// The recorder to hand to `propertyCheck(_:…recordingIssues:)`.
    var recorder: IssueRecorder {
        { [self] report, location in all.append(Captured(report: report, location: location)) }
    }
}

@Suite("Swift Testing integration")
struct SwiftTestingIntegrationTests {
    let seeded = PropertyConfiguration(seed: 99, readsEnvironment: false)

    @Test("a failing property is reported at the caller's line with the replay line and its shrink status")
    func reportedAtCallerLine() throws {
        let issues = CapturedIssues()
        let expectedLine = #line + 1
        propertyCheck(property(name: #function, Gen.int(in: 0...10_000), coverage: []) { $0 < 1000 }, configuration: seeded, recordingIssues: issues.recorder)
        let issue = try #require(issues.all.first)
        #expect(issues.all.count == 1)
        #expect(issue.location.line == expectedLine && issue.location.fileID == #fileID)
        #expect(issue.report.contains("PETSPOT_SEED=99 swift test --filter \"reportedAtCallerLine\""))
        #expect(issue.report.contains("Shrunk counterexample (minimal: no shrink pass finds a smaller failing case"))
        #expect(issue.report.contains("1000"))
        #expect(issue.report.contains("Shrink passes (replays/improvements):"))
    }

    @Test("a failure whose shrinking ran out of budget says it is not minimal")
    func budgetStopIsReported() throws {
        let issues = CapturedIssues()
        var configuration = seeded
        configuration.maxShrinkSteps = 2
        propertyCheck(
            property(name: "budget", Gen.int(in: 0...1_000_000), coverage: []) { $0 < 10 }, configuration: configuration,
            recordingIssues: issues.recorder)
        let report = try #require(issues.all.first?.report)
        #expect(report.contains("not minimal: shrinking stopped after 2 replays (the replay budget, maxShrinkSteps)"))
    }

    @Test("the public helpers report through the same path: a passing property records nothing")
    func passingRecordsNothing() {
        let result = propertyCheck(Gen.int(in: 0...10), configuration: seeded) { $0 <= 10 }
        #expect(result.isPassed)
        let thrown = propertyCheck(Gen.string(from: .asciiLetters), configuration: seeded, verifying: { text in
            try require(text.count < 1_000_000, "too long")
        })
        #expect(thrown.isPassed)
        #expect(propertyCheck(StackMachine().property(name: "stack", steps: 1...2), configuration: seeded).isPassed)
    }

    @Test("the stack machine's failure is reported with its minimal sequence")
    func stateMachineForm() throws {
        let issues = CapturedIssues()
        propertyCheck(StackMachine().property(name: "stack"), configuration: seeded, recordingIssues: issues.recorder)
        let report = try #require(issues.all.first?.report)
        #expect(report.contains("[push(0), push(1), pop]") && report.contains("Replay:"))
    }

    @Test("coverage shortfalls are reported")
    func coverageIssue() throws {
        let issues = CapturedIssues()
        let gen = Gen.int(in: 0...100)
        propertyCheck(
            property(name: "coverage", gen, coverage: [CoverageRequirement("huge", atLeast: 5)]) { value in
                classify(value > 1000, "huge")
                return true
            }, configuration: seeded, recordingIssues: issues.recorder)
        #expect(try #require(issues.all.first).report.contains("label \"huge\" covered 0%"))
    }

    @Test("the failure-database key carries the running test's identity and the arguments")
    func identity() throws {
        let identity = try #require(testIdentity(arguments: "Asia/Tokyo"))
        #expect(identity.hasPrefix("PetSpotPropertyEngineTests/"))
        #expect(identity.contains("identity()"))
        #expect(identity.hasSuffix(" | Asia/Tokyo"))
        #expect(testIdentity(arguments: nil) == String(identity.dropLast(" | Asia/Tokyo".count)))
    }

    @Test("the cases of a parameterized test keep separate saved failures", arguments: [100, 200])
    func parameterizedCases(threshold: Int) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("petspot-parameterized-\(UInt64.random(in: 0...UInt64.max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = seeded
        configuration.failureDirectory = directory.path
        let issues = CapturedIssues()
        // Both cases of the property fail, at different thresholds, and both save a failure.
        for argument in [threshold, threshold + 1] {
            propertyCheck(
                property(name: "threshold", Gen.int(in: 0...1000), coverage: []) { $0 < argument },
                configuration: configuration, arguments: "\(argument)", recordingIssues: issues.recorder)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 2, "\(files)")
        // Replaying each saved failure gives its own threshold back, not the other one's.
        configuration.seed = 1
        for argument in [threshold, threshold + 1] {
            let result = propertyCheck(
                property(name: "threshold", Gen.int(in: 0...1000), coverage: []) { $0 < argument },
                configuration: configuration, arguments: "\(argument)", recordingIssues: issues.recorder)
            #expect(result.failure?.caseIndex == -1 && result.failure?.shrunk == argument)
        }
    }
}
