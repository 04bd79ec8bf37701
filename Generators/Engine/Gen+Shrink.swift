// Shrinking a failure found outside a property run: a caller that judges each candidate itself
// (a program sent to a backend, each replay costing requests) shrinks with the same shrinker,
// passes, gate and statistics as a property, under a budget of what its replays may cost.

/// How a caller judged one shrink candidate (see ``Gen/shrink(_:size:failure:budget:judge:)``).
package enum ShrinkJudgement<Failure> {
    /// The candidate fails as the original did. `cost` is what judging it spent of the budget;
    /// `readChoices`, when given, is how many of its choices the outcome depended on (a program
    /// that failed at a step read nothing past that step's choices): the rest are dropped.
    case failed(Failure, cost: Int, readChoices: Int? = nil)
    /// The candidate does not fail that way; judging it spent `cost`.
    case passed(cost: Int)
    /// The candidate cannot be judged within what is left of the budget (or the caller can run
    /// nothing more): shrinking stops, with `cost` spent on it.
    case stop(cost: Int)
}

/// What shrinking a caller-judged failure may spend.
package struct ShrinkBudget: Sendable {
    /// What all replays may cost together, in the judge's unit (requests, for a program a
    /// backend runs: a program of n operations costs about n requests and a delete per create).
    package var maxCost: Int
    /// The most replays, whatever they cost (a replay the judge answers from what it knows
    /// costs nothing but still counts).
    package var maxReplays: Int
    /// Replays in a row without a smaller failing candidate after which shrinking stops.
    package var stallLimit: Int
    /// The wall-clock budget.
    package var timeLimit: Duration
    /// A signal that stops shrinking from outside; `nil`: none.
    package var stopSignal: StopSignal?

    /// A budget; every limit but the cost has a default that leaves the cost to decide.
    package init(
        maxCost: Int, maxReplays: Int = 20_000, stallLimit: Int = 1_000, timeLimit: Duration = .seconds(600),
        stopSignal: StopSignal? = nil
    ) {
        self.maxCost = maxCost
        self.maxReplays = maxReplays
        self.stallLimit = stallLimit
        self.timeLimit = timeLimit
        self.stopSignal = stopSignal
    }
}

/// A caller-judged failure, shrunk: the smallest failing value found, its choices and failure,
/// and the shrinker's figures.
package struct ShrunkFailure<Value, Failure> {
    /// The smallest failing value found.
    package let value: Value
    /// Its choice sequence.
    package let choices: [UInt64]
    /// How it failed, as the judge said.
    package let failure: Failure
    /// Smaller failing sequences adopted (the shrink steps).
    package let steps: Int
    /// Replays run.
    package let replays: Int
    /// What the replays cost together.
    package let cost: Int
    /// Why shrinking stopped (``ShrinkStopReason/replayBudget`` when the cost budget did).
    package let stopReason: ShrinkStopReason
    /// The replays and improvements of each pass that ran.
    package let passes: [ShrinkPassStatistics]
}

extension Gen {
    /// Shrinks the failing choice sequence `choices` of this generator (a value that failed as
    /// `failure` says) with the engine's shrink passes, asking `judge` about every candidate the
    /// choice tree cannot decide. Since every judgement costs, `deleteElements` runs first until
    /// it finds nothing (a shorter value is cheaper to judge), then the rounds of every pass.
    ///
    /// The judge is handed the candidate's value and what is left of ``ShrinkBudget/maxCost``,
    /// and must not spend more than that: it answers ``ShrinkJudgement/stop(cost:)`` for a
    /// candidate it cannot pay for, which ends shrinking. So the replays never cost more than
    /// the budget. A candidate the generator rejects is not shown to the judge.
    ///
    /// - Parameters:
    ///   - choices: the failing value's choices (as drawn, or recorded by a property run).
    ///   - size: the size parameter the value was drawn at.
    ///   - failure: how it failed, kept when nothing smaller fails.
    ///   - budget: what shrinking may spend.
    ///   - judge: runs a candidate and says whether it fails the same way.
    package func shrink<Failure>(
        _ choices: [UInt64], size: Int, failure: Failure, budget: ShrinkBudget,
        judge: @escaping (Value, _ costLeft: Int) -> ShrinkJudgement<Failure>
    ) throws -> ShrunkFailure<Value, Failure> {
        let draw = self.draw
        var smallest = (value: try replay(choices, size: size), choices: choices, failure: failure)
        var spent = 0
        let signal = budget.stopSignal
        let limits = Shrinker.Limits(
            maxReplays: budget.maxReplays, stallLimit: budget.stallLimit, timeLimit: budget.timeLimit,
            shouldStop: { signal?.isStopped ?? false })
        func recorded(_ choices: [UInt64]) -> (value: Value?, replay: Shrinker.Replay) {
            var testCase = TestCase(replaying: choices, size: size)
            let value = try? draw(&testCase)
            return (value, Shrinker.Replay(
                outcome: value == nil ? .discarded : .passed, choices: testCase.choices, bounds: testCase.bounds,
                shapes: testCase.shapes, spans: testCase.spans))
        }
        var shrinker = Shrinker(failing: choices, limits: limits) { candidate in
            var (value, replay) = recorded(candidate)
            guard let drawn = value else { return replay }
            switch judge(drawn, Swift.max(0, budget.maxCost - spent)) {
            case .passed(let cost):
                spent += cost
            case .stop(let cost):
                spent += cost
                return nil
            case .failed(let failure, let cost, let readChoices):
                spent += cost
                replay.outcome = .failed
                if let readChoices, readChoices < replay.choices.count {
                    // Only the first choices were read: the value drawn from them alone fails too.
                    let (read, shorter) = recorded(Array(replay.choices.prefix(readChoices)))
                    if let read {
                        (value, replay) = (read, shorter)
                        replay.outcome = .failed
                    }
                }
                if let value, isShortlexLess(replay.choices, smallest.choices) {
                    smallest = (value, replay.choices, failure)
                }
            }
            return replay
        }
        // Every replay costs the caller: deleting elements first makes every later candidate cheaper.
        while shrinker.isRunning && shrinker.run(passNamed: "deleteElements") {}
        let stopReason = shrinker.shrink()
        return ShrunkFailure(
            value: smallest.value, choices: smallest.choices, failure: smallest.failure, steps: shrinker.improvements,
            replays: shrinker.replays, cost: spent, stopReason: stopReason, passes: shrinker.passStatistics)
    }
}
