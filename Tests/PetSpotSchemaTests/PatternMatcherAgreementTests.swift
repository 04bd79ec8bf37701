import PetSpotPropertyEngine
import PetSpotPropertyTesting
import Testing
@testable import PetSpotSchema

/// The fast pattern matchers (the automaton and the step matcher of simple patterns, and the
/// Thompson automaton of every pattern without backreferences or lookarounds) against the
/// general backtracking ECMA-262 engine, on the contract's own patterns and on alternation,
/// anchor, repetition and non-BMP edge cases: for any pattern and any text, they agree.
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

    /// Patterns outside the simple shapes that the Thompson automaton takes.
    static let automatonPatterns: [String] = [
        "(a|b)(c|a)*", "(a+)+c|!$", "^(a+)+$", "\\bab\\b", "\\Ba", "^(?:a|b)*c$", "x(?:y|z){2,3}$", "(?:)*a", "(a*)*b",
        "(😀|é)+$", "^(?:ab|a)*b?$", "(?:a|\\b)+b", "^$|a", "(?:x|^)y",
    ]

    /// The general engine's answer; nil when its step budget ran out.
    static func general(_ source: String, _ text: String) throws -> Bool? {
        try? RegexPattern(source).backtrackingMatches(text)
    }

    /// A pattern's fast matchers, built once.
    struct Matchers: Sendable {
        let source: String
        let automaton: SimplePattern
        let steps: SimplePattern
    }

    static let matchers: [Matchers] = patterns.compactMap { source in
        var parser = RegexParser(Array(source.unicodeScalars))
        guard let root = try? parser.parse(), let simple = SimplePattern(root),
            let stepsOnly = SimplePattern(root, allowsAutomaton: false)
        else { return nil }
        return Matchers(source: source, automaton: simple, steps: stepsOnly)
    }

    /// Every pattern of both lists with its Thompson automaton (nil for none).
    static let automata: [(source: String, automaton: PatternNFA?)] = (patterns + automatonPatterns).map { source in
        var parser = RegexParser(Array(source.unicodeScalars))
        return (source, (try? parser.parse()).flatMap { PatternNFA($0) })
    }

    static let text = Gen<String>.frequency(
        (1, .element(of: ["2025-06-01", " 2025-12-31\u{3000}", "2025-13-01", "2025-00-10", "2025-02-30", "2025-02-32",
                          "owner@example.com", " 900000000000001 ", "ac", "abc", "abb", "xy", "xay", "éx", "😀b", "ab", "a",
                          "aaaaaaaac", "aaaa!", "ab ab", "xyzy"])),
        (4, Gen<String>.element(of: Self.alphabet).array(count: 0...13).map { $0.joined() }))

    @Test("every simple pattern takes the fast path; most get an automaton")
    func fastPathsAreUsed() {
        // All but `(a|b)(c|a)*` (a repeated group) take the simple path.
        #expect(Self.matchers.count == Self.patterns.count - 1)
        #expect(Self.matchers.filter(\.automaton.usesAutomaton).count >= 10)
        #expect(!Self.matchers.contains { $0.steps.usesAutomaton })
        let lookarounds = Self.automata.filter { $0.source.contains("(?=") || $0.source.contains("(?!") }
        #expect(lookarounds.count == 2 && lookarounds.allSatisfy { $0.automaton == nil }, "lookarounds keep the backtracker")
        #expect(Self.automata.count - lookarounds.count == Self.automata.filter { $0.automaton != nil }.count)
    }

    @Test("the automaton, the step matcher and the general engine agree on generated texts")
    func matchersAgree() {
        let cases = PetSpotPropertyEngine.zip(Gen.int(in: 0...(Self.matchers.count - 1)), Self.text)
        propertyCheck(cases, configuration: PropertyConfiguration(cases: 3000), verifying: { index, text in
            let matchers = Self.matchers[index]
            guard let expected = try Self.general(matchers.source, text) else { return }
            let fast = matchers.automaton.matches(text.utf8.span)
            let steps = matchers.steps.matches(text.utf8.span)
            try require(fast == expected, "automaton: /\(matchers.source)/ on \(text.debugDescription): \(String(describing: fast)), expected \(expected)")
            try require(steps == expected, "steps: /\(matchers.source)/ on \(text.debugDescription): \(String(describing: steps)), expected \(expected)")
        })
    }

    @Test("the Thompson automaton and the general engine agree on generated texts")
    func thompsonAutomatonAgrees() {
        let cases = PetSpotPropertyEngine.zip(Gen.int(in: 0...(Self.automata.count - 1)), Self.text)
        propertyCheck(cases, configuration: PropertyConfiguration(cases: 3000), verifying: { index, text in
            let (source, automaton) = Self.automata[index]
            guard let automaton, let expected = try Self.general(source, text) else { return }
            let answer = automaton.matches(text.utf8.span)
            try require(answer == expected, "Thompson automaton: /\(source)/ on \(text.debugDescription): \(answer), expected \(expected)")
        })
    }
}
