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
    /// version 3 adds a failure's `steps` and the report's `findings`; version 4 adds `releases`
    /// (`can-i-deploy`'s matrix).
    public static let reportVersion = 4
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
    /// What `can-i-deploy` found for each release in the field (empty for the other commands).
    public var releases: [ReleaseOutcome] = []

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
