import Foundation
import PetSpotContractGroups
import PetSpotFlowChecks
import PetSpotJSON
import PetSpotMockBackend
import PetSpotReport
import PetSpotRuntime

/// What holds across requests (backend-contract.md), checked by generated sequences against a
/// model of the store: what no single request shows (a stale cache, a soft delete, a microchip
/// that stays taken, a reused id, a silent limit, a lost insert, a race).
///
/// The engine generates programs over a few announcements at once (``SequencePlan``): creates
/// with a new microchip number, none, or one used before (held or freed); uploads and second
/// uploads of the same or another type; details; `GET` of the photo; lists around the
/// program's centre and unfiltered; admin deletes; writes after a delete; fills of many
/// announcements at one point; and, in a third of them, two or three clients sending their
/// branches at once after a common prefix. ``SequenceExecutor`` runs each and judges every
/// answer against ``StoreModel``; the branches must match some order of the same operations run
/// one after another (``Linearization``), production's documented race on one new microchip
/// excepted (one 201, the other 409, or 500 in the production profile). A failing program is
/// shrunk to the fewest operations that still break the same contract (``SequenceExplorer``) and
/// reported as numbered steps, each with its client, answer and `curl` line.
///
/// Lists compare only the program's own announcements; rows the run did not create are checked
/// for what the apps decode. Every program deletes what it created when it ends, so the group
/// needs the admin token and is skipped without one.
///
/// Programs run side by side within `--concurrency` (``SequenceExplorer``), each around its own
/// centre, so a staging backend's latency is paid once per lane, not once per program.
///
/// **Budget.** Exploring may send ``exploringAllowance`` requests and shrinking
/// ``shrinkingAllowance`` (every request counted, the deletes that end each program included),
/// and together at most what the run's budget leaves beside ``reserve`` for the groups after
/// this one; a default `run` (2,000) has room for both. Until a program fails, exploring may
/// also spend half the shrinking allowance (``SequenceExplorer/Allowance``): a passing run looks
/// longer, and a failure found late shrinks in the half kept.
package struct SequenceContracts: BackendContractGroup {
    package let name = "sequences and concurrency"
    /// Alone: its allowance is what the groups before it left of the budget, and the races it
    /// finds must be between its own clients.
    package let runsAlone = true
    package let surfaces: Set<MockDefect.Surface> = [.sequences, .concurrency]

    /// The group.
    package init() {}

    /// Requests exploring may send.
    package static let exploringAllowance = 950
    /// Requests shrinking may send, for every failure together.
    static let shrinkingAllowance = 470
    /// Lanes of programs at most, whatever `--concurrency` allows (each is a thread).
    static let maxLanes = 16
    /// Requests left to the groups after this one (the routing group sends about 20).
    package static let reserve = 60

    package func contracts(in session: ContractSession) -> [String] { SequenceContract.allCases.map(\.rawValue) }

    /// The allowances the budget leaves: the defaults, or what is left split in their proportion.
    static func allowance(sent: Int, limit: Int) -> SequenceExplorer.Allowance {
        let available = max(0, min(limit - sent - reserve, exploringAllowance + shrinkingAllowance))
        let exploring = min(exploringAllowance, available * exploringAllowance / (exploringAllowance + shrinkingAllowance))
        return SequenceExplorer.Allowance(exploring: exploring, shrinking: min(shrinkingAllowance, available - exploring))
    }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        guard backend.adminToken != nil else {
            for contract in SequenceContract.allCases {
                backend.skip(contract.rawValue, reason: "no --admin-token given: every sequence deletes what it created when it ends")
            }
            return
        }
        let transport = backend.target.transport
        let allowance = Self.allowance(sent: transport.requestsSent, limit: transport.limit)
        guard allowance.exploring >= 60 else {
            for contract in SequenceContract.allCases {
                backend.skip(contract.rawValue, reason: "the request budget (--max-requests \(transport.limit)) leaves too few requests for sequences")
            }
            return
        }
        // Parallel branches send a request per client at once: no more than --concurrency allows.
        let clients = min(3, backend.concurrency)
        if clients < 2 {
            backend.skip(SequenceContract.concurrent.rawValue, reason: "--concurrency \(backend.concurrency) allows no requests at once")
        }
        // Programs side by side (but against `check`'s in-process mock): as many lanes as requests
        // may be in flight, each program taking one of them, or one per client.
        let explorer = SequenceExplorer(
            executor: SequenceExecutor(backend: backend), seed: backend.session.seed ^ 0x5345_5155_454E_4345, allowance: allowance,
            maxClients: clients, lanes: backend.target.sideBySide ? min(backend.concurrency, Self.maxLanes) : 1,
            slots: backend.concurrency)
        let started = ContinuousClock.now
        let outcome = await runOnDedicatedThread { explorer.run() }
        record(outcome, allowance: allowance, seconds: FlowContracts.seconds(since: started), backend: backend)
        if outcome.refused { throw .requestsRefused }
    }

    /// Records every contract's cases (each charged the group's time) and a note with the figures.
    private func record(_ outcome: SequenceExplorer.Outcome, allowance: SequenceExplorer.Allowance, seconds: Double, backend: GroupBackend) {
        let recorder = backend.session.recorder
        for contract in SequenceContract.allCases {
            let failing = outcome.failing[contract] ?? 0, passing = outcome.passes[contract] ?? 0
            guard failing + passing > 0 else {
                if !outcome.refused && backend.session.recorder.uncheckedContracts(group: name).contains(contract.rawValue) {
                    backend.skip(contract.rawValue, reason: "none of the \(outcome.programs) sequences of this run reached it")
                }
                continue
            }
            let shown = outcome.found.filter { $0.failure.contract == contract }.map { failure($0, backend: backend) }
            recorder.record(
                group: name, contract: contract.rawValue, casesRun: failing + passing, casesFailed: failing, failures: shown, seconds: seconds)
        }
        recorder.describe(group: name,
            "\(outcome.programs) sequences of up to \(outcome.longestProgram) operations (\(outcome.operations) in all; "
                + "\(outcome.concurrentPrograms) with 2 or 3 clients at once, \(outcome.scalePrograms) filling 10 or more announcements "
                + "near one point); \(outcome.exploringRequests) requests exploring, \(outcome.shrinkingRequests) shrinking "
                + "(allowances \(allowance.exploring) and \(allowance.shrinking); exploring may borrow "
                + "\(allowance.exploringWhileNothingFails - allowance.exploring) of shrinking's while nothing fails)"
                + (outcome.mostProgramsAtOnce > 1 ? "; up to \(outcome.mostProgramsAtOnce) sequences at once" : ""))
    }

    /// The report's failure for a shrunk program: the failing step's request and answer, and
    /// every step numbered with its client and a `curl` line.
    private func failure(_ found: SequenceExplorer.Found, backend: GroupBackend) -> ContractFailure {
        let target = backend.target
        let redactor = target.redactor
        let curl = target.baseURL.map { CurlReproduction(baseURL: $0, adminToken: target.adminToken, managementPasswords: target.knownPasswords) }
        let failing = found.failure.steps[found.failure.failingIndex]
        let shrunk = found.shrunk != found.original
        var caseId = "sequence \(found.programNumber) of the run (\(found.original.operationCount) operations)"
        caseId += shrunk
            ? ", shrunk to \(found.shrunk.operationCount) in \(found.shrinkSteps) steps (\(found.replays) replays)"
            : ", not shrunk further (\(found.replays) replays)"
        var failure = ContractFailure(
            message: found.failure.message + (found.shrinkNote.map { " (\($0))" } ?? ""), caseId: caseId,
            request: failing.exchange.map { redactor.request($0.request) }, expected: found.failure.expected,
            actual: failing.exchange.map { exchange in
                switch exchange.response {
                case .success(let response): redactor.response(response)
                case .failure(let error): "no answer: \(error.description)"
                }
            },
            shrunkInput: shrunk ? Optional(found.shrunk.json) : Optional<JSONValue>.none, originalInput: found.original.json, seed: backend.session.seed,
            replay: backend.session.replay, reproduce: failing.exchange.flatMap { exchange in curl.map { $0.command(for: exchange.request) } })
        failure.steps = found.failure.steps.map { step in
            FailureStep(
                lane: step.lane.map { "client \($0 + 1)" }, action: step.action, outcome: step.outcome,
                request: step.exchange.map { redactor.request($0.request) },
                reproduce: step.exchange.flatMap { exchange in curl.map { $0.command(for: exchange.request) } })
        }
        return failure
    }
}
