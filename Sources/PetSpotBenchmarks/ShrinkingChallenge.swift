import Dispatch
import PetSpotPropertyEngine

/// The Shrinking Challenge (github.com/jlink/shrinking-challenge), written with the engine's
/// public API: the field's common yardstick for shrinkers.
///
/// Each challenge is a generator, a property with a planted bug, and a test of whether a
/// counterexample is the smallest one the challenge names. ``run(seed:cases:shrinks:)`` checks
/// the property once and reports what the engine found: whether it found a failure, whether it
/// shrank it to the smallest counterexample, how many times the property ran while shrinking
/// (its *evaluations*: what a shrink costs when every evaluation is an adapter call), how long
/// it took and why shrinking stopped.
///
/// ```swift
/// for challenge in ShrinkingChallenge.all {
///     let run = challenge.run(seed: 1)
///     print(challenge.name, run.isMinimal, run.evaluations)
/// }
/// ```
///
/// The benchmark group `challenge` of `petspot-contracts bench` runs every challenge over 100
/// seeds; the engine's challenge tests run each over a handful. Invariant: a challenge's
/// `isMinimal` accepts exactly the smallest counterexamples the challenge names (in any
/// order where the challenge allows several), never a larger one.
package struct ShrinkingChallenge: Sendable {
    /// One check of a challenge's property.
    package struct Run: Sendable {
        /// Whether the property failed at all.
        package let found: Bool
        /// Whether the shrunk counterexample is a smallest one.
        package let isMinimal: Bool
        /// Property evaluations after the first failure: the cost of shrinking (0 when nothing was found).
        package let evaluations: Int
        /// Wall-clock time from the first failure to the end of the check.
        package let shrinkTime: Duration
        /// The shrunk counterexample, printed (empty when nothing was found).
        package let counterexample: String
        /// Why shrinking stopped, in the engine's words (empty when nothing was found).
        package let stopReason: String
        /// The replays and improvements of each shrink pass (empty when nothing was found).
        package let shrinkPasses: [ShrinkPassStatistics]
    }

    /// The challenge's name in the repository (`difference_must_not_be_zero`).
    package let name: String
    /// The smallest counterexample, in words.
    package let smallest: String
    private let check: @Sendable (_ seed: UInt64, _ cases: Int, _ shrinks: Bool) -> Run

    init<Value>(
        _ name: String, smallest: String, _ gen: Gen<Value>, isMinimal: @escaping @Sendable (Value) -> Bool,
        describe: @escaping @Sendable (Value) -> String = { String(describing: $0) },
        fails: @escaping @Sendable (Value) throws -> Bool
    ) {
        self.name = name
        self.smallest = smallest
        check = { seed, cases, shrinks in
            // Counts evaluations from the first failure on; the check runs on this thread only.
            let counter = EvaluationCounter()
            let property = Property(name, gen) { value in
                if counter.firstFailure != nil { counter.evaluations += 1 }
                let failed = try fails(value)
                if failed, counter.firstFailure == nil { counter.firstFailure = DispatchTime.now().uptimeNanoseconds }
                return !failed
            }
            var configuration = PropertyConfiguration(cases: cases, seed: seed, readsEnvironment: false)
            configuration.shrinks = shrinks
            let result = property.check(configuration)
            let end = DispatchTime.now().uptimeNanoseconds
            guard let failure = result.failure else {
                return Run(
                    found: false, isMinimal: false, evaluations: 0, shrinkTime: .zero, counterexample: "", stopReason: "",
                    shrinkPasses: [])
            }
            let elapsed = Duration.nanoseconds(Int64(end - (counter.firstFailure ?? end)))
            return Run(
                found: true, isMinimal: isMinimal(failure.shrunk), evaluations: counter.evaluations, shrinkTime: elapsed,
                counterexample: describe(failure.shrunk), stopReason: failure.stopReason.description,
                shrinkPasses: failure.shrinkPasses)
        }
    }

    /// Checks the challenge's property once with `seed` and `cases` cases (default budgets).
    package func run(seed: UInt64, cases: Int = 1000, shrinks: Bool = true) -> Run {
        check(seed, cases, shrinks)
    }

    /// Every challenge, in the repository's order (difference in three variants, bound5 in two sizes).
    package static let all: [ShrinkingChallenge] = [
        bound5(maxLength: 1, name: "bound5"), bound5(maxLength: 10, name: "bound5_lists_up_to_10"),
        largeUnionList, reverse, calculator, calculatorBoundedRecursion, lengthList,
        differenceMustNotBeZero, differenceMustNotBeSmall, differenceMustNotBeOne,
        binheap, coupling, deletion, distinct, nestedLists,
    ]

    /// The challenge called `name`, if any.
    package static func named(_ name: String) -> ShrinkingChallenge? {
        all.first { $0.name == name }
    }
}

/// Evaluations and the instant of the first failure of one check (used by one thread only).
private final class EvaluationCounter {
    var evaluations = 0
    var firstFailure: UInt64?
}

// MARK: The challenges

extension ShrinkingChallenge {
    /// Five lists of Int16 whose own wrapping sums stay below 256, but whose total wraps to 5 × 256 or more.
    static func bound5(maxLength: Int, name: String) -> ShrinkingChallenge {
        let list = Gen<Int16>.anyInteger.array(count: 0...maxLength)
            .filter("sum below 256") { $0.reduce(0, &+) < 256 }
        let gen = zip(list, list, list, list, list).map { [$0, $1, $2, $3, $4] }
        return ShrinkingChallenge(
            name, smallest: "[[], [], [], [-1], [-32768]]: the values -1 and -32768 in any two lists", gen,
            isMinimal: { lists in lists.flatMap { $0 }.sorted() == [-32768, -1] }
        ) { lists in
            lists.map { $0.reduce(0, &+) }.reduce(0, &+) >= 5 * 256
        }
    }

    /// A list of lists of integers with more than four distinct integers across them.
    static let largeUnionList = ShrinkingChallenge(
        "large_union_list", smallest: "one list of 5 values with absolute values {0, 1, 1, 2, 2}",
        Gen<Int>.int().array().array(),
        isMinimal: { lists in lists.count == 1 && lists[0].map(\.magnitude).sorted() == [0, 1, 1, 2, 2] }
    ) { lists in
        Set(lists.flatMap { $0 }).count > 4
    }

    /// A list that reversing changes.
    static let reverse = ShrinkingChallenge(
        "reverse", smallest: "[0, 1]", Gen<Int>.int().array(), isMinimal: { $0 == [0, 1] }
    ) { values in
        values.reversed() != values
    }

    /// The expressions of the calculator challenge: an integer, a sum or a quotient.
    indirect enum Expression: Sendable, CustomStringConvertible {
        case number(Int)
        case sum(Expression, Expression)
        case quotient(Expression, Expression)

        /// The number of nodes.
        var size: Int {
            switch self {
            case .number: 1
            case .sum(let a, let b), .quotient(let a, let b): 1 + a.size + b.size
            }
        }

        /// Whether no quotient has a literal zero divisor.
        var hasNoLiteralZeroDivisor: Bool {
            switch self {
            case .number: return true
            case .sum(let a, let b): return a.hasNoLiteralZeroDivisor && b.hasNoLiteralZeroDivisor
            case .quotient(let a, let b):
                if case .number(0) = b { return false }
                return a.hasNoLiteralZeroDivisor && b.hasNoLiteralZeroDivisor
            }
        }

        /// The value, or `nil` when a division by zero happens.
        var value: Int? {
            switch self {
            case .number(let n): return n
            case .sum(let a, let b):
                guard let x = a.value, let y = b.value else { return nil }
                return x &+ y
            case .quotient(let a, let b):
                guard let x = a.value, let y = b.value, y != 0 else { return nil }
                return y == -1 ? 0 &- x : x / y
            }
        }

        var description: String {
            switch self {
            case .number(let n): n < 0 ? "(\(n))" : "\(n)"
            case .sum(let a, let b): "(\(a) + \(b))"
            case .quotient(let a, let b): "(\(a) / \(b))"
            }
        }
    }

    /// Unbounded expressions, defined in terms of themselves through a deferred generator.
    static let expressions: Gen<Expression> = Gen<Expression>.deferred { expression in
        Gen.oneOf(
            Gen<Int>.int().map(Expression.number),
            zip(expression, expression).map { Expression.sum($0, $1) },
            zip(expression, expression).map { Expression.quotient($0, $1) })
    }

    /// Expressions with no literal division by zero whose evaluation divides by zero anyway.
    static let calculator = ShrinkingChallenge(
        "calculator", smallest: "5 nodes, e.g. 0 / (0 + 0)", expressions, isMinimal: { $0.size == 5 }
    ) { expression in
        try assume(expression.hasNoLiteralZeroDivisor, "a literal division by zero")
        return expression.value == nil
    }

    /// The calculator with the engine's depth-bounded `Gen.recursive` instead of a deferred generator.
    static let calculatorBoundedRecursion = ShrinkingChallenge(
        "calculator_bounded_recursion", smallest: "5 nodes, e.g. 0 / (0 + 0)",
        Gen<Expression>.recursive(base: Gen<Int>.int().map(Expression.number)) { expression in
            Gen.oneOf(
                Gen<Int>.int().map(Expression.number),
                zip(expression, expression).map { Expression.sum($0, $1) },
                zip(expression, expression).map { Expression.quotient($0, $1) })
        },
        isMinimal: { $0.size == 5 }
    ) { expression in
        try assume(expression.hasNoLiteralZeroDivisor, "a literal division by zero")
        return expression.value == nil
    }

    /// A length in 1...100, then that many integers in 0...1000, whose maximum is at least 900.
    static let lengthList = ShrinkingChallenge(
        "lengthlist", smallest: "[900]",
        Gen.int(in: 1...100).flatMap { length in Gen.int(in: 0...1000).array(count: length...length) },
        isMinimal: { $0 == [900] }
    ) { values in
        (values.max() ?? 0) >= 900
    }

    /// Two positive integers (up to 2^31 - 1).
    static let positivePairs = zip(Gen.int(in: 1...Int(Int32.max)), Gen.int(in: 1...Int(Int32.max)))

    /// Two equal positive integers, the first at least 10.
    static let differenceMustNotBeZero = ShrinkingChallenge(
        "difference_must_not_be_zero", smallest: "[10, 10]", positivePairs,
        isMinimal: { $0 == (10, 10) }, describe: { "[\($0.0), \($0.1)]" }
    ) { x, y in
        x >= 10 && x == y
    }

    /// Two positive integers 1 to 4 apart, the first at least 10.
    static let differenceMustNotBeSmall = ShrinkingChallenge(
        "difference_must_not_be_small", smallest: "[10, 6]", positivePairs,
        isMinimal: { $0 == (10, 6) }, describe: { "[\($0.0), \($0.1)]" }
    ) { x, y in
        x >= 10 && (1...4).contains(abs(x - y))
    }

    /// Two positive integers 1 apart, the first at least 10.
    static let differenceMustNotBeOne = ShrinkingChallenge(
        "difference_must_not_be_one", smallest: "[10, 9]", positivePairs,
        isMinimal: { $0 == (10, 9) }, describe: { "[\($0.0), \($0.1)]" }
    ) { x, y in
        x >= 10 && abs(x - y) == 1
    }

    /// A binary heap: every node's key is at least its parent's.
    indirect enum Heap: Sendable, CustomStringConvertible {
        case empty
        case node(Int, Heap, Heap)

        /// The number of nodes.
        var size: Int {
            if case .node(_, let left, let right) = self { return 1 + left.size + right.size }
            return 0
        }

        /// The keys, root first, right subtree before left (QuickCheck's `toList`).
        var unorderedKeys: [Int] {
            var keys: [Int] = []
            var stack = [self]
            while let heap = stack.popLast() {
                if case .node(let key, let left, let right) = heap {
                    keys.append(key)
                    stack.append(left)
                    stack.append(right)
                }
            }
            return keys
        }

        /// The skew-heap merge.
        static func merge(_ a: Heap, _ b: Heap) -> Heap {
            guard case .node(let x, let a1, let a2) = a else { return b }
            guard case .node(let y, let b1, let b2) = b else { return a }
            return x <= y ? .node(x, merge(a2, b), a1) : .node(y, merge(b2, a), b1)
        }

        /// The planted bug (from QuickCheck's heap example): after the root, the merged children
        /// are listed in traversal order instead of being sorted recursively.
        var wronglySortedKeys: [Int] {
            guard case .node(let key, let left, let right) = self else { return [] }
            return [key] + Heap.merge(left, right).unorderedKeys
        }

        var description: String {
            switch self {
            case .empty: "None"
            case .node(let key, .empty, .empty): "(\(key))"
            case .node(let key, let left, let right): "(\(key), \(left), \(right))"
            }
        }
    }

    /// Heaps whose keys are at least `lowest`: empty with weight 3, a node with weight 1.
    static func heaps(atLeast lowest: Int) -> Gen<Heap> {
        Gen.frequency(
            (3, Gen.constant(Heap.empty)),
            (1, Gen.int(in: lowest...Int.max).flatMap { key in
                zip(heaps(atLeast: key), heaps(atLeast: key)).map { Heap.node(key, $0, $1) }
            }))
    }

    /// A heap whose wrong conversion to a sorted list is unsorted or not a permutation of its keys.
    static let binheap = ShrinkingChallenge(
        "binheap", smallest: "(0, None, (0, (0), (1))) or its mirror",
        Gen.int().flatMap { root in
            zip(heaps(atLeast: root), heaps(atLeast: root)).map { Heap.node(root, $0, $1) }
        },
        isMinimal: { heap in
            let smallest = "(0, None, (0, (0), (1)))", mirror = "(0, (0, (0), (1)), None)"
            return heap.description == smallest || heap.description == mirror
        }
    ) { heap in
        let sorted = heap.wronglySortedKeys
        return sorted != sorted.sorted() || sorted.sorted() != heap.unorderedKeys.sorted()
    }

    /// A list of valid indices into itself with a 2-cycle (i ≠ xs[i] and xs[xs[i]] == i).
    static let coupling = ShrinkingChallenge(
        "coupling", smallest: "[1, 0]", Gen.int(in: 0...10).array(), isMinimal: { $0 == [1, 0] }
    ) { values in
        try assume(values.allSatisfy { $0 < values.count }, "every element is a valid index")
        return values.indices.contains { index in values[index] != index && values[values[index]] == index }
    }

    /// A non-empty list and an index into it, where removing the first occurrence of the indexed
    /// value leaves that value in the list.
    static let deletion = ShrinkingChallenge(
        "deletion", smallest: "([0, 0], 0)",
        Gen<Int>.int().array(count: 1...Int.max).flatMap { values in
            Gen.int(in: 0...(values.count - 1)).map { (values, $0) }
        },
        isMinimal: { $0.0 == [0, 0] && $0.1 == 0 }, describe: { "(\($0.0), \($0.1))" }
    ) { values, index in
        var remaining = values
        let removed = values[index]
        if let first = remaining.firstIndex(of: removed) { remaining.remove(at: first) }
        return remaining.contains(removed)
    }

    /// A list with at least three distinct elements.
    static let distinct = ShrinkingChallenge(
        "distinct", smallest: "[0, 1, -1] or [0, 1, 2], in any order", Gen<Int>.int().array(),
        isMinimal: { $0.count == 3 && [[-1, 0, 1], [0, 1, 2]].contains($0.sorted()) }
    ) { values in
        Set(values).count >= 3
    }

    /// Lists of lists of zeros with more than ten zeros in all.
    static let nestedLists = ShrinkingChallenge(
        "nestedlists", smallest: "[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]", Gen.constant(0).array().array(),
        isMinimal: { $0 == [Array(repeating: 0, count: 11)] }
    ) { lists in
        lists.map(\.count).reduce(0, +) > 10
    }
}
