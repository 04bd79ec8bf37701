import Foundation
import PetSpotBackendGroups
import PetSpotContractGroups
import PetSpotFlowChecks
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one loop `check` and `run` run their groups through (``ContractRegistry/checkAll(_:skipping:stoppingOn:holdingBack:)``),
/// and the two ways `check` keeps a group from starting: an interruption, and an adapter that
/// answered none of its questions.
@Suite("checkAll")
struct CheckAllTests {
    /// `check`'s session against the reference model and the in-process strict mock, from seed 1.
    static func checkSession() throws -> (session: ContractSession, mock: InProcessMock?, recorder: ContractRecorder) {
        let recorder = ContractRecorder()
        let flows = FlowTarget(oracle: ReferenceOracle(), makeGenerator: FlowContracts.defaultGenerator, shrinkSeconds: 1, usesMock: true)
        let (session, mock) = try SessionBuilder(recorder: recorder, seed: 1, replay: "petspot-contracts check --seed 1", cases: 5)
            .checking(flows)
        return (session, mock, recorder)
    }

    /// The report of what `recorder` holds.
    static func report(_ recorder: ContractRecorder) -> ContractReport {
        recorder.report(command: "check", arguments: [], target: "reference model", seed: 1, startedAt: Date())
    }

    @Test("a group the caller holds back does not start; the others run and the cleanup follows")
    func heldBackGroupsDoNotStart() async throws {
        let (session, mock, recorder) = try Self.checkSession()
        let applicable = ContractRegistry.groups.filter { $0.applies(to: session) }.map(\.name)
        let health = HealthContracts().name
        let notRun = try await ContractRegistry.checkAll(session) { $0.name != health }
        #expect(notRun.heldBack == applicable.filter { $0 != health })
        #expect(notRun.interrupted.isEmpty)
        let report = Self.report(recorder)
        #expect(report.groups.map(\.name) == [health], "only the group not held back declared its contracts")
        #expect(report.groups.first?.contracts.allSatisfy { $0.status == .passed } == true)
        #expect(report.notes.isEmpty, "checkAll notes only an interruption: \(report.notes)")
        #expect(mock?.backend.storedAnnouncementCount == 0)
    }

    @Test("once the run is interrupted no group starts, and the report names the groups not run")
    func interruptedRunStartsNoGroup() async throws {
        let (session, _, recorder) = try Self.checkSession()
        let applicable = ContractRegistry.groups.filter { $0.applies(to: session) }.map(\.name)
        let interruption = RunInterruption(command: "check")
        interruption.interrupt(SIGTERM)
        let notRun = try await ContractRegistry.checkAll(session, stoppingOn: interruption) { _ in
            Issue.record("the hook was asked about a group after the interruption")
            return false
        }
        #expect(notRun.interrupted == applicable)
        #expect(notRun.heldBack.isEmpty)
        let report = Self.report(recorder)
        #expect(report.groups.map(\.name) == [InterruptedRun.group], "only the interruption's own contract: \(report.groups.map(\.name))")
        #expect(report.groups.first?.contracts.map(\.status) == [.failed], "an interrupted run never passes")
        #expect(report.exitCode == .contractFailed)
        #expect(report.notes == ["interrupted by SIGTERM; not run: " + applicable.joined(separator: ", ")])
    }

    @Test("check holds back every group after the flow answers when the adapter answered none of its questions")
    func checkHoldsBackGroupsOfAnAdapterThatAnsweredNothing() async {
        // `cat` answers every question with the question itself: malformed, never an answer.
        let result = await runTool(["check", "--sut", "cat", "--seed", "3", "--budget", "2", "--no-progress"])
        #expect(result.status == RunnerExitCode.contractFailed.rawValue, "\(result.err)")
        #expect(result.out.contains("note: the adapter answered none of "), "\(result.out)")
        #expect(result.out.contains(" questions; not run: regressions (Contracts/catalog/regressions.json), health, submission, "))
        #expect(!result.out.contains("\nhealth\n"), "the health group ran: \(result.out)")
    }
}
