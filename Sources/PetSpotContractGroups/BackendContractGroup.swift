import Foundation
import PetSpotConcurrency
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel
import PetSpotReport
import PetSpotRuntime

/// A group of contracts on the backend: it declares its contracts and sends requests; the ritual
/// every backend group shares is done for it by ``GroupBackend``.
///
/// ```swift
/// struct DetailsContracts: BackendContractGroup {
///     let name = "details"
///     let surfaces: Set<MockDefect.Surface> = [.details]
///     func contracts(in session: ContractSession) -> [String] { [Self.unknown] }
///     func check(_ backend: GroupBackend) async throws(GroupStop) {
///         let read = try await backend.exchange(BackendTarget.getRequest("/api/v1/announcements/\(UUID())"))
///         backend.record(Self.unknown, backend.problem(read.response, Self.notFound), read, expected: "404")
///     }
/// }
/// ```
///
/// What the ritual guarantees, whatever the group does:
/// - every request is charged to the run's budget when it is sent (``GroupBackend/send(_:)``);
///   past the budget (or once the run is interrupted or past its deadline) sending throws
///   ``GroupStop/requestsRefused``, which ends the group, and every declared contract that no case
///   reached is skipped with the reason;
/// - a group whose requests time out ``BackendTarget/maxConsecutiveTimeouts`` times in a row is
///   stopped the same way (the breaker): a target that stopped answering costs a few timeouts per
///   group, not one per request;
/// - an id a target answered reaches a path only as a single path segment (``AnnouncementPath``,
///   ``GroupBackend/create(_:)``, ``GroupBackend/path(of:answeredIn:by:failing:)``);
/// - a group that creates announcements (``createsAnnouncements``) sends nothing when the target
///   could not delete them (no admin token, and the run not asked to leave them): its contracts
///   are skipped with the reason;
/// - microchip numbers are unique to the run (``GroupBackend/microchip()``);
/// - every announcement a create made is remembered from its answer, and every one a delete
///   removed, so cleanup deletes exactly what is left, whichever request created it;
/// - every case is recorded redacted, with a `curl` line against a backend reached over HTTP.
package protocol BackendContractGroup: ContractGroup {
    /// The surfaces of the contract the group checks: the planted backend defects of these
    /// surfaces are the ones it must catch (``PlantedDefectRuns``).
    var surfaces: Set<MockDefect.Surface> { get }
    /// Whether some planted defect of the group's surfaces fails each of its contracts (the
    /// planted-defect tests require it); `false` for the groups whose contracts are the captured
    /// catalogs' cases, one contract per case.
    var plantedDefectsCoverEveryContract: Bool { get }
    /// Whether the group creates announcements (on purpose: its setup or the reports it submits),
    /// which only the admin token can delete. Without the token such a group is skipped unless
    /// the run was asked to leave what it creates (``BackendTarget/createsWithoutAdminToken``).
    /// `true` unless a group says otherwise: a group that is not sure it creates nothing is one
    /// that creates.
    var createsAnnouncements: Bool { get }
    /// Every contract of the group, in report order, declared before any case runs.
    func contracts(in session: ContractSession) -> [String]
    /// Checks the group's contracts through `backend`.
    /// - Throws: ``GroupStop``: the budget refused a request, or the target cannot be reached.
    func check(_ backend: GroupBackend) async throws(GroupStop)
}

extension BackendContractGroup {
    /// Applies whenever the session has a backend.
    package func applies(to session: ContractSession) -> Bool { session.backend != nil }

    /// By default, a group creates announcements.
    package var createsAnnouncements: Bool { true }

    /// By default, every contract of a group with surfaces is failed by a planted defect.
    package var plantedDefectsCoverEveryContract: Bool { !surfaces.isEmpty }

    /// Declares the contracts, runs ``check(_:)-(GroupBackend)``, and skips the contracts no case
    /// reached when the budget ended the group. A group that creates announcements the target
    /// could not delete (``BackendTarget/createRefusal``) sends nothing: each of its contracts is
    /// skipped with the reason.
    package func check(_ session: ContractSession) async throws(RunnerError) {
        guard let target = session.backend else { return }
        let contracts = contracts(in: session)
        for contract in contracts { session.recorder.declare(group: name, contract: contract) }
        if createsAnnouncements, let refusal = target.createRefusal {
            for contract in contracts { session.recorder.skip(group: name, contract: contract, reason: refusal) }
            return
        }
        let backend = GroupBackend(group: name, session: session, target: target)
        do {
            try await check(backend)
        } catch .unreachable(let error) {
            throw error
        } catch {
            // The budget refused a request: the group ends here.
        }
        if backend.wasRefused {
            for contract in session.recorder.uncheckedContracts(group: name) {
                session.recorder.skip(group: name, contract: contract, reason: backend.stopReason)
            }
        }
    }
}
