import PetSpotConcurrency

extension Gen {
    /// A generator that builds its generator when drawing: for generators defined in terms of
    /// themselves through a stored property or a function (Hypothesis's `deferred`).
    ///
    /// `make` is called on every draw, so it should return a stored generator or build a cheap
    /// one. Each draw counts one level of recursion: deeper than `maxDepth` nested deferred
    /// draws, the case is rejected (a discarded case, never a failure), so a structure that
    /// recurses without end costs a bounded amount of stack and time. Unlike
    /// ``recursive(maxDepth:recursionProbability:base:_:)``, which unrolls a fixed number of
    /// levels, the recursion is open: the structure's own probabilities decide how deep it
    /// goes, and the shrinker can replace a level by a nested level of the same generator.
    ///
    /// ```swift
    /// enum Tree { case leaf, node(Tree, Tree) }
    /// static let trees: Gen<Tree> = .frequency(
    ///     (3, .constant(.leaf)),
    ///     (1, zip(Gen.deferred { trees }, Gen.deferred { trees }).map { Tree.node($0, $1) }))
    /// ```
    /// - Parameters:
    ///   - maxDepth: The most nested deferred draws a case may make.
    ///   - make: Returns the generator to draw from.
    public static func deferred(maxDepth: Int = 100, _ make: @escaping @Sendable () -> Gen<Value>) -> Gen<Value> {
        let label = SpanLabel.next()
        return Gen { testCase in try drawDeferred(&testCase, maxDepth: maxDepth, label: label) { testCase in try make().draw(&testCase) } }
    }

    /// A recursive generator: `build` receives the generator being defined and returns it in
    /// terms of itself (a fixed point), with no depth set in advance.
    ///
    /// Draws are deferred as with the other `deferred`: the recursion
    /// ends where the generator's own probabilities end it, and a case nesting deeper than
    /// `maxDepth` levels is rejected. List the non-recursive alternative first, so that
    /// shrinking moves toward it.
    ///
    /// ```swift
    /// indirect enum Expression { case number(Int), sum(Expression, Expression) }
    /// let expressions = Gen<Expression>.deferred { expression in
    ///     .oneOf(Gen.int().map(Expression.number), zip(expression, expression).map(Expression.sum))
    /// }
    /// ```
    /// - Parameters:
    ///   - maxDepth: The most nested levels a case may draw.
    ///   - build: Returns the generator, given a reference to it for the recursive positions.
    public static func deferred(maxDepth: Int = 100, _ build: (Gen<Value>) -> Gen<Value>) -> Gen<Value> {
        let definition = DeferredDefinition<Value>()
        let label = SpanLabel.next()
        // The reference handed to `build` holds the definition weakly, so the generator and
        // its definition do not keep each other alive.
        let reference = Gen { [weak definition] testCase in
            guard let draw = definition?.draw else {
                try testCase.reject("a deferred generator's recursive reference was drawn after the generator was released")
            }
            return try drawDeferred(&testCase, maxDepth: maxDepth, label: label) { testCase in try draw(&testCase) }
        }
        let built = build(reference).draw
        definition.draw = built
        return Gen { testCase in
            try withExtendedLifetime(definition) {
                try drawDeferred(&testCase, maxDepth: maxDepth, label: label) { testCase in try built(&testCase) }
            }
        }
    }
}

/// Draws one deferred level: counts its depth, rejects a case nested deeper than `maxDepth`,
/// and records the level as a span for the shrinker.
private func drawDeferred<Value>(
    _ testCase: inout TestCase, maxDepth: Int, label: UInt64, _ body: (inout TestCase) throws -> Value
) throws -> Value {
    if testCase.depth >= maxDepth {
        try testCase.reject("a deferred generator nested deeper than \(maxDepth) levels (its maxDepth)")
    }
    testCase.depth += 1
    defer { testCase.depth -= 1 }
    let start = testCase.choiceCount
    let value = try body(&testCase)
    testCase.recordSpan(.deferred, label: label, start: start, contentStart: start)
    return value
}

/// The draw function of a recursive generator, set once after `build` has made it.
///
/// Unchecked `Sendable`, and safe: `draw` is written exactly once, inside
/// `Gen.deferred(maxDepth:_:)`, before the generator that reads it is returned; no thread can
/// hold that generator (or the reference handed to `build`, which reads `draw` only when drawn)
/// before the write, and nothing writes it afterwards, so every read sees the one value.
private final class DeferredDefinition<Value>: @unchecked Sendable {
    var draw: (@Sendable (inout TestCase) throws -> Value)?
}

/// Labels of spans: which generator shape drew them.
@usableFromInline
enum SpanLabel {
    /// Labels handed out to deferred generators, one per generator.
    private static let counter = Locked<UInt64>(0x5EED_0000)

    /// A fresh label, distinct from every other label this process hands out.
    static func next() -> UInt64 {
        counter.withLock { value in
            value += 1
            return value
        }
    }

    /// A label computed from a generator's shape (its kind and parameters), the same for every
    /// generator of that shape.
    @usableFromInline
    static func mixing(_ parts: [UInt64]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for part in parts {
            hash = (hash ^ part) &* 0x0000_0100_0000_01B3
            hash ^= hash >> 31
        }
        return hash
    }
}
