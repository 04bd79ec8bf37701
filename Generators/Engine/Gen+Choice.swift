extension Gen {
    /// A generator that draws from one of `gens`, shrinking toward the first.
    ///
    /// List the simplest alternative first. An empty list rejects every case with an explanation.
    /// The shrinker knows each pick as a span: it can replace a pick by a nested pick of the
    /// same shape (a node of a recursive structure by one of its descendants).
    public static func oneOf(_ gens: Gen<Value>...) -> Gen<Value> {
        oneOf(gens)
    }

    /// A generator that draws from one of `gens`, shrinking toward the first.
    @inlinable
    public static func oneOf(_ gens: [Gen<Value>]) -> Gen<Value> {
        guard !gens.isEmpty else {
            return Gen { testCase in try testCase.reject("oneOf was given no generators") }
        }
        let draws = gens.map(\.draw)
        let last = UInt64(draws.count - 1)
        let label = SpanLabel.mixing([0x6F6E_654F_66, last])
        return Gen { testCase in
            let start = testCase.choiceCount
            let value = try draws[Int(try testCase.choice(upTo: last))](&testCase)
            testCase.recordSpan(.alternative, label: label, start: start, contentStart: start + 1)
            return value
        }
    }

    /// A generator that draws from `gens` with probability proportional to their weights.
    ///
    /// The choice of alternative is recorded as its index, so shrinking moves toward the
    /// first alternative whatever the weights. Non-positive weights are never drawn fresh.
    /// An empty list, or one with no positive weight, rejects every case with an explanation.
    public static func frequency(_ gens: (weight: Int, gen: Gen<Value>)...) -> Gen<Value> {
        frequency(gens)
    }

    /// A generator that draws from `gens` with probability proportional to their weights.
    @inlinable
    public static func frequency(_ gens: [(weight: Int, gen: Gen<Value>)]) -> Gen<Value> {
        let weights = gens.map { UInt64(Swift.max(0, $0.weight)) }
        let total = weights.reduce(0, &+)
        guard total > 0 else {
            return Gen { testCase in try testCase.reject("frequency was given no alternative with a positive weight") }
        }
        let draws = gens.map(\.gen.draw)
        let last = UInt64(draws.count - 1)
        let label = SpanLabel.mixing([0x6672_6571] + weights)
        return Gen { testCase in
            let start = testCase.choiceCount
            let planned = testCase.planning { random -> UInt64 in
                var ticket = random.bounded(by: total - 1)
                for (index, weight) in weights.enumerated() {
                    if ticket < weight { return UInt64(index) }
                    ticket -= weight
                }
                return last
            }
            let value = try draws[Int(try testCase.choice(upTo: last, preferring: planned))](&testCase)
            testCase.recordSpan(.alternative, label: label, start: start, contentStart: start + 1)
            return value
        }
    }

    /// A generator of the elements of `collection`, shrinking toward the first.
    ///
    /// An empty collection rejects every case with an explanation.
    public static func element<C: Collection & Sendable>(of collection: C) -> Gen<Value>
    where C.Element == Value, Value: Sendable {
        let elements = Array(collection)
        guard !elements.isEmpty else {
            return Gen { testCase in try testCase.reject("element(of:) was given an empty collection") }
        }
        let last = UInt64(elements.count - 1)
        return Gen { testCase in elements[Int(try testCase.choice(upTo: last))] }
    }
}

extension Gen where Value == Bool {
    /// A generator of Booleans, `true` half of the time, shrinking toward `false`.
    public static var bool: Gen<Bool> {
        Gen { testCase in try testCase.weighted(0.5) }
    }

    /// A generator of Booleans that are `true` with probability `probability`, shrinking toward `false`.
    public static func bool(probability: Double) -> Gen<Bool> {
        Gen { testCase in try testCase.weighted(probability) }
    }
}

extension Gen {
    /// Returns a generator of optionals: `nil` with probability `nilProbability`, else a value.
    ///
    /// Shrinks toward `nil`.
    public func optional(nilProbability: Double = 0.2) -> Gen<Value?> {
        let draw = self.draw
        return Gen<Value?> { testCase in
            try testCase.weighted(1 - nilProbability) ? try draw(&testCase) : nil
        }
    }
}
