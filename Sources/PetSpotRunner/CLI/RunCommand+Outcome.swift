import Foundation
import PetSpotModel

extension RunCommand {
    /// The group of the run's own contract: enough of the contracts were checked.
    static let coverageGroup = "run coverage"
    /// A run must check at least half of its contracts to pass.
    static let coverageContract = "at least half of the contracts are checked"

    /// Records what the run itself adds to the report once the contracts are done: every
    /// redirect the transport saw, dropped URL credentials, the interruption if any, and the
    /// coverage contract, which
    /// fails when fewer than half of the contracts were checked (passed or failed rather than
    /// skipped), so that a run whose request budget skipped most contracts is not "OK".
    func recordRunOutcome(
        _ recorder: ContractRecorder, transport: BudgetedTransport, base: any AnnouncementTransport, interruption: RunInterruption,
        replay: String
    ) {
        if let http = base as? RunnerHTTPTransport {
            for note in http.redirectNotes { recorder.note(note) }
        }
        if baseURLPassword != nil {
            recorder.note(
                "--base-url carried credentials: they were not sent (the contracts send their own Authorization headers) and are masked in every output")
        }
        if let signal = interruption.signal {
            recorder.note(
                "interrupted by \(SignalTrap.name(signal)): no case was started after it; cleanup ran; exit code \(SignalTrap.exitCode(for: signal).rawValue)")
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
        if let reason = transport.stopReason {
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
