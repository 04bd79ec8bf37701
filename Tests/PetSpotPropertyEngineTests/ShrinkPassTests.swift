@testable import PetSpotPropertyEngine
import Testing

/// The result of running one shrink pass on its own.
struct PassRun<Value> {
    let value: Value
    let choices: [UInt64]
    let replays: Int
    let improvements: Int
}

/// Runs the shrink pass called `pass`, and no other, on the choice sequence `choices` of `gen`
/// until it improves nothing more; `fails` is the property's failure condition.
func run<Value>(
    _ pass: String, on gen: Gen<Value>, from choices: [UInt64], sourceLocation: SourceLocation = #_sourceLocation,
    fails: @escaping (Value) -> Bool
) throws -> PassRun<Value> {
    #expect(ShrinkPass.registry.contains { $0.name == pass }, "no pass named \(pass)", sourceLocation: sourceLocation)
    let start = try gen.replay(choices)
    try #require(fails(start), "the starting value \(start) does not fail", sourceLocation: sourceLocation)
    var shrinker = Shrinker(
        failing: choices, limits: Shrinker.Limits(maxReplays: 10_000, stallLimit: 10_000, timeLimit: .seconds(5))
    ) { candidate in
        var testCase = TestCase(replaying: candidate)
        let outcome: ChoiceTree.Outcome
        do {
            outcome = fails(try gen.draw(&testCase)) ? .failed : .passed
        } catch {
            outcome = .discarded
        }
        return Shrinker.Replay(
            outcome: outcome, choices: testCase.choices, bounds: testCase.bounds, shapes: testCase.shapes, spans: testCase.spans)
    }
    var rounds = 0
    while shrinker.run(passNamed: pass) && rounds < 100 { rounds += 1 }
    #expect(shrinker.stopReason == nil, "the pass ran into a budget: \(String(describing: shrinker.stopReason))", sourceLocation: sourceLocation)
    return PassRun(
        value: try gen.replay(shrinker.best), choices: shrinker.best, replays: shrinker.replays,
        improvements: shrinker.improvements)
}

/// The choice that `Gen.int(in:)` records for `value` in a range around 0 wide enough for it:
/// `0, 1, -1, 2, -2, ...` are choices `0, 1, 2, 3, 4, ...`.
func zigzag(_ value: Int) -> UInt64 {
    value > 0 ? UInt64(2 * value - 1) : UInt64(-2 * value)
}

/// Draws a list with a hand-written "another?" choice and no spans: a generator the engine knows nothing about.
let rawList = Gen<[UInt64]> { testCase in
    var values: [UInt64] = []
    while try testCase.choice(upTo: 1) == 1 { values.append(try testCase.choice(upTo: 9)) }
    return values
}

/// Draws a count, then that many values, with no spans.
let rawCounted = Gen<[UInt64]> { testCase in
    let count = try testCase.choice(upTo: 5)
    return try (0..<count).map { _ in try testCase.choice(upTo: 9) }
}

@Suite("Each shrink pass, on its own, turns X into Y")
struct ShrinkPassTests {
    @Test("the registry names every pass once, each with a summary")
    func registry() {
        let names = ShrinkPass.registry.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(ShrinkPass.registry.allSatisfy { $0.summary.hasPrefix("turns ") })
    }

    @Test("zeroCollections turns \"xQbz\" into \"aaaa\" in one replay")
    func zeroCollections() throws {
        let gen = Gen.string(from: .asciiLetters, length: 4...4)
        let result = try run("zeroCollections", on: gen, from: [23, 42, 1, 25]) { $0.count == 4 }
        #expect(result.value == "aaaa")
        #expect(result.replays == 2, "one replay to learn the structure, one to zero the string")
    }

    @Test("deleteElements turns [5, 7, 3] into [7] when only the 7 matters")
    func deleteElements() throws {
        let gen = Gen.int(in: 0...100).array()
        let result = try run("deleteElements", on: gen, from: [1, 5, 1, 7, 1, 3, 0]) { $0.contains(7) }
        #expect(result.value == [7])
    }

    @Test("deleteElements drops a hundred irrelevant elements in a few dozen replays, not a hundred")
    func deleteElementsExponentially() throws {
        let gen = Gen.int(in: 0...100).array()
        let choices: [UInt64] = (0..<100).flatMap { index -> [UInt64] in [1, UInt64(index % 50 + 1)] } + [1, 77, 0]
        let result = try run("deleteElements", on: gen, from: choices) { $0.contains(77) }
        #expect(result.value == [77])
        #expect(result.replays < 30, "\(result.replays) replays")
    }

    @Test("joinElements turns [[0, 0], [0]] into [[0, 0, 0]]")
    func joinElements() throws {
        let gen = Gen.constant(0).array().array()
        let result = try run("joinElements", on: gen, from: [1, 1, 1, 0, 1, 1, 0, 0]) { $0.joined().count >= 3 }
        #expect(result.value == [[0, 0, 0]])
    }

    indirect enum Tree: Equatable, Sendable {
        case leaf(Int)
        case node(Tree, Tree)

        var leaves: [Int] {
            switch self {
            case .leaf(let value): [value]
            case .node(let left, let right): left.leaves + right.leaves
            }
        }
    }

    static let trees = Gen<Tree>.deferred { tree in
        .oneOf(Gen.int(in: 0...9).map(Tree.leaf), zip(tree, tree).map { Tree.node($0, $1) })
    }

    @Test("passToDescendant turns (1, (7, 2)) into 7: a node replaced by the node inside it that fails")
    func passToDescendant() throws {
        // node(leaf 1, node(leaf 7, leaf 2)): pick 1 (node), leaf 1, pick 1 (node), leaf 7, leaf 2.
        let result = try run("passToDescendant", on: Self.trees, from: [1, 0, 1, 1, 0, 7, 0, 2]) { $0.leaves.contains(7) }
        #expect(result.value == .leaf(7))
    }

    @Test("zeroSpans turns two picks of an alternative into their simplest draws")
    func zeroSpans() throws {
        let pick = Gen.oneOf(Gen.constant(0), Gen.int(in: 1...9))
        let result = try run("zeroSpans", on: zip(pick, pick), from: [1, 4, 1, 7]) { _ in true }
        #expect(result.value == (0, 0))
    }

    @Test("zeroSpans zeroes the elements of every collection at once, keeping their count")
    func zeroSpansElements() throws {
        let words = Gen.string(from: .asciiLetters, length: 2...2).array(count: 2...2)
        let result = try run("zeroSpans", on: words, from: [23, 16, 25, 25]) { $0.count == 2 }
        #expect(result.value == ["aa", "aa"])
    }

    @Test("lowerDuplicates turns (2147483000, 2147483000) into (10, 10)")
    func lowerDuplicates() throws {
        let positive = Gen.int(in: 1...Int(Int32.max))
        let result = try run("lowerDuplicates", on: zip(positive, positive), from: [2_147_482_999, 2_147_482_999]) {
            $0 >= 10 && $0 == $1
        }
        #expect(result.value == (10, 10))
        #expect(result.replays < 40, "\(result.replays) replays")
    }

    @Test("minimizeChoices turns 2147483000 into 1234 with exponential probes, not by units")
    func minimizeChoices() throws {
        let result = try run("minimizeChoices", on: Gen.int(in: 0...Int(Int32.max)), from: [2_147_483_000]) { $0 >= 1234 }
        #expect(result.value == 1234)
        #expect(result.replays < 60, "\(result.replays) replays")
    }

    @Test("minimizeChoices turns -5 into 5 when the sign does not matter, and keeps -1234 when it does")
    func minimizeChoicesSigns() throws {
        let gen = Gen.int(in: -100_000...100_000)
        #expect(try run("minimizeChoices", on: gen, from: [zigzag(-5)]) { abs($0) >= 5 }.value == 5)
        #expect(try run("minimizeChoices", on: gen, from: [zigzag(-90_000)]) { $0 <= -1234 }.value == -1234)
    }

    @Test("minimizeChoices stops at a value whose smaller neighbours fail but replay to longer sequences")
    func minimizeChoicesProgressGuard() throws {
        // Values below 500 draw three more choices: they fail, but their sequences are longer,
        // so they are not simpler. A search that took "fails" for "improves" would repeat them
        // until the deadline.
        let gen = Gen.int(in: 0...1000).flatMap { value in
            value < 500 ? Gen.int(in: 0...9).array(count: 3...3).map { _ in value } : Gen.constant(value)
        }
        let result = try run("minimizeChoices", on: gen, from: [900]) { $0 >= 10 }
        #expect(result.value == 500 && result.choices == [500])
        #expect(result.replays < 60, "\(result.replays) replays")
    }

    @Test("minimizeChoices moves in steps of two through a filter that keeps even values")
    func minimizeChoicesThroughAFilter() throws {
        let evens = Gen.int(in: 0...10_000).filter("even") { $0 % 2 == 0 }
        #expect(try run("minimizeChoices", on: evens, from: [9000]) { $0 >= 600 }.value == 600)
    }

    @Test("lowerTogether turns (2147483000, 2147482996) into (10, 6)")
    func lowerTogether() throws {
        let positive = Gen.int(in: 1...Int(Int32.max))
        let result = try run("lowerTogether", on: zip(positive, positive), from: [2_147_482_999, 2_147_482_995]) {
            $0 >= 10 && (1...4).contains(abs($0 - $1))
        }
        #expect(result.value == (10, 6))
        #expect(result.replays < 50, "\(result.replays) replays")
    }

    @Test("shiftTogether turns (-1, -1, 0) into (0, 0, 1): ordered keys move together")
    func shiftTogether() throws {
        let keys = Gen.int(in: -10...10).flatMap { a in
            Gen.int(in: a...10).flatMap { b in Gen.int(in: b...10).map { c in [a, b, c] } }
        }
        // In ranges that contain 0, -1 is choice 2 and 0 is choice 0.
        let result = try run("shiftTogether", on: keys, from: [2, 2, 0]) { $0[0] == $0[1] && $0[2] == $0[0] + 1 }
        #expect(result.value == [0, 0, 1])
    }

    @Test("redistribute turns (5, 5) into (0, 10) where only the sum matters")
    func redistribute() throws {
        let digits = Gen.int(in: 0...100)
        #expect(try run("redistribute", on: zip(digits, digits), from: [5, 5]) { $0 + $1 == 10 }.value == (0, 10))
    }

    @Test("redistribute turns (1, 32767) of Int16 into (0, -32768): past the range's end, values wrap around")
    func redistributeWraps() throws {
        let shorts = Gen<Int16>.anyInteger
        let result = try run("redistribute", on: zip(shorts, shorts), from: [zigzag(1), zigzag(32767)]) { $0 &+ $1 == .min }
        #expect(result.value == (0, .min))
    }

    @Test("sortSpans turns [2, 0, 1] into [0, 1, 2] where order does not matter")
    func sortSpans() throws {
        let gen = Gen.int(in: 0...9).array()
        #expect(try run("sortSpans", on: gen, from: [1, 2, 1, 0, 1, 1, 0]) { Set($0) == [0, 1, 2] }.value == [0, 1, 2])
    }

    @Test("sortSpans swaps two lists of a tuple when the simpler one comes second")
    func sortSpansSiblings() throws {
        let lists = zip(Gen.int(in: 0...9).array(), Gen.int(in: 0...9).array())
        let result = try run("sortSpans", on: lists, from: [1, 5, 0, 0]) { $0.0.isEmpty != $0.1.isEmpty }
        #expect(result.value.0 == [] && result.value.1 == [5])
    }

    @Test("deleteChunks turns [3, 0, 9] into [9] for a generator without spans")
    func deleteChunks() throws {
        #expect(try run("deleteChunks", on: rawList, from: [1, 3, 1, 0, 1, 9, 0]) { $0.contains(9) }.value == [9])
    }

    @Test("deleteAndLower turns [0, 2, 1] into [1, 0] where values point at positions")
    func deleteAndLower() throws {
        let indices = Gen.int(in: 0...10).array()
        let result = try run("deleteAndLower", on: indices, from: [1, 0, 1, 0, 1, 0, 1, 4, 1, 3, 0]) { values in
            values.allSatisfy { $0 < values.count }
                && values.indices.contains { values[$0] != $0 && values[values[$0]] == $0 }
        }
        #expect(result.value == [1, 0])
    }

    @Test("lowerAndDelete turns a count of 3 and three values into a count of 1 and one value")
    func lowerAndDelete() throws {
        let result = try run("lowerAndDelete", on: rawCounted, from: [3, 1, 9, 2]) { $0.contains(9) }
        #expect(result.value == [9] && result.choices == [1, 9])
    }

    @Test("zeroChunks turns [4, 9, 1] into [0, 0, 0] for a generator without spans")
    func zeroChunks() throws {
        let triple = Gen<[UInt64]> { testCase in try (0..<3).map { _ in try testCase.choice(upTo: 9) } }
        #expect(try run("zeroChunks", on: triple, from: [4, 9, 1]) { _ in true }.value == [0, 0, 0])
    }

    @Test("sortChoices turns [9, 3] into [3, 9] where order does not matter")
    func sortChoices() throws {
        let pair = Gen<[UInt64]> { testCase in [try testCase.choice(upTo: 9), try testCase.choice(upTo: 9)] }
        #expect(try run("sortChoices", on: pair, from: [9, 3]) { Set($0) == [3, 9] }.value == [3, 9])
    }
}

/// Shrinking a failure whose candidates the caller judges (programs sent to a backend): the same
/// passes, under a budget of what the judgements cost.
@Suite("Shrinking a failure its caller judges, within what its replays may cost")
struct CallerJudgedShrinkTests {
    static let list = Gen.int(in: 0...1000).array(count: 0...20)
    /// The choices of [7, 600, 3, 4].
    static let choices: [UInt64] = [1, 7, 1, 600, 1, 3, 1, 4, 0]

    @Test("every judgement is charged to the budget, and shrinking stops at the first it cannot pay for")
    func costBudget() throws {
        #expect(try Self.list.replay(Self.choices) == [7, 600, 3, 4])
        var paid = 0, refused = 0
        let shrunk = try Self.list.shrink(Self.choices, size: 100, failure: "600", budget: ShrinkBudget(maxCost: 35)) { value, left in
            guard left >= 10 else {
                refused += 1
                return .stop(cost: 0)
            }
            paid += 1
            return value.contains { $0 >= 500 } ? .failed("\(value)", cost: 10) : .passed(cost: 10)
        }
        #expect(paid == 3 && refused == 1 && shrunk.cost == 30 && shrunk.replays == 3)
        #expect(shrunk.stopReason == .replayBudget)
        #expect(shrunk.value.contains { $0 >= 500 } && shrunk.failure == "\(shrunk.value)")
    }

    @Test("a candidate judged on its first choices alone loses the rest: [7, 600, 3, 4] becomes [7, 600] in its first replay")
    func readChoices() throws {
        func judge(_ value: [Int], _ left: Int) -> ShrinkJudgement<String> {
            guard let index = value.firstIndex(where: { $0 >= 500 }) else { return .passed(cost: 1) }
            // Element k's choices are its "another?" choice and its value: the first 2(k+1) choices.
            return .failed("at \(index)", cost: 1, readChoices: 2 * (index + 1))
        }
        let first = try Self.list.shrink(Self.choices, size: 100, failure: "", budget: ShrinkBudget(maxCost: 100, maxReplays: 1), judge: judge)
        #expect(first.value == [7, 600] && first.choices == [1, 7, 1, 600, 0])
        #expect(first.steps == 1 && first.replays == 1 && first.stopReason == .replayBudget)
        let shrunk = try Self.list.shrink(Self.choices, size: 100, failure: "", budget: ShrinkBudget(maxCost: 1000), judge: judge)
        #expect(shrunk.value == [500] && shrunk.failure == "at 0" && shrunk.stopReason == .minimal)
    }

    @Test("elements are deleted first: after the replay that learns the structure, [7, 600, 3, 4] is judged as [7, 600, 3], not zeroed")
    func deletesFirst() throws {
        var judged: [[Int]] = []
        let shrunk = try Self.list.shrink(Self.choices, size: 100, failure: "", budget: ShrinkBudget(maxCost: 1000)) { value, _ in
            judged.append(value)
            return value.contains { $0 >= 500 } ? .failed("\(value)", cost: 1) : .passed(cost: 1)
        }
        #expect(Array(judged.prefix(2)) == [[7, 600, 3, 4], [7, 600, 3]], "\(judged.prefix(4))")
        #expect(shrunk.value == [500])
    }

    @Test("a collection drawn with a planned length or a fresh minimum has it when drawn fresh, reads its choices on replay, and its elements delete")
    func plannedCollection() throws {
        func digits(planned: Int) -> Gen<[UInt64]> {
            Gen { testCase in
                var values: [UInt64] = []
                try testCase.drawCollection(count: 1...6, plannedLength: planned, what: "digits") { values.append(try $0.choice(upTo: 9)) }
                return values
            }
        }
        for seed in UInt64(1)...20 {
            #expect(try digits(planned: 4).sample(seed: seed).count == 4)
            #expect(try digits(planned: 9).sample(seed: seed).count == 6)
            #expect(try digits(planned: 0).sample(seed: seed).count == 1)
        }
        #expect(try digits(planned: 4).replay([5, 1, 3, 0]) == [5, 3])
        // At least two when drawn fresh, but every element has its "another?" choice: a replay may have none.
        let atLeastTwo = Gen<[UInt64]> { testCase in
            var values: [UInt64] = []
            try testCase.drawCollection(count: 0...6, freshMinimum: 2, what: "digits") { values.append(try $0.choice(upTo: 9)) }
            return values
        }
        for seed in UInt64(1)...20 {
            let sample = try atLeastTwo.sample(seed: seed, size: seed == 1 ? 0 : 100)
            #expect(sample.count >= 2, "\(sample)")
        }
        #expect(try atLeastTwo.replay([0]) == [] && atLeastTwo.replay([1, 4, 0]) == [4])
        let result = try run("deleteElements", on: digits(planned: 4), from: [5, 1, 3, 1, 7, 1, 2, 0]) { $0.contains(7) }
        #expect(result.value == [7])
    }
}
