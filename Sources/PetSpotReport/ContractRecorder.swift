import Foundation
import PetSpotConcurrency
import PetSpotJSON

/// Collects contract results while a run is in progress; safe to use from concurrent tasks.
///
/// Contracts are declared first (so the report lists them in a stable order even when cases
/// finish out of order), then every case is recorded as a pass or a failure.
public final class ContractRecorder: Sendable {
    /// Failures kept in full per contract; further ones are only counted.
    public static let maxFailuresKept = 5

    /// Everything recorded so far.
    private struct Recording {
        var groups: [GroupOutcome] = []
        var leftovers: [Leftover] = []
        var notes: [String] = []
        var findings: [SpecFinding] = []
        var releases: [ReleaseOutcome] = []
        var coverage: BoundaryCoverage?
        var replay: String?
        /// Per group, when its last case was recorded (or the group was first seen).
        var groupClocks: [String: ContinuousClock.Instant] = [:]
        /// Per group and contract, the wall-clock time between each of its cases and the group's
        /// previous event: the duration of contracts whose callers do not measure their own.
        var attributedSeconds: [String: [String: Double]] = [:]

        /// The positions of `contract` in `group`, both added when new (`-1` for no contract).
        mutating func indices(_ group: String, _ contract: String?) -> (Int, Int) {
            let g: Int
            if let index = groups.firstIndex(where: { $0.name == group }) {
                g = index
            } else {
                groupClocks[group] = ContinuousClock.now
                groups.append(GroupOutcome(name: group))
                g = groups.count - 1
            }
            guard let contract else { return (g, -1) }
            if let c = groups[g].contracts.firstIndex(where: { $0.name == contract }) { return (g, c) }
            groups[g].contracts.append(ContractOutcome(name: contract))
            return (g, groups[g].contracts.count - 1)
        }

        /// Charges `contract` the time since its group's previous event.
        mutating func tick(_ group: String, _ contract: String) {
            let now = ContinuousClock.now
            let elapsed = now - (groupClocks[group] ?? now)
            groupClocks[group] = now
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            attributedSeconds[group, default: [:]][contract, default: 0] += seconds
        }
    }

    private let recording = Locked(Recording())
    /// The secrets the run learns; ``report(command:arguments:target:seed:startedAt:)`` redacts
    /// the whole report with them (``ContractReport/sanitized(by:)``).
    package let secrets: SecretStore

    /// An empty recorder.
    public init() {
        secrets = SecretStore()
    }

    /// An empty recorder whose report is redacted with `secrets`.
    package init(secrets: SecretStore) {
        self.secrets = secrets
    }

    /// Declares a contract (idempotent), so it is reported even if no case runs.
    public func declare(group: String, contract: String) {
        recording.withLock { _ = $0.indices(group, contract) }
    }

    /// Records `count` passing cases.
    ///
    /// Without `seconds`, the contract is charged the time since its group's previous case.
    public func pass(group: String, contract: String, count: Int = 1, seconds: Double = 0) {
        recording.withLock { recording in
            let (g, c) = recording.indices(group, contract)
            recording.tick(group, contract)
            recording.groups[g].contracts[c].casesRun += count
            recording.groups[g].contracts[c].durationSeconds += seconds
        }
    }

    /// Records one failing case.
    public func fail(group: String, contract: String, _ failure: ContractFailure, seconds: Double = 0) {
        recording.withLock { recording in
            let (g, c) = recording.indices(group, contract)
            recording.tick(group, contract)
            recording.groups[g].contracts[c].casesRun += 1
            recording.groups[g].contracts[c].casesFailed += 1
            recording.groups[g].contracts[c].durationSeconds += seconds
            if recording.groups[g].contracts[c].failures.count < Self.maxFailuresKept {
                recording.groups[g].contracts[c].failures.append(failure)
            }
        }
    }

    /// Records the totals of a contract checked in one pass: `casesRun` cases, `casesFailed` of
    /// them failing, and the failures to show (each kept, however many).
    public func record(
        group: String, contract: String, casesRun: Int, casesFailed: Int, failures: [ContractFailure], seconds: Double = 0
    ) {
        recording.withLock { recording in
            let (g, c) = recording.indices(group, contract)
            recording.groups[g].contracts[c].casesRun += casesRun
            recording.groups[g].contracts[c].casesFailed += casesFailed
            recording.groups[g].contracts[c].durationSeconds += seconds
            recording.groups[g].contracts[c].failures += failures
        }
    }

    /// Sets the boundary coverage shown in the report.
    public func setCoverage(_ coverage: BoundaryCoverage) {
        recording.withLock { $0.coverage = coverage }
    }

    /// Marks a contract as skipped with a reason.
    public func skip(group: String, contract: String, reason: String) {
        recording.withLock { recording in
            let (g, c) = recording.indices(group, contract)
            recording.tick(group, contract)
            recording.groups[g].contracts[c].skipReason = reason
        }
    }

    /// The contracts of `group` declared and neither checked by a case nor skipped yet.
    package func uncheckedContracts(group: String) -> [String] {
        recording.withLock { recording in
            guard let outcome = recording.groups.first(where: { $0.name == group }) else { return [] }
            return outcome.contracts.filter { $0.casesRun == 0 && $0.skipReason == nil }.map(\.name)
        }
    }

    /// Records an announcement left on the target.
    public func leave(_ leftover: Leftover) {
        recording.withLock { $0.leftovers.append(leftover) }
    }

    /// The leftovers recorded so far.
    package var leftovers: [Leftover] { recording.withLock { $0.leftovers } }

    /// Every failure kept so far, as recorded (before the report's final pass): what a run holds
    /// in memory until its report is made.
    package var keptFailures: [ContractFailure] {
        recording.withLock { $0.groups.flatMap { $0.contracts.flatMap(\.failures) } }
    }

    /// Sets the command line that replays the run.
    public func setReplay(_ line: String) {
        recording.withLock { $0.replay = line }
    }

    /// Sets what `group` tried, shown under its name in every rendering.
    public func describe(group: String, _ summary: String) {
        recording.withLock { recording in
            let (g, _) = recording.indices(group, nil)
            recording.groups[g].summary = summary
        }
    }

    /// Adds a finding against the specification (not a failure).
    public func find(_ finding: SpecFinding) {
        recording.withLock { $0.findings.append(finding) }
    }

    /// Adds what `can-i-deploy` found for one release (in the order the releases are checked).
    public func release(_ outcome: ReleaseOutcome) {
        recording.withLock { $0.releases.append(outcome) }
    }

    /// Adds a remark to the report.
    public func note(_ text: String) {
        recording.withLock { $0.notes.append(text) }
    }

    /// Adds a remark before every other: what a reader must not miss (what the run did not check).
    package func leadingNote(_ text: String) {
        recording.withLock { $0.notes.insert(text, at: 0) }
    }

    /// The report of everything recorded, redacted with every secret learnt and made safe to
    /// print (``ContractReport/sanitized(by:)``).
    public func report(
        command: String, arguments: [String], target: String, seed: UInt64?, startedAt: Date
    ) -> ContractReport {
        let recorded = recording.withLock { recording in
            var report = ContractReport(
                command: command, arguments: arguments, target: target, seed: seed, startedAt: startedAt,
                durationSeconds: Date().timeIntervalSince(startedAt), groups: recording.groups, leftovers: recording.leftovers,
                notes: recording.notes, coverage: recording.coverage)
            report.replay = recording.replay
            report.findings = recording.findings
            report.releases = recording.releases
            report.completeTimesAndSeeds(attributedSeconds: recording.attributedSeconds)
            return report
        }
        return recorded.sanitized(by: secrets.redactor)
    }

    /// Totals of everything recorded so far (nothing rendered, nothing redacted).
    package var summary: ContractReport.Summary {
        let groups = recording.withLock { $0.groups }
        return ContractReport(command: "", arguments: [], target: "", seed: nil, startedAt: Date(), durationSeconds: 0, groups: groups).summary
    }
}
