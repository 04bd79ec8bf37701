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
/// **Side by side.** ``lanes`` threads each run rounds (the next round number not taken), and
/// their programs run at once within ``slots`` requests in flight: a program takes one slot,
/// one with clients at once a slot per client, while it runs. Programs share nothing: each has
/// its own centre, announcements and microchip numbers (``SequenceExecutor``), and its lists
/// judge only its own rows. The lanes share the allowances (a program starts only if its cost
/// fits beside what the programs under way may still spend), the failures found and the stop.
/// With one lane the run is the serial one: round after round, the same programs every time for
/// a seed. With more, the programs of each round are still a function of the seed, and a failure
/// replays from its program; what is not fixed is which lane takes which round, hence which
/// failure is found first, the programs counted before the allowance runs out, whether a round
/// draws fills (until a program filled) and the program numbers the report shows.
///
/// **Shrinking.** A program is a function of its choice sequence, so the engine's shrinker
/// shrinks it as it shrinks any value (``Gen/shrink(_:size:failure:budget:judge:)``): its passes
/// delete steps and clients' branches, lower a fill's count, drop a microchip number, and turn
/// steps into simpler ones, each candidate a program that still replays validly (a step naming
/// an announcement whose create went is skipped). A candidate breaks the contract when its run
/// breaks the same one (``judge(_:contract:costLeft:run:)``); a program that failed at a step of
/// its prefix read nothing past it, so the steps after it go at once. Every candidate the engine
/// cannot decide is sent to the backend and charged to the shrinking allowance, its budget.
/// A failure found beside other programs is first run again alone; one that passes alone is
/// kept aside, and the programs after it run one at a time, so the next failure of the kind
/// shows, and shrinks, on its own.
/// One failure shrinks at a time, alone: no lane starts a program until it is shrunk, so a
/// candidate's answers owe nothing to another program's requests (a cache a create elsewhere
/// cleared, an id another create took, two programs' requests in one race window).
final class SequenceExplorer: Sendable {
    /// Requests each phase may send.
    /// While no failure is found, exploring may also send the shrinking allowance's requests
    /// beyond ``shrinkingKept`` of it: a run that passes spends its budget looking, and a failure
    /// found late still has that share to shrink in (less what exploring borrowed).
    struct Allowance: Sendable {
        var exploring: Int
        var shrinking: Int

        /// The part of the shrinking allowance exploring never borrows.
        var shrinkingKept: Int { (shrinking + 1) / 2 }
        /// What exploring may send while no failure is found.
        var exploringWhileNothingFails: Int { exploring + shrinking - shrinkingKept }
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
        /// The most programs that ran at once, and the most slots they took together.
        var mostProgramsAtOnce = 0, mostSlotsAtOnce = 0
    }

    /// A failure that ended a lane's round, waiting to be shrunk.
    private struct Pending: Sendable {
        var program: SequenceProgram
        var failure: ProgramFailure
        var number: Int
        /// Whether another program ran while it did.
        var alongside: Bool
    }

    private struct State: Sendable {
        var outcome = Outcome()
        /// The next round a lane takes.
        var nextRound: UInt64 = 0
        /// Programs under way (by start), the slots they take, and the exploring requests they may
        /// still send.
        var running: Set<Int> = [], slotsTaken = 0, reservedExploring = 0
        /// Programs started, and those under way that another program ran beside.
        var started = 0
        var overlapped: Set<Int> = []
        /// Failures that broke their contract only beside other programs, shown when no failure
        /// alone does.
        var besideOthers: [SequenceContract: Found] = [:]
        /// Contracts whose first failure is found (shrunk or waiting to be).
        var claimed: Set<SequenceContract> = []
        /// Failures waiting to shrink or shrinking; no program starts while there is one.
        var shrinksPending = 0
        var shrinking = false
        /// No lane starts another program or round.
        var halted = false
        /// Programs run one at a time from now on: a failure broke its contract only beside
        /// others, so the next one must show alone to be shrunk.
        var oneAtATime = false

        /// Whether a program has broken a contract (shown, shrinking, or kept aside).
        var hasFailure: Bool { !claimed.isEmpty || !besideOthers.isEmpty || shrinksPending > 0 }

        /// Requests exploring may send in all: ``Allowance/exploringWhileNothingFails`` until a
        /// failure, then the exploring allowance.
        func exploringLimit(_ allowance: Allowance) -> Int {
            hasFailure ? allowance.exploring : allowance.exploringWhileNothingFails
        }

        /// Requests left to shrink in: the shrinking allowance, less what shrinking sent and what
        /// exploring borrowed of it.
        func shrinkingLeft(_ allowance: Allowance) -> Int {
            allowance.shrinking - outcome.shrinkingRequests - max(0, outcome.exploringRequests - allowance.exploring)
        }

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
    /// Threads running rounds at once.
    let lanes: Int
    /// Requests in flight at most: a program takes one slot, or one per client.
    let slots: Int
    private let state = Locked(State())

    /// Programs per round of the property (sizes grow over a round).
    static let programsPerRound = 25
    /// Rounds of a run at most, over every lane.
    static let maxRounds: UInt64 = 40

    /// An explorer whose programs run on `lanes` lanes within `slots` requests in flight (by
    /// default one lane, one program at a time); `maxClients` must not exceed `slots`.
    init(
        executor: SequenceExecutor, seed: UInt64, allowance: Allowance, maxFailures: Int = 3, maxClients: Int = 3, lanes: Int = 1,
        slots: Int? = nil
    ) {
        self.maxClients = maxClients
        self.executor = executor
        self.seed = seed
        self.allowance = allowance
        self.maxFailures = maxFailures
        self.lanes = max(1, lanes)
        self.slots = max(slots ?? maxClients, maxClients, 1)
    }

    /// Explores until the exploring allowance is spent (with what it may borrow, see
    /// ``Allowance``), the budget refuses, or `maxFailures` distinct failures are found.
    func run() -> Outcome {
        if lanes == 1 {
            runLane()
        } else {
            let finished = Locked(0)
            for _ in 0..<lanes {
                let thread = Thread { [self] in
                    runLane()
                    finished.withLock { $0 += 1 }
                }
                thread.stackSize = 16 * 1024 * 1024
                thread.start()
            }
            let lanes = self.lanes
            while !finished.withLock(waitingUntil: Date(timeIntervalSinceNow: 3600), for: { $0 == lanes }, { _, done in done }) {}
        }
        return state.withLock { state in
            for (contract, found) in state.besideOthers.sorted(by: { $0.value.programNumber < $1.value.programNumber })
            where !state.outcome.found.contains(where: { $0.failure.contract == contract }) {
                state.outcome.found.append(found)
            }
            return state.outcome
        }
    }

    /// One lane: takes rounds until the run halts or no round is left, shrinking the failure
    /// that ends a round.
    private func runLane() {
        while let (round, withFill) = state.withLock({ state -> (UInt64, Bool)? in
            guard !state.halted, state.nextRound < Self.maxRounds else { return nil }
            defer { state.nextRound += 1 }
            return (state.nextRound, state.outcome.scalePrograms == 0)
        }) {
            let stop = StopSignal()
            let found = Locked<Pending?>(nil)
            let programs = SequencePlan.drawnPrograms(maxClients: maxClients, withFill: withFill)
            let property = Property("sequences", programs, verifying: { drawn in try self.explore(drawn.program, stop: stop, found: found) })
            var configuration = PropertyConfiguration(
                cases: Self.programsPerRound, seed: seed &+ round &* 0x9E37_79B9_7F4A_7C15, maxSize: 100, shrinks: false,
                readsEnvironment: false)
            configuration.stopSignal = stop
            let result = property.check(configuration)
            if let pending = found.withLock({ $0 }) {
                shrinkAlone(pending, choices: result.failure?.originalChoices, size: result.failure?.size ?? 0, of: programs)
            }
            let halt = state.withLock { state -> Bool in
                let outcome = state.outcome
                if outcome.refused || outcome.unanswered || state.claimed.count >= maxFailures
                    || outcome.exploringRequests + state.reservedExploring >= state.exploringLimit(allowance) - 8
                {
                    state.halted = true
                }
                return state.halted
            }
            if halt { break }
            if case .stopped = result { break }
        }
    }

    /// Shrinks `pending` once no other program runs and no other failure shrinks; no program
    /// starts meanwhile.
    private func shrinkAlone(_ pending: Pending, choices: [UInt64]?, size: Int, of programs: Gen<DrawnProgram>) {
        while !state.withLock(
            waitingUntil: Date(timeIntervalSinceNow: 3600), for: { $0.running.isEmpty && !$0.shrinking },
            { state, ready in
                if ready { state.shrinking = true }
                return ready
            })
        {}
        if let choices, !pending.alongside || reproducesAlone(pending) {
            shrink(pending.program, failure: pending.failure, number: pending.number, choices: choices, size: size, of: programs)
        }
        state.withLock { state in
            if choices == nil {
                state.outcome.found.append(Found(
                    failure: pending.failure, original: pending.program, shrunk: pending.program, programNumber: pending.number,
                    shrinkSteps: 0, replays: 0, shrinkNote: "not shrunk: the engine kept no choices for it"))
            }
            state.shrinking = false
            state.shrinksPending -= 1
        }
    }
    /// Requests a program may need: its own, and as many again when a concurrent failure is run
    /// once more one operation after another (``SequenceExecutor/run(_:classifying:)``).
    static func cost(_ program: SequenceProgram, classifying: Bool = true) -> Int {
        program.requestCost * (program.isConcurrent && classifying ? 2 : 1)
    }

    /// Whether `pending`, found while other programs ran, breaks its contract again run alone
    /// (charged to the shrinking allowance). One that does not needed another program's requests
    /// (a race between announcements, a cache another program's list filled): it is kept aside
    /// unshrunk, its contract free for a failure that shows alone, and shown only if none does;
    /// from then on programs run one at a time, so that the next failure shows alone.
    private func reproducesAlone(_ pending: Pending) -> Bool {
        let executor = self.executor
        let left = state.withLock { $0.shrinkingLeft(allowance) }
        let judged = Self.judge(pending.program, contract: pending.failure.contract, costLeft: left) { candidate, classifying in
            blockingAwait { await executor.run(candidate, classifying: classifying) }
        }
        let alone: Bool
        if case .passed = judged { alone = false } else { alone = true }
        state.withLock { state in
            state.outcome.shrinkingRequests += judged.cost
            guard !alone else { return }
            state.claimed.remove(pending.failure.contract)
            state.oneAtATime = true
            if state.besideOthers[pending.failure.contract] == nil {
                state.besideOthers[pending.failure.contract] = Found(
                    failure: pending.failure, original: pending.program, shrunk: pending.program, programNumber: pending.number,
                    shrinkSteps: 0, replays: 1,
                    shrinkNote: "not shrunk: run alone it passed, so it broke the contract only beside other sequences running at once")
            }
        }
        return alone
    }

    /// The property's body: waits for its slots (none while a failure shrinks), runs `program`,
    /// counts what it exercised, and fails (ending the round, `found` set) when it breaks a
    /// contract no earlier program broke.
    private func explore(_ program: SequenceProgram, stop: StopSignal, found: Locked<Pending?>) throws {
        let cost = Self.cost(program)
        let need = program.isConcurrent ? max(1, program.lanes.count) : 1
        let started = state.withLock(
            waitingUntil: Date(timeIntervalSinceNow: 3600),
            for: { $0.halted || ($0.shrinksPending == 0 && $0.slotsTaken + need <= slots && (!$0.oneAtATime || $0.running.isEmpty)) },
            { state, ready -> Int? in
                let left = state.exploringLimit(allowance) - state.outcome.exploringRequests - state.reservedExploring
                guard ready, !state.halted, state.claimed.count < maxFailures, cost <= left else { return nil }
                state.started += 1
                if !state.running.isEmpty {
                    state.overlapped.formUnion(state.running)
                    state.overlapped.insert(state.started)
                }
                state.running.insert(state.started)
                state.slotsTaken += need
                state.reservedExploring += cost
                state.outcome.mostProgramsAtOnce = max(state.outcome.mostProgramsAtOnce, state.running.count)
                state.outcome.mostSlotsAtOnce = max(state.outcome.mostSlotsAtOnce, state.slotsTaken)
                return state.started
            })
        guard let started else {
            stop.stop()
            return
        }
        let executor = self.executor
        let outcome = blockingAwait { await executor.run(program) }
        let failed = state.withLock { state -> SequenceFailed? in
            state.running.remove(started)
            let alongside = state.overlapped.remove(started) != nil
            state.slotsTaken -= need
            state.reservedExploring -= cost
            state.outcome.exploringRequests += outcome.requests
            switch outcome {
            case .refused:
                state.outcome.refused = true
                state.halted = true
                stop.stop()
            case .passed(let exercised, _):
                state.count(program)
                for contract in exercised { state.outcome.passes[contract, default: 0] += 1 }
            case .failed(let failure, _) where failure.noAnswer:
                // The target stopped answering: shown as it is, nothing more sent.
                state.count(program)
                state.outcome.failing[failure.contract, default: 0] += 1
                state.outcome.unanswered = true
                state.halted = true
                state.outcome.found.append(Found(
                    failure: failure, original: program, shrunk: program, programNumber: state.outcome.programs, shrinkSteps: 0, replays: 0,
                    shrinkNote: "not shrunk: the target stopped answering"))
                stop.stop()
            case .failed(let failure, _):
                state.count(program)
                state.outcome.failing[failure.contract, default: 0] += 1
                guard !state.claimed.contains(failure.contract), state.claimed.count < maxFailures else { return nil }
                state.claimed.insert(failure.contract)
                state.shrinksPending += 1
                let number = state.outcome.programs
                found.withLock { $0 = Pending(program: program, failure: failure, number: number, alongside: alongside) }
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
        let left = state.withLock { $0.shrinkingLeft(allowance) }
        let shrunk = try? Self.shrink(failure, of: program, choices: choices, size: size, generator: programs, allowance: left) { candidate, classifying in
            blockingAwait { await executor.run(candidate, classifying: classifying) }
        }
        let note: String? = switch shrunk?.stopReason {
        case .minimal?: nil
        case .replayBudget?: "shrinking stopped when the \(left) requests left to it were spent; a smaller sequence may fail too"
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
