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
/// `plannedLength`, when given, replaces that planning: a fresh draw answers the "another?"
/// choices so that the collection has that many elements (clamped to the range).
/// `freshMinimum`, when above `minimum`, is the fewest elements a fresh draw makes (and the
/// length planning starts from it), while a replay may have as few as `minimum`: an element
/// past `minimum` still has its "another?" choice, so shrinking can delete it.
/// `drawElement` draws one element from the case it is handed and returns whether the element
/// was accepted (sets skip duplicates).
///
/// Shrinker replays record a span for each element and one for the whole collection, which
/// the structural shrink passes (delete elements, sort elements) work on.
@inline(__always)
func drawElements(
    _ testCase: inout TestCase, minimum: Int, maximum: Int, what: String, plannedLength: Int? = nil, freshMinimum: Int? = nil,
    _ drawElement: (inout TestCase) throws -> Bool
) throws {
    let lower = Swift.min(maximum, Swift.max(minimum, freshMinimum ?? minimum))
    let spread = maximum - lower
    let average = Double(Swift.min(spread, 2 + testCase.size / 4))
    let continueProbability = average / (average + 1)
    let targetLength: Int?
    if let plannedLength {
        targetLength = testCase.isDrawingFresh ? Swift.min(Swift.max(plannedLength, lower), maximum) : nil
    } else {
        targetLength = spread > 0 && maximum <= 100_000
            ? testCase.planning { random -> Int? in
                switch random.next() >> 60 {
                case 0: maximum
                case 1: lower
                default: nil
                }
            } ?? nil
            : nil
    }
    let collectionStart = testCase.choiceCount
    var count = 0
    var duplicates = 0
    while count < maximum {
        let start = testCase.choiceCount
        var contentStart = start
        if count >= minimum {
            if let targetLength {
                guard try testCase.choice(upTo: 1, preferring: count < targetLength ? 1 : 0) == 1 else { break }
            } else if count < lower {
                guard try testCase.choice(upTo: 1, preferring: 1) == 1 else { break }
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

extension TestCase {
    /// Draws a collection of `count` elements laid out as ``Gen/array(count:)`` lays out its
    /// elements (an "another element?" choice before each element past the minimum, and the spans
    /// the shrink passes delete, sort and simplify elements by), each drawn by `drawElement`.
    ///
    /// For generators whose elements depend on what came before (the steps of a program, each
    /// drawn in the state the earlier ones left): `drawElement` can read and change the caller's
    /// state, which a `Gen` closure cannot. When drawing fresh, `plannedLength` (clamped to
    /// `count`) is the length the "another?" choices answer; `nil` lets the length grow with the
    /// size parameter, as ``Gen/array(count:)`` does. A fresh draw makes at least `freshMinimum`
    /// elements (when given), a replay at least `count.lowerBound`: shrinking can then delete
    /// elements a fresh draw always has. Replays answer from the choices alone.
    ///
    /// - Throws: ``TestCaseStop/overrun(limit:)`` when the choice budget is used up, or what
    ///   `drawElement` throws.
    package mutating func drawCollection(
        count: ClosedRange<Int>, freshMinimum: Int? = nil, plannedLength: Int? = nil, what: String,
        _ drawElement: (inout TestCase) throws -> Void
    ) throws {
        let minimum = Swift.max(0, count.lowerBound), maximum = Swift.max(minimum, count.upperBound)
        try drawElements(
            &self, minimum: minimum, maximum: maximum, what: what, plannedLength: plannedLength, freshMinimum: freshMinimum
        ) { testCase in
            try drawElement(&testCase)
            return true
        }
    }
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
