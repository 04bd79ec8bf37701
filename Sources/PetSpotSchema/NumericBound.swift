import PetSpotJSON

/// A `minimum`/`maximum` limit with its `Double` image, which decides most comparisons without
/// touching the decimal digits.
struct NumericBound: Sendable {
    let limit: JSONNumber
    /// `limit` as a `Double` when that is exact (integers below 2^53), else NaN.
    let exactDouble: Double

    init(_ limit: JSONNumber) {
        self.limit = limit
        let exact = limit.isInteger && limit.digits.count + limit.exponent <= 15
        exactDouble = exact ? limit.doubleValue : .nan
    }

    /// -1, 0 or 1 as `number` is below, equal to or above the limit. Rounding to `Double` is
    /// monotonic and the limit is exact, so a `Double` difference is decisive; only a `Double`
    /// tie needs the decimals.
    @inline(__always)
    func compare(_ number: borrowing JSONNumber) -> Int {
        let value = number.doubleValue
        if value < exactDouble { return -1 }
        if value > exactDouble { return 1 }
        return number < limit ? -1 : limit < number ? 1 : 0
    }
}
