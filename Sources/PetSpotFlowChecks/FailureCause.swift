import Foundation
import PetSpotJSON
import PetSpotModel
import PetSpotFlowGenerators
import PetSpotReport

/// What makes a failing case fail: the contract, the fields that differ and the kind of
/// difference. Cases with the same cause are one defect: `check` shrinks and prints each cause
/// once, the way Hypothesis reports several distinct bugs of one run.
package struct FailureCause: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The contract that fails.
    package let contract: String
    /// The fields involved (protocol names; payload keys map to their field), sorted.
    package let fields: [String]
    /// The kind of difference, e.g. `accepts a value the rules refuse`.
    package let kind: String

    /// A cause of `contract`.
    package init(contract: String, fields: [String], kind: String) {
        self.contract = contract
        self.fields = fields.sorted()
        self.kind = kind
    }

    /// `fields: kind` (`(no field): kind` when none is involved).
    package var description: String {
        (fields.isEmpty ? "(no field)" : fields.joined(separator: ", ")) + ": " + kind
    }

    package static func < (lhs: FailureCause, rhs: FailureCause) -> Bool {
        (lhs.contract, lhs.fields.joined(separator: ","), lhs.kind) < (rhs.contract, rhs.fields.joined(separator: ","), rhs.kind)
    }
}
