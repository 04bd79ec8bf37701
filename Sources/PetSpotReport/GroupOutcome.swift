import Foundation
import PetSpotConcurrency
import PetSpotJSON

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
