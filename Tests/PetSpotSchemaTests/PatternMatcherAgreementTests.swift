import PetSpotPropertyEngine
import PetSpotPropertyTesting
import Testing
@testable import PetSpotSchema

/// The fast pattern matchers (the automaton and the step matcher) against the general
/// backtracking ECMA-262 engine, on the contract's own patterns and on alternation, anchor and
/// non-BMP edge cases: for any pattern and any text, all three agree.
@Suite("Pattern matchers agree")
struct PatternMatcherAgreementTests {
    static let whiteSpace = "[\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]"
    static let nonWhiteSpace = "[^\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]"
    static let nonWhiteSpaceOrAt = "[^\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff@]"
    static let patterns: [String] = [
        "^\(whiteSpace)*[0-9]+\(whiteSpace)*$",
        "^\(whiteSpace)*\(nonWhiteSpace){1,254}\(whiteSpace)*$",
        "^\(whiteSpace)*\(nonWhiteSpaceOrAt)+@\(nonWhiteSpaceOrAt)+\\.\(nonWhiteSpaceOrAt)+\(whiteSpace)*$",
        "[0-9]",
        nonWhiteSpace,
        "^\(whiteSpace)*[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])\(whiteSpace)*$",
        "[0-9]{2}-(0[1-9]|1[0-2])",
        "(a|ab)c", "^(a|ab)c$", "(ab|a)b$", "a|b", "^(a|b|)c", "x(|a)y", "(?=(a|b)c)", "(?!(a|ab)c)a",
        "^(é|ü)x", "(😀|a)b", "^(.|ab)$", "a$b", "^$", "$^", "^", "$", "a?$", "^a{2,4}b?$", "b{0,3}$", "[^a-c\\u00e9-\\u00fc]+$", ".b", "\\S\\s", "^\\d*\\w{2}\\W$", "[😀-😂é]{2}", "(\\d{2}|[ab])-", "^a*(b|ba)a*$", "(a|b)(c|a)*", "[ab]+?(a|c)",
    ]
    static let alphabet: [String] = ["0", "1", "2", "3", "9", "-", "a", "b", "c", "x", "y", "@", ".", " ", "\n", "\u{A0}", "\u{3000}", "é", "ü", "😀", "😁", "\u{2028}", "\t", "_", "\u{FEFF}"]

    static func general(_ source: String, _ text: String) throws -> Bool {
        var parser = _RegexParser(Array(source.unicodeScalars))
        let root = try parser.parse()
        let captureCount = parser.captureCount
        let anchored: Bool
        if case .sequence(let nodes) = root, case .lineStart? = nodes.first { anchored = true } else { anchored = false }
        return Array(text.utf8).withUnsafeBufferPointer { bytes in
            let state = _MatchState(bytes: bytes, captureCount: captureCount)
            var start = 0
            while true {
                if state.match(root, start, { _ in true }) { return true }
                if anchored || start >= bytes.count { return false }
                start = state.next(start)
            }
        }
    }

    /// A pattern's three matchers, built once.
    struct Matchers: @unchecked Sendable {
        // Unchecked: the matchers are immutable after compilation.
        let source: String
        let automaton: _SimplePattern
        let steps: _SimplePattern
    }

    static let matchers: [Matchers] = patterns.compactMap { source in
        var parser = _RegexParser(Array(source.unicodeScalars))
        guard let root = try? parser.parse(), let simple = _SimplePattern(root),
            let stepsOnly = _SimplePattern(root, allowsAutomaton: false)
        else { return nil }
        return Matchers(source: source, automaton: simple, steps: stepsOnly)
    }

    @Test("every simple pattern takes the fast path; most get an automaton")
    func fastPathsAreUsed() {
        // All but `(a|b)(c|a)*` (a repeated group) take the simple path.
        #expect(Self.matchers.count == Self.patterns.count - 1)
        #expect(Self.matchers.filter(\.automaton.usesAutomaton).count >= 10)
        #expect(!Self.matchers.contains { $0.steps.usesAutomaton })
    }

    @Test("the automaton, the step matcher and the general engine agree on generated texts")
    func matchersAgree() {
        let samples = ["2025-06-01", " 2025-12-31\u{3000}", "2025-13-01", "2025-00-10", "2025-02-30", "2025-02-32",
                       "owner@example.com", " 900000000000001 ", "ac", "abc", "abb", "xy", "xay", "éx", "😀b", "ab", "a"]
        let text = Gen<String>.frequency(
            (1, .element(of: samples)),
            (4, Gen<String>.element(of: Self.alphabet).array(count: 0...13).map { $0.joined() }))
        let cases = PetSpotPropertyEngine.zip(Gen.int(in: 0...(Self.matchers.count - 1)), text)
        propertyCheck(cases, configuration: PropertyConfiguration(cases: 3000), verifying: { index, text in
            let matchers = Self.matchers[index]
            let expected = try Self.general(matchers.source, text)
            let fast = Array(text.utf8).withUnsafeBufferPointer { matchers.automaton.matches($0) }
            let steps = Array(text.utf8).withUnsafeBufferPointer { matchers.steps.matches($0) }
            try require(fast == expected, "automaton: /\(matchers.source)/ on \(text.debugDescription): \(String(describing: fast)), expected \(expected)")
            try require(steps == expected, "steps: /\(matchers.source)/ on \(text.debugDescription): \(String(describing: steps)), expected \(expected)")
        })
    }
}
