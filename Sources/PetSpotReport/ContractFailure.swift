import Foundation
import PetSpotConcurrency
import PetSpotJSON

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
