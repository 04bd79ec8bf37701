import Foundation
import PetSpotConcurrency
import PetSpotJSON

/// The outcome of one run of `petspot-contracts`: every contract checked, grouped, with its
/// failures in full.
///
/// A report is what the console summary, `--report-json` and `--junit` are rendered from, so the
/// three always agree. Its JSON form is versioned (``reportVersion``) and its keys come in a
/// fixed order, so CI tooling can parse it and diffs stay small. Secrets never reach a report:
/// requests and answers are redacted by ``Redactor`` when they are recorded.
///
/// ```swift
/// let recorder = ContractRecorder()
/// recorder.declare(group: "flows", contract: "status by flow")
/// recorder.pass(group: "flows", contract: "status by flow")
/// let report = recorder.report(command: "check", arguments: [], target: "reference model", seed: 1, startedAt: Date())
/// ```
public struct ContractReport: Sendable {
    /// The version of the JSON report format (`docs/report.schema.json`); bumped on any change
    /// to it. Version 2 added `replay` and gives every failure with a replay line its seed;
    /// version 3 adds a failure's `steps` and the report's `findings`.
    public static let reportVersion = 3
    /// The tool's name.
    public static let tool = "petspot-contracts"
    /// The tool's version, written into reports.
    public static let toolVersion = "1.0.0"

    /// The command run: `check` or `run`.
    public var command: String
    /// The command line's arguments after the command word, secrets redacted.
    public var arguments: [String]
    /// What was checked: `reference model`, `adapter: CMD`, a base URL.
    public var target: String
    /// The run's seed (replays it with `--seed`).
    public var seed: UInt64?
    /// When the run started.
    public var startedAt: Date
    /// Wall-clock duration of the run.
    public var durationSeconds: Double
    /// The contract groups in the order they ran.
    public var groups: [GroupOutcome]
    /// Announcements created on the target and not deleted (no admin token, or a failed delete).
    public var leftovers: [Leftover]
    /// Remarks about the run (skipped groups, adapter restarts, budgets reached).
    public var notes: [String]
    /// The command line that replays the run, when the run knows it.
    public var replay: String?
    /// The boundary coverage of the flow cases, when flows were checked.
    public var coverage: BoundaryCoverage?
    /// What the specification itself does to users, found by properties the reference model
    /// (which follows the specification) fails too: reported, never counted as failures.
    public var findings: [SpecFinding] = []

    /// Creates a report.
    public init(
        command: String, arguments: [String], target: String, seed: UInt64?, startedAt: Date, durationSeconds: Double,
        groups: [GroupOutcome], leftovers: [Leftover] = [], notes: [String] = [], coverage: BoundaryCoverage? = nil
    ) {
        self.command = command
        self.arguments = arguments
        self.target = target
        self.seed = seed
        self.startedAt = startedAt
        self.durationSeconds = durationSeconds
        self.groups = groups
        self.leftovers = leftovers
        self.notes = notes
        self.coverage = coverage
    }

    /// The distinct causes of failure found, over every contract, in report order.
    public var distinctFailures: [(group: String, contract: String, failure: ContractFailure)] {
        groups.flatMap { group in
            group.contracts.flatMap { contract in
                contract.failures.filter { $0.cause != nil }.map { (group.name, contract.name, $0) }
            }
        }
    }

    /// Totals over every group.
    public var summary: Summary {
        let contracts = groups.flatMap(\.contracts)
        return Summary(
            contracts: contracts.count,
            passed: contracts.filter { $0.status == .passed }.count,
            failed: contracts.filter { $0.status == .failed }.count,
            skipped: contracts.filter { $0.status == .skipped }.count,
            casesRun: contracts.reduce(0) { $0 + $1.casesRun },
            casesFailed: contracts.reduce(0) { $0 + $1.casesFailed })
    }

    /// Whether any contract failed.
    public var hasFailures: Bool { groups.contains { $0.contracts.contains { $0.status == .failed } } }

    /// Totals of a report.
    public struct Summary: Sendable, Hashable {
        /// Contracts checked.
        public var contracts: Int
        /// Contracts that held.
        public var passed: Int
        /// Contracts that failed.
        public var failed: Int
        /// Contracts not checked (a missing prerequisite, a budget reached).
        public var skipped: Int
        /// Cases run over all contracts.
        public var casesRun: Int
        /// Failing cases over all contracts.
        public var casesFailed: Int
    }
}

/// The outcome of one group of contracts (e.g. `flow answers`, `create negatives`): one section of
/// the report, one JUnit test suite.
public struct GroupOutcome: Sendable, Hashable {
    /// The group's name.
    public var name: String
    /// Its contracts, in the order they were declared.
    public var contracts: [ContractOutcome]
    /// What the group tried, in one paragraph, when it says (the fault schedules a submission
    /// met, the sequences run): shown under the group's name.
    public var summary: String?

    /// Creates a group.
    public init(name: String, contracts: [ContractOutcome] = [], summary: String? = nil) {
        self.name = name
        self.contracts = contracts
        self.summary = summary
    }

    /// Seconds spent in this group's contracts.
    public var durationSeconds: Double { contracts.reduce(0) { $0 + $1.durationSeconds } }
}

/// One contract's result: how many cases ran, how many failed, and the failures kept in full.
public struct ContractOutcome: Sendable, Hashable {
    /// Whether the contract held.
    public enum Status: String, Sendable, Hashable {
        /// Every case held.
        case passed
        /// At least one case failed.
        case failed
        /// No case ran (a budget reached, a prerequisite missing).
        case skipped
    }

    /// The contract's name, e.g. `status by flow`.
    public var name: String
    /// Cases checked.
    public var casesRun: Int
    /// Cases that failed (every one counted; only the first few are kept in ``failures``).
    public var casesFailed: Int
    /// Seconds spent checking it.
    public var durationSeconds: Double
    /// The failures kept in full (at most ``ContractRecorder/maxFailuresKept``).
    public var failures: [ContractFailure]
    /// Why the contract was skipped, when it was.
    public var skipReason: String?

    /// Creates an outcome.
    public init(
        name: String, casesRun: Int = 0, casesFailed: Int = 0, durationSeconds: Double = 0,
        failures: [ContractFailure] = [], skipReason: String? = nil
    ) {
        self.name = name
        self.casesRun = casesRun
        self.casesFailed = casesFailed
        self.durationSeconds = durationSeconds
        self.failures = failures
        self.skipReason = skipReason
    }

    /// Failed when a case failed; skipped when it was skipped or ran no case; else passed.
    public var status: Status {
        if casesFailed > 0 { return .failed }
        if skipReason != nil || casesRun == 0 { return .skipped }
        return .passed
    }
}

/// A request as shown in a report, secrets already redacted.
public struct ReportedRequest: Sendable, Hashable {
    /// `GET`, `POST`, `DELETE`.
    public var method: String
    /// Path and query.
    public var path: String
    /// Header fields in order, redacted.
    public var headers: [ReportedHeader]
    /// The body as text (redacted; binary bodies summarised).
    public var body: String

    /// Creates a reported request.
    public init(method: String, path: String, headers: [ReportedHeader] = [], body: String = "") {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

/// One header field of a reported request.
public struct ReportedHeader: Sendable, Hashable {
    /// The field name.
    public var name: String
    /// The value, redacted when it is a credential.
    public var value: String

    /// Creates a header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// One failing case of a contract, with everything needed to understand and replay it.
public struct ContractFailure: Sendable, Hashable {
    /// What went wrong, in one sentence.
    public var message: String
    /// Identifies the case: a catalog id, an adapter question id, a generated case index.
    public var caseId: String?
    /// The request sent (HTTP) or question line (adapter), redacted.
    public var request: ReportedRequest?
    /// The answer the contract expects.
    public var expected: String?
    /// The answer that came.
    public var actual: String?
    /// The shrunk input, for generated cases.
    public var shrunkInput: JSONValue?
    /// The input as first generated, for generated cases.
    public var originalInput: JSONValue?
    /// The seed that generated it.
    public var seed: UInt64?
    /// The exact command line that replays the run.
    public var replay: String?
    /// A command that sends the failing request again on its own (a `curl` line; secrets are
    /// read from environment variables, never written out).
    public var reproduce: String?
    /// For generated flow cases: the cause this failure stands for (every failing case with the
    /// same contract, fields and kind of difference), shown once, shrunk.
    public var cause: Cause?
    /// For a failing scenario (a sequence of requests, a report submitted under faults): its
    /// steps in order, each with its request, what came of it, and a command that replays it.
    public var steps: [FailureStep] = []

    /// A distinct cause of failure: the fields involved, the kind of difference, how many cases
    /// showed it.
    public struct Cause: Sendable, Hashable {
        /// The fields involved (protocol names), sorted.
        public var fields: [String]
        /// The kind of difference, e.g. `accepts a value the rules refuse`.
        public var kind: String
        /// Failing cases with this cause.
        public var cases: Int
        /// Whether the case shown is shrunk.
        public var shrunk: Bool

        /// A cause.
        public init(fields: [String], kind: String, cases: Int, shrunk: Bool) {
            self.fields = fields
            self.kind = kind
            self.cases = cases
            self.shrunk = shrunk
        }

        /// `fields: kind`.
        public var summary: String { (fields.isEmpty ? "(no field)" : fields.joined(separator: ", ")) + ": " + kind }
    }

    /// Creates a failure.
    public init(
        message: String, caseId: String? = nil, request: ReportedRequest? = nil, expected: String? = nil,
        actual: String? = nil, shrunkInput: JSONValue? = nil, originalInput: JSONValue? = nil, seed: UInt64? = nil,
        replay: String? = nil, reproduce: String? = nil, cause: Cause? = nil
    ) {
        self.cause = cause
        self.message = message
        self.caseId = caseId
        self.request = request
        self.expected = expected
        self.actual = actual
        self.shrunkInput = shrunkInput
        self.originalInput = originalInput
        self.seed = seed
        self.replay = replay
        self.reproduce = reproduce
    }
}

/// One step of a failing scenario: a request of a sequence, a request of a submission and the fault
/// the runner applied to it, or a user's action and what the app showed.
public struct FailureStep: Sendable, Hashable {
    /// Which client ran the step when steps ran at once (`client 1`, `client 2`); `nil` for a step
    /// every later one waited for.
    public var lane: String?
    /// What the step did, e.g. `create #1 with microchip A (new)`.
    public var action: String
    /// What came of it: the answer, the fault applied, what the app showed.
    public var outcome: String
    /// The request, redacted; `nil` for a step that sends none (the user taps Cancel).
    public var request: ReportedRequest?
    /// A command that sends the request on its own (a `curl` line reading secrets from the
    /// environment), when the target is reached over HTTP.
    public var reproduce: String?

    /// Creates a step.
    public init(lane: String? = nil, action: String, outcome: String, request: ReportedRequest? = nil, reproduce: String? = nil) {
        self.lane = lane
        self.action = action
        self.outcome = outcome
        self.request = request
        self.reproduce = reproduce
    }

    /// `3. [client 1] create #2 -> 201`.
    public func line(number: Int) -> String {
        "\(number). " + (lane.map { "[\($0)] " } ?? "") + action + " -> " + outcome
    }
}

/// A property the specification's own rule cannot meet: the reference model, which follows the
/// specification, fails it too. Reported once per run with the smallest scenario that shows it and
/// what it does to a user, apart from the app's deviations, and never counted as a failure: an
/// app that follows the specification passes.
public struct SpecFinding: Sendable, Hashable {
    /// The report group.
    public var group: String
    /// The property (contract) the specification cannot meet.
    public var property: String
    /// What goes wrong, in one sentence.
    public var message: String
    /// What it does to the user.
    public var consequence: String
    /// The scenario, shrunk, as a person can replay it by hand.
    public var steps: [FailureStep]
    /// The command line that replays the run.
    public var replay: String?

    /// Creates a finding.
    public init(group: String, property: String, message: String, consequence: String, steps: [FailureStep], replay: String? = nil) {
        self.group = group
        self.property = property
        self.message = message
        self.consequence = consequence
        self.steps = steps
        self.replay = replay
    }
}

/// An announcement a run created on the target and did not delete.
public struct Leftover: Sendable, Hashable {
    /// The announcement's id.
    public var id: String
    /// Its microchip number (unique to the run).
    public var microchipNumber: String?
    /// Why it is left: no admin token given, or the delete's answer.
    public var reason: String

    /// Creates a leftover.
    public init(id: String, microchipNumber: String?, reason: String) {
        self.id = id
        self.microchipNumber = microchipNumber
        self.reason = reason
    }
}

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

    /// Adds a remark to the report.
    public func note(_ text: String) {
        recording.withLock { $0.notes.append(text) }
    }

    /// Failing cases so far, over every contract.
    public var failureCount: Int {
        recording.withLock { $0.groups.reduce(0) { $0 + $1.contracts.reduce(0) { $0 + $1.casesFailed } } }
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

/// How often generated flow cases reached each entry of the boundary catalogue: the coverage
/// table of a `check` run.
public struct BoundaryCoverage: Sendable, Hashable {
    /// One catalogue entry's row.
    public struct Row: Sendable, Hashable {
        /// The field (protocol name).
        public var field: String
        /// The rule, with its values (`at most 15 digits kept`).
        public var rule: String
        /// The boundary class (`limit + 1`, `look-alike`, ...).
        public var boundaryClass: String
        /// The value planted (`16 digits`).
        public var detail: String
        /// Cases that carried the value and reached the field's step.
        public var hits: Int
        /// The share of cases required, in percent.
        public var requiredPercent: Double
        /// Whether the requirement is met.
        public var met: Bool

        /// A row.
        public init(field: String, rule: String, boundaryClass: String, detail: String, hits: Int, requiredPercent: Double, met: Bool) {
            self.field = field
            self.rule = rule
            self.boundaryClass = boundaryClass
            self.detail = detail
            self.hits = hits
            self.requiredPercent = requiredPercent
            self.met = met
        }
    }

    /// Cases counted (answered by the flow code under test).
    public var cases: Int
    /// Every entry, in catalogue order.
    public var rows: [Row]
    /// How the run ended: coverage met, the time budget reached, and so on.
    public var verdict: String

    /// A table.
    public init(cases: Int, rows: [Row], verdict: String) {
        self.cases = cases
        self.rows = rows
        self.verdict = verdict
    }

    /// Whether every entry met its requirement.
    public var isMet: Bool { rows.allSatisfy(\.met) }
}
