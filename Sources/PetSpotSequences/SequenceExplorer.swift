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
/// **Exploring.** Rounds of one property over ``SequencePlan/programs()``, each from its own
/// seed (the run's, mixed with the round), ``programsPerRound`` programs a round so that
/// programs grow from a few operations to a dozen within a round. A failing program whose
/// contract already failed is counted, not shown again; a new one ends the round and is shrunk.
///
/// **Shrinking.** ``ProgramShrinker`` shrinks the failing program on its operations, as
/// quickcheck-state-machine shrinks a command list: it removes operations one at a time (a
/// removal that leaves later operations without their announcement drops them too), lowers a
/// fill's count and simplifies what remains, keeping each candidate that breaks the same
/// contract. Every candidate is sent to the backend, so this costs requests the engine's
/// shrinking on choice sequences would spend many more of (it reinterprets later draws when an
/// earlier one goes, and most such candidates pass). The shrinking allowance ends it early (the
/// report says so).
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
            let programs = SequencePlan.programs(maxClients: maxClients, withFill: !filled)
            let property = Property("sequences", programs, verifying: { program in try self.explore(program, stop: stop) })
            var configuration = PropertyConfiguration(
                cases: Self.programsPerRound, seed: seed &+ round &* 0x9E37_79B9_7F4A_7C15, maxSize: 100, shrinks: false,
                readsEnvironment: false)
            configuration.stopSignal = stop
            let result = property.check(configuration)
            if let found = state.withLock({ state -> (program: SequenceProgram, failure: ProgramFailure, number: Int)? in
                defer { state.found = nil }
                return state.found
            }) {
                shrink(found.program, failure: found.failure, number: found.number)
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
    private func shrink(_ program: SequenceProgram, failure: ProgramFailure, number: Int) {
        let executor = self.executor
        let contract = failure.contract
        // Shrinking a concurrency failure keeps concurrent candidates concurrent failures without
        // running them again one after another (which only tells what kind of failure it is).
        let classifying = contract != .concurrent
        let shrinker = ProgramShrinker(contract: contract) { candidate in
            let left = self.state.withLock { self.allowance.shrinking - $0.outcome.shrinkingRequests }
            guard Self.cost(candidate, classifying: classifying) <= left else { return .spent }
            var outcome = blockingAwait { await executor.run(candidate, classifying: classifying) }
            // A race may not show on one run (a loaded machine can keep two clients' requests
            // apart): a concurrent candidate that passed runs again, up to `concurrentRuns` in all,
            // as quickcheck-state-machine repeats a parallel candidate.
            var runs = 1
            while candidate.isConcurrent, runs < Self.concurrentRuns, case .passed(_, let sent) = outcome,
                Self.cost(candidate, classifying: classifying) <= left - sent
            {
                outcome = blockingAwait { await executor.run(candidate, classifying: classifying) }.adding(requests: sent)
                runs += 1
            }
            self.state.withLock { $0.outcome.shrinkingRequests += outcome.requests }
            switch outcome {
            case .failed(let failure, _) where failure.noAnswer: return .spent
            case .failed(let failure, _) where failure.contract == contract: return .failed(failure)
            case .refused: return .spent
            default: return .passed
            }
        }
        let result = shrinker.shrink(program, failure: failure)
        let note: String? = result.spent
            ? "shrinking stopped when its allowance of \(allowance.shrinking) requests was spent; a smaller sequence may fail too" : nil
        state.withLock { state in
            state.outcome.found.append(Found(
                failure: result.failure, original: program, shrunk: result.program, programNumber: number, shrinkSteps: result.steps,
                replays: result.replays, shrinkNote: note))
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
