/// Draws a collection's elements with one "another element?" choice before each optional element.
///
/// The first `minimum` elements are drawn without asking; after that a weighted Boolean
/// (simpler answer: stop) precedes each element, up to `maximum`. Deleting an element's
/// choices together with its "another?" choice therefore deletes exactly that element,
/// which is what lets the shrinker remove elements from anywhere in the collection. A
/// collection that reaches `maximum` records one more choice fixed at `0` (stop) where the
/// next "another?" choice would be, so that deleting an element of a full collection still
/// leaves the following draws aligned. The
/// average length beyond `minimum` grows with the case's size parameter; when `maximum` is
/// at most 100,000, one fresh draw in sixteen aims for exactly `maximum` elements and one in
/// sixteen for exactly `minimum`, so length caps are exercised.
/// `drawElement` draws one element from the case it is handed and returns whether the element
/// was accepted (sets skip duplicates).
///
/// Shrinker replays record a span for each element and one for the whole collection, which
/// the structural shrink passes (delete elements, sort elements) work on.
@inline(__always)
func drawElements(
    _ testCase: inout TestCase, minimum: Int, maximum: Int, what: String,
    _ drawElement: (inout TestCase) throws -> Bool
) throws {
    let spread = maximum - minimum
    let average = Double(Swift.min(spread, 2 + testCase.size / 4))
    let continueProbability = average / (average + 1)
    let targetLength: Int? = spread > 0 && maximum <= 100_000
        ? testCase.planning { random -> Int? in
            switch random.next() >> 60 {
            case 0: maximum
            case 1: minimum
            default: nil
            }
        } ?? nil
        : nil
    let collectionStart = testCase.choiceCount
    var count = 0
    var duplicates = 0
    while count < maximum {
        let start = testCase.choiceCount
        var contentStart = start
        if count >= minimum {
            if let targetLength {
                guard try testCase.choice(upTo: 1, preferring: count < targetLength ? 1 : 0) == 1 else { break }
            } else {
                guard try testCase.weighted(continueProbability) else { break }
            }
            contentStart = start + 1
        }
        let accepted = try drawElement(&testCase)
        testCase.recordSpan(.element, start: start, contentStart: contentStart)
        if accepted {
            count += 1
        } else {
            duplicates += 1
            if duplicates > 20 + 2 * count {
                if count >= minimum { break }
                try testCase.reject("\(what) found only \(count) distinct elements, fewer than the minimum \(minimum)")
            }
        }
    }
    if count == maximum && spread > 0 {
        _ = try testCase.choice(upTo: 0)
    }
    testCase.recordSpan(.collection, start: collectionStart, contentStart: collectionStart)
}

extension Gen {
    /// A generator of arrays of `element`'s values with a length in `count`, shrinking toward shorter arrays of simpler elements.
    ///
    /// Elements can be removed from anywhere by shrinking (see the choice layout in the
    /// engine documentation); the typical length grows with the size parameter. Negative
    /// lower bounds are treated as `0`.
    public static func array<Element>(of element: Gen<Element>, count: ClosedRange<Int> = 0...Int.max) -> Gen<Value>
    where Value == [Element] {
        element.array(count: count)
    }

    /// Returns a generator of arrays of this generator's values with a length in `count`.
    public func array(count: ClosedRange<Int> = 0...Int.max) -> Gen<[Value]> {
        let draw = self.draw
        let minimum = Swift.max(0, count.lowerBound), maximum = Swift.max(minimum, count.upperBound)
        return Gen<[Value]> { testCase in
            var values: [Value] = []
            values.reserveCapacity(Swift.min(minimum + 4, maximum))
            try drawElements(&testCase, minimum: minimum, maximum: maximum, what: "array") { testCase in
                values.append(try draw(&testCase))
                return true
            }
            return values
        }
    }

    /// A generator of sets of `element`'s distinct values with a size in `count`.
    ///
    /// Duplicate draws are skipped; when the element generator cannot produce enough
    /// distinct values the case is rejected with an explanation.
    public static func set<Element: Hashable & SendableMetatype>(of element: Gen<Element>, count: ClosedRange<Int> = 0...Int.max) -> Gen<Value>
    where Value == Set<Element> {
        let draw = element.draw
        let minimum = Swift.max(0, count.lowerBound), maximum = Swift.max(minimum, count.upperBound)
        return Gen { testCase in
            var values = Set<Element>()
            try drawElements(&testCase, minimum: minimum, maximum: maximum, what: "set") { testCase in
                values.insert(try draw(&testCase)).inserted
            }
            return values
        }
    }

    /// A generator of dictionaries with distinct keys from `keys` and values from `values`, with a size in `count`.
    ///
    /// Each entry draws a key then a value; an entry whose key is already present is skipped.
    public static func dictionary<Key: Hashable & SendableMetatype, Element>(
        keys: Gen<Key>, values: Gen<Element>, count: ClosedRange<Int> = 0...Int.max
    ) -> Gen<Value> where Value == [Key: Element] {
        let drawKey = keys.draw, drawValue = values.draw
        let minimum = Swift.max(0, count.lowerBound), maximum = Swift.max(minimum, count.upperBound)
        return Gen { testCase in
            var entries: [Key: Element] = [:]
            try drawElements(&testCase, minimum: minimum, maximum: maximum, what: "dictionary") { testCase in
                let key = try drawKey(&testCase)
                let value = try drawValue(&testCase)
                guard entries[key] == nil else { return false }
                entries[key] = value
                return true
            }
            return entries
        }
    }
}
