import Foundation
import PetSpotConcurrency
import PetSpotJSON

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
