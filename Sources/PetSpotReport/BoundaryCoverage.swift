import Foundation
import PetSpotConcurrency
import PetSpotJSON

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
