/// The statistics behind coverage requirements, after QuickCheck's `checkCoverage`.
///
/// A requirement "label on at least *p* of cases" is judged with a Wilson score interval on the
/// observed share at z = 3.29 (about one wrong verdict in two thousand, one-sided): **met** when
/// the lower bound reaches 90% of *p* (the share is near *p* or above, for sure), **missed**
/// when the upper bound is below *p* (the share is below *p*, for sure), **undecided**
/// otherwise. The runner keeps running cases while any requirement is undecided, up to ten
/// times the requested count, then falls back to comparing the observed share with *p*. So a
/// requirement neither fails a run by bad luck nor passes one on too few cases, and a smoke run
/// (`PETSPOT_CASES_SCALE=0.1`) still proves coverage by running the cases it needs.
enum CoverageTest {
    enum Verdict { case met, missed, undecided }

    static let z = 3.29

    static func verdict(count: Int, total: Int, percent: Double) -> Verdict {
        guard total > 0 else { return .undecided }
        let required = percent / 100
        let (low, high) = wilsonInterval(successes: count, trials: total)
        if high < required { return .missed }
        if low >= 0.9 * required { return .met }
        return .undecided
    }

    static func wilsonInterval(successes: Int, trials: Int) -> (low: Double, high: Double) {
        let n = Double(trials), share = Double(successes) / n, z2 = z * z
        let center = (share + z2 / (2 * n)) / (1 + z2 / n)
        let margin = z * (share * (1 - share) / n + z2 / (4 * n * n)).squareRoot() / (1 + z2 / n)
        return (Swift.max(0, center - margin), Swift.min(1, center + margin))
    }
}

