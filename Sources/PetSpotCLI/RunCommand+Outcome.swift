import Foundation
import PetSpotContractGroups
import PetSpotModel
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

extension RunCommand {
    /// The group of the run's own contract: enough of the contracts were checked.
    static let coverageGroup = "run coverage"
    /// A run must check at least half of its contracts to pass.
    static let coverageContract = "at least half of the contracts are checked"
    /// A run must end before its deadline to pass (declared only when the deadline passed).
    static let deadlineContract = "the run ends before its --deadline"

    /// Records what the run itself adds to the report once the contracts are done: every
    /// redirect the transport saw, dropped URL credentials, the interruption if any, the deadline
    /// if it passed (a failed contract: the run did not check what it was asked to), and the
    /// coverage contract, which fails when fewer than half of the contracts were checked (passed
    /// or failed rather than skipped), so that a run whose request budget skipped most contracts,
    /// or that had no admin token to delete with (its groups that create are skipped, and they
    /// count), is not "OK".
    func recordRunOutcome(
        _ recorder: ContractRecorder, transport: BudgetedTransport, base: any AnnouncementTransport, interruption: RunInterruption,
        replay: String, deadline: RunDeadline? = nil
    ) {
        if let http = base as? RunnerHTTPTransport {
            for note in http.redirectNotes { recorder.note(note) }
        }
        if target.baseURLPassword != nil {
            recorder.note(
                "--base-url carried credentials: they were not sent (the contracts send their own Authorization headers) and are masked in every output")
        }
        if let signal = interruption.signal {
            recorder.note(
                "interrupted by \(SignalTrap.name(signal)): no case was started after it; cleanup ran; exit code \(SignalTrap.exitCode(for: signal).rawValue)")
            InterruptedRun.record(signal, unchecked: "no case was started after it", in: recorder, seed: seed, replay: replay)
        }
        if let deadline, deadline.hasPassed {
            let skipped = recorder.summary.skipped
            recorder.declare(group: Self.coverageGroup, contract: Self.deadlineContract)
            recorder.fail(group: Self.coverageGroup, contract: Self.deadlineContract, ContractFailure(
                message: "\(deadline.reason) after \(transport.requestsSent) requests: no request was sent after it, \(skipped) contracts "
                    + "were skipped, cleanup ran; a target this slow is a finding (raise --deadline only if the run needs more time)",
                expected: "the run ends within \(ContractReport.plainNumber(deadline.seconds)) s",
                actual: "stopped at the deadline", seed: seed, replay: replay))
        }
        let summary = recorder.summary
        recorder.declare(group: Self.coverageGroup, contract: Self.coverageContract)
        let checked = summary.passed + summary.failed
        let needed = (summary.contracts + 1) / 2
        if checked >= needed {
            recorder.pass(group: Self.coverageGroup, contract: Self.coverageContract)
            return
        }
        let why: String
        if target.adminToken == nil && !allowsLeftovers {
            why = "no admin token: the groups that create announcements were skipped, as nothing they create could be deleted; "
                + "give the server's admin token (--admin-token or \(CurlReproduction.adminTokenVariable)) for full coverage, "
                + "or --allow-leftovers to create and list what is left"
        } else if let reason = transport.stopReason {
            why = reason
        } else if transport.budgetRefused {
            why = "the request budget (--max-requests \(transport.limit)) was reached; raise it"
        } else {
            why = "see the skip reasons above"
        }
        recorder.fail(group: Self.coverageGroup, contract: Self.coverageContract, ContractFailure(
            message: "only \(checked) of \(summary.contracts) contracts were checked (\(summary.skipped) skipped: \(why)); "
                + "a run passes only when at least half of its contracts are checked",
            expected: "at least \(needed) of \(summary.contracts) contracts checked", actual: "\(checked) checked",
            seed: seed, replay: replay))
    }
}

extension RunCommand {
    /// What a second signal does before the process exits at once (the cleanup may be under way):
    /// prints, on standard error, every announcement the run created and has not deleted, and
    /// writes the report so far to `--report-json` with them as leftovers, so that nothing is left
    /// on the target without a list.
    func reportUndeletedOnExit(backend: BackendTarget, recorder: ContractRecorder, output: RunnerOutput, startedAt: Date) {
        let listed = Set(recorder.leftovers.map(\.id))
        let undeleted = backend.undeleted.filter { !listed.contains($0.id) }
        for item in undeleted {
            recorder.leave(Leftover(
                id: item.id, microchipNumber: item.microchip,
                reason: "not deleted: the run exited on a second signal before its cleanup deleted it"))
        }
        let leftovers = recorder.leftovers
        output.errorLine(
            "petspot-contracts run: exiting before the cleanup finished: \(leftovers.count) announcement(s) of this run are left on the target"
                + (leftovers.isEmpty ? "" : ":"))
        for leftover in leftovers {
            let microchip = leftover.microchipNumber.map { " (microchip \(DisplayText.sanitized($0, maxBytes: 40)))" } ?? ""
            output.errorLine("  left on target: announcement \(DisplayText.sanitized(leftover.id, maxBytes: 200))\(microchip)")
        }
        guard let jsonPath = target.outputs.jsonPath else { return }
        let report = recorder.report(command: "run", arguments: arguments, target: target.baseURL.absoluteString, seed: seed, startedAt: startedAt)
        do {
            try report.writeJSON(to: jsonPath)
            output.errorLine("petspot-contracts run: the report so far, with these leftovers, is in \(DisplayText.sanitized(jsonPath, maxBytes: 400))")
        } catch {
            output.errorLine("petspot-contracts run: \(error.message)")
        }
    }
}
