import Foundation
import PetSpotFlowGenerators
import PetSpotPropertyEngine
import PetSpotReport
import PetSpotRuntime

/// One group of contracts: one section of the report and one JUnit test suite.
///
/// Each group lives in its own file, in the target of its kind (PetSpotBackendGroups, ...), and is
/// listed once in ``ContractRegistry/groups`` (PetSpotRunner), which `check` and `run` both read.
/// Adding an endpoint's contracts is one new file and one line in the registry:
///
/// ```swift
/// struct HealthContracts: ContractGroup {
///     let name = "health"
///     func applies(to session: ContractSession) -> Bool { session.backend != nil }
///     func check(_ session: ContractSession) async throws(RunnerError) { ... }
/// }
/// ```
///
/// A group declares its contracts first (so the report lists them even when none of their
/// cases runs), then records every case it checks in the session's recorder. Groups start in
/// registry order; against a backend that runs them side by side (``BackendTarget/sideBySide``)
/// the groups between two that run alone (``runsAlone``) run at once, sharing the session's
/// concurrency, otherwise one after another. A group may run its own cases concurrently, up to
/// the session's concurrency.
package protocol ContractGroup: Sendable {
    /// The group's name in reports.
    var name: String { get }
    /// Whether the group has what it needs in `session`: an oracle for flow groups, a backend
    /// for backend groups.
    func applies(to session: ContractSession) -> Bool
    /// Checks the group's contracts in `session`.
    /// - Throws: ``RunnerError`` only when the whole run must stop (the target cannot be reached).
    func check(_ session: ContractSession) async throws(RunnerError)
    /// Whether the group runs with no other group under way: every group before it has ended
    /// and none after it has started.
    var runsAlone: Bool { get }
}

extension ContractGroup {
    /// By default a group may run beside others.
    package var runsAlone: Bool { false }
}
