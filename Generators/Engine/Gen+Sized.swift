extension Gen {
    /// A generator built from the current size parameter (0 through the run's maximum, 100 by default).
    ///
    /// The runner grows the size over a run, from small values in early cases to the
    /// maximum, so size-driven generators try small inputs first.
    public static func sized(_ build: @escaping @Sendable (Int) -> Gen<Value>) -> Gen<Value> {
        Gen { testCase in try build(testCase.size).draw(&testCase) }
    }

    /// Returns a generator that draws with the size parameter fixed to `size`.
    public func resized(_ size: Int) -> Gen<Value> {
        let draw = self.draw
        return Gen { testCase in
            let saved = testCase.size
            testCase.size = Swift.max(0, size)
            defer { testCase.size = saved }
            return try draw(&testCase)
        }
    }

    /// A generator of recursive structures of bounded depth, shrinking toward `base`.
    ///
    /// `extend` receives a generator of smaller structures and returns one of larger ones
    /// (for example a node whose children are drawn from its argument). At every level the
    /// engine chooses between `base` (the simpler choice) and one more level, with
    /// probability `recursionProbability`, never deeper than `maxDepth` levels, so
    /// generation always terminates; the choice budget bounds wide structures. For open-ended
    /// recursion, whose depth the structure's own probabilities decide, use
    /// `Gen.deferred { this in ... }` instead.
    /// ```swift
    /// indirect enum Tree: Sendable { case leaf(Int), node([Tree]) }
    /// let trees = Gen<Tree>.recursive(base: Gen.int(in: 0...9).map(Tree.leaf)) { child in
    ///     child.array(count: 0...3).map(Tree.node)
    /// }
    /// ```
    public static func recursive(
        maxDepth: Int = 4, recursionProbability: Double = 0.4, base: Gen<Value>,
        _ extend: @escaping @Sendable (Gen<Value>) -> Gen<Value>
    ) -> Gen<Value> {
        // Every level is a span with one label, so the shrinker can replace a level by a
        // deeper one (a node by one of its descendants).
        let label = SpanLabel.next()
        var current = base
        for _ in 0..<Swift.max(0, maxDepth) {
            let deeper = extend(current).draw
            let shallow = base.draw
            current = Gen { testCase in
                let start = testCase.choiceCount
                let value = try testCase.weighted(recursionProbability) ? try deeper(&testCase) : try shallow(&testCase)
                testCase.recordSpan(.deferred, label: label, start: start, contentStart: start)
                return value
            }
        }
        return current
    }
}
