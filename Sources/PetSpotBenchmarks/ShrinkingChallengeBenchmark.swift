import PetSpotPropertyEngine

extension Benchmarks {
    /// The Shrinking Challenge over `seeds` seeds (1, 2, ...): per challenge, the runs that found
    /// the bug with 1,000 cases, the found ones that ended at the smallest counterexample, the
    /// median evaluations and time spent shrinking, the distinct counterexamples reported, the
    /// runs whose shrinking a budget or deadline stopped, and the runs that found the bug with
    /// only 100 cases. Every figure is emitted as soon as its challenge is done.
    static func shrinkingChallenge(seeds: Int = 100, emit: (BenchmarkFigure) -> Void) {
        for challenge in ShrinkingChallenge.all {
            let runs = (1...UInt64(seeds)).map { challenge.run(seed: $0) }
            let found = runs.filter(\.found)
            let minimal = found.filter(\.isMinimal).count
            let prefix = "challenge_\(challenge.name)"
            emit(BenchmarkFigure("\(prefix)_found", "\(found.count)/\(seeds)", "runs"))
            emit(BenchmarkFigure("\(prefix)_minimal", "\(minimal)/\(found.count)", "found"))
            emit(BenchmarkFigure("\(prefix)_median_evaluations", median(found.map { Double($0.evaluations) }, decimals: 0), "evaluations"))
            let milliseconds = found.map { Double($0.shrinkTime.components.attoseconds) / 1e15 + Double($0.shrinkTime.components.seconds) * 1e3 }
            emit(BenchmarkFigure("\(prefix)_median_time", median(milliseconds, decimals: 3), "ms"))
            emit(BenchmarkFigure("\(prefix)_distinct_results", String(Set(found.map(\.counterexample)).count), "counterexamples"))
            let stopped = found.filter { !$0.stopReason.isEmpty && $0.stopReason != "minimal" }.count
            emit(BenchmarkFigure("\(prefix)_stopped_early", "\(stopped)/\(found.count)", "found"))
            let quick = (1...UInt64(seeds)).filter { challenge.run(seed: $0, cases: 100, shrinks: false).found }.count
            emit(BenchmarkFigure("\(prefix)_found_at_100_cases", "\(quick)/\(seeds)", "runs"))
        }
    }

    static func median(_ values: [Double], decimals: Int) -> String {
        guard !values.isEmpty else { return "n/a" }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        let value = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return format(value, decimals: decimals)
    }
}
