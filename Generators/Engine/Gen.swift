/// A generator of values of type `Value`, drawn from the recorded choices of a ``TestCase``.
///
/// A `Gen` is a function from a test case to a value. Because every random decision goes
/// through the test case as a recorded choice, a generated value is fully described by its
/// choice sequence, and the engine shrinks failures by shrinking that sequence. This is why
/// ``map(_:)``, ``flatMap(_:)`` and ``filter(_:maxAttempts:_:)`` need no user-written
/// shrinkers: the shrunk value is whatever the generator makes of simpler choices.
///
/// ```swift
/// let pair = Gen.int(in: 0...10).flatMap { n in
///     Gen.array(of: .int(in: 0...100), count: n...n).map { (n, $0) }
/// }
/// let value = pair.sample(seed: 1)
/// ```
///
/// Invariants: drawing the same choices always gives the same value (generators must not
/// use any other randomness), and smaller choices give simpler values. Generators are
/// immutable and `Sendable`; drawing costs what the closures cost, with no allocation by
/// the engine beyond the values themselves.
public struct Gen<Value>: Sendable {
    /// The draw function: makes a value from the choices of a test case.
    public let draw: @Sendable (inout TestCase) throws -> Value

    /// Creates a generator from a draw function that makes all its random decisions through `testCase`.
    public init(_ draw: @escaping @Sendable (inout TestCase) throws -> Value) {
        self.draw = draw
    }

    /// Returns a value drawn with the pseudo-random generator seeded by `seed`.
    ///
    /// - Throws: ``TestCaseStop`` when the generator rejects every attempt or overruns.
    public func sample(seed: UInt64, size: Int = 100) throws -> Value {
        var testCase = TestCase(seed: seed, size: size)
        return try draw(&testCase)
    }

    /// Returns `count` values drawn from consecutive seeds split from `seed`, skipping rejected draws.
    public func samples(count: Int, seed: UInt64, size: Int = 100) -> [Value] {
        var random = Xoshiro256StarStar(seed: seed)
        var values: [Value] = []
        values.reserveCapacity(Swift.max(0, count))
        var attempts = 0
        while values.count < count && attempts < count * 10 + 10 {
            attempts += 1
            var testCase = TestCase(random: random.split(), size: size)
            if let value = try? draw(&testCase) {
                values.append(value)
            }
        }
        return values
    }

    /// Returns the value the generator makes from exactly these choices (0 past their end).
    ///
    /// - Throws: ``TestCaseStop`` when the choices decode to a rejected value.
    public func replay(_ choices: [UInt64], size: Int = 100) throws -> Value {
        var testCase = TestCase(replaying: choices, size: size)
        return try draw(&testCase)
    }
}

extension Gen {
    /// A generator that always produces `value` and makes no choices.
    public static func constant(_ value: Value) -> Gen<Value> where Value: Sendable {
        Gen { _ in value }
    }

    /// Returns a generator that transforms every value of this one with `transform`.
    ///
    /// Shrinking works through the transformation: the shrunk input maps to the shown output.
    public func map<T>(_ transform: @escaping @Sendable (Value) -> T) -> Gen<T> {
        let draw = self.draw
        return Gen<T> { testCase in transform(try draw(&testCase)) }
    }

    /// Returns a generator that draws a value, then draws from the generator `transform` makes of it.
    ///
    /// The dependent draw is recorded after the first one, so shrinking the first value
    /// re-derives the second generator (for example a count, then a list of that length).
    public func flatMap<T>(_ transform: @escaping @Sendable (Value) -> Gen<T>) -> Gen<T> {
        let draw = self.draw
        return Gen<T> { testCase in try transform(try draw(&testCase)).draw(&testCase) }
    }

    /// Returns a generator that keeps only the values satisfying `isIncluded`.
    ///
    /// Each rejected value is redrawn, up to `maxAttempts` draws per value. When the budget
    /// is exhausted the test case is discarded with a reason naming `name` and the budget;
    /// if that happens too often the property gives up with that reason. Prefer generating
    /// valid values by construction; a filter that rejects most draws slows the run.
    /// - Parameters:
    ///   - name: A name for this filter, quoted in the give-up reason.
    ///   - maxAttempts: The discard budget: draws tried per value before giving up on the case.
    ///   - isIncluded: The predicate values must satisfy.
    public func filter(
        _ name: String = "filter", maxAttempts: Int = 100,
        _ isIncluded: @escaping @Sendable (Value) -> Bool
    ) -> Gen<Value> {
        let draw = self.draw
        let budget = Swift.max(1, maxAttempts)
        return Gen { testCase in
            for _ in 0..<budget {
                let value = try draw(&testCase)
                if isIncluded(value) { return value }
            }
            throw TestCaseStop.rejected(
                "filter \"\(name)\" rejected \(budget) draws in a row (discard budget \(budget)); "
                    + "generate valid values by construction or loosen the predicate")
        }
    }

    /// Returns a generator that combines this generator's values with `other`'s through `combine`.
    public func zip<Other, T>(
        _ other: Gen<Other>, _ combine: @escaping @Sendable (Value, Other) -> T
    ) -> Gen<T> {
        let first = self.draw, second = other.draw
        return Gen<T> { testCase in
            let a = try first(&testCase)
            return combine(a, try second(&testCase))
        }
    }
}

/// Returns a generator of tuples drawing from each generator in turn, first to last.
///
/// ```swift
/// let point = zip(Gen.int(in: -5...5), Gen.int(in: -5...5))   // Gen<(Int, Int)>
/// ```
public func zip<First, each Rest>(_ first: Gen<First>, _ rest: repeat Gen<each Rest>) -> Gen<(First, repeat each Rest)> {
    let drawFirst = first.draw
    let drawRest = (repeat (each rest).draw)
    return Gen { testCase in
        let firstValue = try drawFirst(&testCase)
        return (firstValue, repeat try (each drawRest)(&testCase))
    }
}
