import Foundation
import PetSpotConcurrency
import PetSpotJSON
import PetSpotPropertyEngine
import PetSpotRuntime

/// Explores programs with the package's engine and shrinks each distinct failure, within two
/// request allowances (exploring, shrinking); synchronous, so run it on a thread of its own
/// (``runOnDedicatedThread(_:)``): each program's requests are sent from an async task and
/// waited for (``blockingAwait(_:)``).
///
/// **Exploring.** Rounds of one property over ``SequencePlan/drawnPrograms(maxClients:withFill:)``,
/// each from its own seed (the run's, mixed with the round), ``programsPerRound`` programs a round
/// so that programs grow from a few operations to a dozen within a round. A failing program whose
/// contract already failed is counted, not shown again; a new one ends the round and is shrunk.
///
/// **Shrinking.** A program is a function of its choice sequence, so the engine's shrinker
/// shrinks it as it shrinks any value (``Gen/shrink(_:size:failure:budget:judge:)``): its passes
/// delete steps and clients' branches, lower a fill's count, drop a microchip number, and turn
/// steps into simpler ones, each candidate a program that still replays validly (a step naming
/// an announcement whose create went is skipped). A candidate breaks the contract when its run
/// breaks the same one (``judge(_:contract:costLeft:run:)``); a program that failed at a step of
/// its prefix read nothing past it, so the steps after it go at once. Every candidate the engine
/// cannot decide is sent to the backend and charged to the shrinking allowance, its budget.
final class SequenceExplorer: Sendable {
    /// Requests each phase may send.
    struct Allowance: Sendable {
        var exploring: Int
        var shrinking: Int
    }

    /// A failure, shrunk.
    struct Found: Sendable {
        var failure: ProgramFailure
        var original: SequenceProgram
        var shrunk: SequenceProgram
        /// The program's position among those explored.
        var programNumber: Int
        var shrinkSteps: Int
        var replays: Int
        /// Why shrinking stopped, when not at a minimum.
        var shrinkNote: String?
    }

    /// What the exploration found.
    struct Outcome: Sendable {
        var found: [Found] = []
        /// Programs explored (shrinking replays excepted), and of them with parallel branches and
        /// with many announcements near one point.
        var programs = 0, concurrentPrograms = 0, scalePrograms = 0, operations = 0
        var longestProgram = 0
        /// Programs that exercised each contract and kept it, and that broke it.
        var passes: [SequenceContract: Int] = [:]
        var failing: [SequenceContract: Int] = [:]
        /// Requests sent exploring and shrinking.
        var exploringRequests = 0, shrinkingRequests = 0
        /// Whether the run's budget refused a program (or the run was interrupted).
        var refused = false
        /// Whether a request got no answer: exploring stops there.
        var unanswered = false
    }

    private struct State: Sendable {
        var outcome = Outcome()
        /// The failure of the program that ended the round.
        var found: (program: SequenceProgram, failure: ProgramFailure, number: Int)?

        /// Counts an explored program.
        mutating func count(_ program: SequenceProgram) {
            outcome.programs += 1
            outcome.operations += program.operationCount
            outcome.longestProgram = max(outcome.longestProgram, program.operationCount)
            if program.isConcurrent { outcome.concurrentPrograms += 1 }
            if program.isScale { outcome.scalePrograms += 1 }
        }
    }

    private struct SequenceFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs programs.
    let executor: SequenceExecutor
    /// The seed of the first round.
    let seed: UInt64
    /// Requests per phase.
    let allowance: Allowance
    /// Distinct failures shrunk and shown at most.
    let maxFailures: Int
    /// Clients sending at once at most (`run --concurrency`).
    let maxClients: Int
    private let state = Locked(State())

    /// Programs per round of the property (sizes grow over a round).
    static let programsPerRound = 25

    init(executor: SequenceExecutor, seed: UInt64, allowance: Allowance, maxFailures: Int = 3, maxClients: Int = 3) {
        self.maxClients = maxClients
        self.executor = executor
        self.seed = seed
        self.allowance = allowance
        self.maxFailures = maxFailures
    }

    /// Explores until the exploring allowance is spent, the budget refuses, or `maxFailures`
    /// distinct failures are found.
    func run() -> Outcome {
        var round: UInt64 = 0
        while round < 40 {
            let stop = StopSignal()
            let filled = state.withLock { $0.outcome.scalePrograms > 0 }
            let programs = SequencePlan.drawnPrograms(maxClients: maxClients, withFill: !filled)
            let property = Property("sequences", programs, verifying: { drawn in try self.explore(drawn.program, stop: stop) })
            var configuration = PropertyConfiguration(
                cases: Self.programsPerRound, seed: seed &+ round &* 0x9E37_79B9_7F4A_7C15, maxSize: 100, shrinks: false,
                readsEnvironment: false)
            configuration.stopSignal = stop
            let result = property.check(configuration)
            if let found = state.withLock({ state -> (program: SequenceProgram, failure: ProgramFailure, number: Int)? in
                defer { state.found = nil }
                return state.found
            }), let failing = result.failure {
                shrink(found.program, failure: found.failure, number: found.number, choices: failing.originalChoices, size: failing.size, of: programs)
            }
            let (outcome, spent) = state.withLock { ($0.outcome, $0.outcome.exploringRequests) }
            if outcome.refused || outcome.unanswered || outcome.found.count >= maxFailures || spent >= allowance.exploring - 8 { break }
            if case .stopped = result { break }
            round += 1
        }
        return state.withLock { $0.outcome }
    }

    /// Requests a program may need: its own, and as many again when a concurrent failure is run
    /// once more one operation after another (``SequenceExecutor/run(_:classifying:)``).
    static func cost(_ program: SequenceProgram, classifying: Bool = true) -> Int {
        program.requestCost * (program.isConcurrent && classifying ? 2 : 1)
    }

    /// The property's body: runs `program`, counts what it exercised, and fails (ending the
    /// round) when it breaks a contract no earlier program broke.
    private func explore(_ program: SequenceProgram, stop: StopSignal) throws {
        let left = state.withLock { allowance.exploring - $0.outcome.exploringRequests }
        guard Self.cost(program) <= left else {
            stop.stop()
            return
        }
        let executor = self.executor
        let outcome = blockingAwait { await executor.run(program) }
        let failed = state.withLock { state -> SequenceFailed? in
            state.outcome.exploringRequests += outcome.requests
            switch outcome {
            case .refused:
                state.outcome.refused = true
                stop.stop()
            case .passed(let exercised, _):
                state.count(program)
                for contract in exercised { state.outcome.passes[contract, default: 0] += 1 }
            case .failed(let failure, _) where failure.noAnswer:
                // The target stopped answering: shown as it is, nothing more sent.
                state.count(program)
                state.outcome.failing[failure.contract, default: 0] += 1
                state.outcome.unanswered = true
                state.outcome.found.append(Found(
                    failure: failure, original: program, shrunk: program, programNumber: state.outcome.programs, shrinkSteps: 0, replays: 0,
                    shrinkNote: "not shrunk: the target stopped answering"))
                stop.stop()
            case .failed(let failure, _):
                state.count(program)
                state.outcome.failing[failure.contract, default: 0] += 1
                guard !state.outcome.found.contains(where: { $0.failure.contract == failure.contract }) else { return nil }
                state.found = (program, failure, state.outcome.programs)
                return SequenceFailed(description: failure.message)
            }
            return nil
        }
        if let failed { throw failed }
    }

    /// How many times a concurrent candidate runs before it counts as passing.
    static let concurrentRuns = 4

    /// Shrinks a failure within what is left of the shrinking allowance, and records it.
    private func shrink(
        _ program: SequenceProgram, failure: ProgramFailure, number: Int, choices: [UInt64], size: Int, of programs: Gen<DrawnProgram>
    ) {
        let executor = self.executor
        let left = state.withLock { allowance.shrinking - $0.outcome.shrinkingRequests }
        let shrunk = try? Self.shrink(failure, of: program, choices: choices, size: size, generator: programs, allowance: left) { candidate, classifying in
            blockingAwait { await executor.run(candidate, classifying: classifying) }
        }
        let note: String? = switch shrunk?.stopReason {
        case .minimal?: nil
        case .replayBudget?: "shrinking stopped when its allowance of \(allowance.shrinking) requests was spent; a smaller sequence may fail too"
        case let reason?: "shrinking stopped (\(reason)); a smaller sequence may fail too"
        case nil: "not shrunk: its choices no longer draw it"
        }
        state.withLock { state in
            state.outcome.shrinkingRequests += shrunk?.cost ?? 0
            state.outcome.found.append(Found(
                failure: shrunk?.failure ?? failure, original: program, shrunk: shrunk?.value.program ?? program, programNumber: number,
                shrinkSteps: shrunk?.steps ?? 0, replays: shrunk?.replays ?? 0, shrinkNote: note))
        }
    }

    /// The engine's budget for shrinking one failure: the requests left of the shrinking
    /// allowance, which every candidate sent is charged.
    static func shrinkBudget(requests: Int) -> ShrinkBudget {
        ShrinkBudget(maxCost: requests)
    }

    /// Shrinks `failure` of `program`, drawn by `generator` from `choices` at `size`, with the
    /// engine's shrinker, sending candidates through `run` (a program, and whether a failure
    /// among clients at once is run again one operation after another to classify it) within
    /// `allowance` requests. No program runs twice.
    static func shrink(
        _ failure: ProgramFailure, of program: SequenceProgram, choices: [UInt64], size: Int, generator: Gen<DrawnProgram>, allowance: Int,
        run: @escaping (SequenceProgram, _ classifying: Bool) -> ProgramOutcome
    ) throws -> ShrunkFailure<DrawnProgram, ProgramFailure> {
        let contract = failure.contract
        var failing = [program: failure]
        var passing: Set<SequenceProgram> = []
        return try generator.shrink(choices, size: size, failure: failure, budget: shrinkBudget(requests: allowance)) { drawn, left in
            let candidate = drawn.program
            if let known = failing[candidate] { return .failed(known, cost: 0, readChoices: drawn.choicesRead(by: known)) }
            if passing.contains(candidate) { return .passed(cost: 0) }
            let judged = judge(candidate, contract: contract, costLeft: left, run: run)
            switch judged {
            case .failed(let found, _, _):
                failing[candidate] = found
                return .failed(found, cost: judged.cost, readChoices: drawn.choicesRead(by: found))
            case .passed: passing.insert(candidate)
            case .stop: break
            }
            return judged
        }
    }

    /// Whether `candidate` breaks `contract`, sending it through `run` only if it can, and only
    /// within `costLeft` requests: a program with no clients at once cannot break the concurrency
    /// contract. A race may not show on one run (a loaded machine can keep two clients' requests
    /// apart): a concurrent candidate that passed runs again, up to ``concurrentRuns`` in all, as
    /// quickcheck-state-machine repeats a parallel candidate, and one failing run is enough.
    static func judge(
        _ candidate: SequenceProgram, contract: SequenceContract, costLeft: Int, run: (SequenceProgram, _ classifying: Bool) -> ProgramOutcome
    ) -> ShrinkJudgement<ProgramFailure> {
        if candidate.operations.isEmpty || (contract == .concurrent && !candidate.isConcurrent) { return .passed(cost: 0) }
        // Shrinking a concurrency failure keeps concurrent candidates concurrent failures without
        // running them again one after another (which only tells what kind of failure it is).
        let classifying = contract != .concurrent
        let cost = Self.cost(candidate, classifying: classifying)
        guard cost <= costLeft else { return .stop(cost: 0) }
        var outcome = run(candidate, classifying)
        var runs = 1
        while candidate.isConcurrent, runs < concurrentRuns, case .passed(_, let sent) = outcome, cost <= costLeft - sent {
            outcome = run(candidate, classifying).adding(requests: sent)
            runs += 1
        }
        switch outcome {
        case .failed(let failure, let requests) where failure.noAnswer: return .stop(cost: requests)
        case .failed(let failure, let requests) where failure.contract == contract: return .failed(failure, cost: requests)
        case .refused: return .stop(cost: 0)
        case .passed(_, let requests), .failed(_, let requests): return .passed(cost: requests)
        }
    }
}

extension DrawnProgram {
    /// How many choices a run that failed as `failure` read: up to the end of the failing step
    /// when it is one the program ran one after another; all of them otherwise (`nil`).
    func choicesRead(by failure: ProgramFailure) -> Int? {
        guard !failure.concurrent, failure.failingIndex < min(program.prefix.count, stepChoices.count) else { return nil }
        return stepChoices[failure.failingIndex].upperBound
    }
}

extension ShrinkJudgement {
    /// What judging the candidate spent.
    var cost: Int {
        switch self {
        case .failed(_, let cost, _), .passed(let cost), .stop(let cost): cost
        }
    }
}

extension ProgramOutcome {
    /// The same outcome with `requests` more requests counted.
    func adding(requests more: Int) -> ProgramOutcome {
        switch self {
        case .passed(let exercised, let requests): .passed(exercised: exercised, requests: requests + more)
        case .failed(let failure, let requests): .failed(failure, requests: requests + more)
        case .refused: .refused
        }
    }
}
