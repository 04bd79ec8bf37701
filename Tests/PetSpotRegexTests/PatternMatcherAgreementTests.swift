import PetSpotPropertyEngine
import PetSpotPropertyTesting
import Testing
@testable import PetSpotRegex

/// The linear matcher (the Thompson automaton of every pattern without backreferences or
/// lookarounds, in its deterministic form and in its state-set run) against the backtracking
/// ECMA-262 matcher, on the contract's own patterns and on alternation, anchor, repetition,
/// word-boundary and non-BMP edge cases: for any pattern and any text, they agree.
@Suite("Pattern matchers agree")
struct PatternMatcherAgreementTests {
    static let whiteSpace = "[\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]"
    static let nonWhiteSpace = "[^\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]"
    static let nonWhiteSpaceOrAt = "[^\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff@]"
    /// The shapes of the contract schemas' patterns: each must run as a table.
    static let contractPatterns: [String] = [
        "^\(whiteSpace)*[0-9]+\(whiteSpace)*$",
        "^\(whiteSpace)*\(nonWhiteSpace){1,254}\(whiteSpace)*$",
        "^\(whiteSpace)*\(nonWhiteSpaceOrAt)+@\(nonWhiteSpaceOrAt)+\\.\(nonWhiteSpaceOrAt)+\(whiteSpace)*$",
        "[0-9]",
        nonWhiteSpace,
        "^\(whiteSpace)*[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])\(whiteSpace)*$",
        "^[0-9]{1,15}$", "^\\+*([0-9]\\+*){7,11}$", "^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$",
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$",
        "^/images/[^/?#\\s]+\\.[a-z0-9]+$",
    ]
    /// Edge cases for the linear matcher: alternations, anchors, repeats, word boundaries.
    static let linearPatterns: [String] = [
        "[0-9]{2}-(0[1-9]|1[0-2])",
        "(a|ab)c", "^(a|ab)c$", "(ab|a)b$", "a|b", "^(a|b|)c", "x(|a)y",
        "^(é|ü)x", "(😀|a)b", "^(.|ab)$", "a$b", "^$", "$^", "^", "$", "a?$", "^a{2,4}b?$", "b{0,3}$", "[^a-c\\u00e9-\\u00fc]+$", ".b", "\\S\\s", "^\\d*\\w{2}\\W$", "[😀-😂é]{2}", "(\\d{2}|[ab])-", "^a*(b|ba)a*$", "(a|b)(c|a)*", "[ab]+?(a|c)",
        "(a+)+c|!$", "^(a+)+$", "\\bab\\b", "\\Ba", "^(?:a|b)*c$", "x(?:y|z){2,3}$", "(?:)*a", "(a*)*b",
        "(😀|é)+$", "^(?:ab|a)*b?$", "(?:a|\\b)+b", "^$|a", "(?:x|^)y", "\\b", "\\B", "a\\b$", "^\\B", "\\w\\b\\W",
        "^\\p{Ll}+\\b", "\\P{L}a",
    ]
    /// Patterns the linear matcher leaves to the backtracker.
    static let backtrackingPatterns: [String] = ["(?=(a|b)c)", "(?!(a|ab)c)a", "(?<=a)b", "^(a|b)\\1$"]
    static let alphabet: [String] = ["0", "1", "2", "3", "9", "-", "a", "b", "c", "x", "y", "@", ".", " ", "\n", "\u{A0}", "\u{3000}", "é", "ü", "😀", "😁", "\u{2028}", "\t", "_", "\u{FEFF}", "A", "+", "/"]

    /// The backtracking matcher's answer; nil when its step budget ran out.
    static func backtracking(_ source: String, _ text: String) -> Bool? {
        try? RegexPattern(source).backtrackingMatches(text)
    }

    /// A pattern's linear matcher in both forms; nil for patterns it does not take.
    struct Linear: Sendable {
        let source: String
        let table: PatternNFA
        let stateSets: PatternNFA
    }

    static func linear(_ source: String) -> Linear? {
        var parser = RegexParser(Array(source.unicodeScalars))
        guard let root = try? parser.parse(), let table = PatternNFA(root),
            let stateSets = PatternNFA(root, allowsDeterministicForm: false)
        else { return nil }
        return Linear(source: source, table: table, stateSets: stateSets)
    }

    static let matchers: [Linear] = (contractPatterns + linearPatterns).compactMap(linear)

    static let text = Gen<String>.frequency(
        (1, .element(of: ["2025-06-01", " 2025-12-31\u{3000}", "2025-13-01", "2025-00-10", "2025-02-30", "2025-02-32",
                          "owner@example.com", " 900000000000001 ", "ac", "abc", "abb", "xy", "xay", "éx", "😀b", "ab", "a",
                          "aaaaaaaac", "aaaa!", "ab ab", "xyzy", "+48 600", "/images/a.png", "2025-06-01T10:00:00.5+02:00"])),
        (4, Gen<String>.element(of: Self.alphabet).array(count: 0...13).map { $0.joined() }))

    @Test("patterns without backreferences or lookarounds take the linear matcher, the contract's as tables")
    func linearMatcherIsUsed() {
        #expect(Self.matchers.count == Self.contractPatterns.count + Self.linearPatterns.count)
        for source in Self.contractPatterns {
            #expect(Self.linear(source)?.table.isDeterministic == true, "/\(source)/ runs as a table")
        }
        #expect(Self.matchers.filter(\.table.isDeterministic).count >= Self.matchers.count - 2)
        for source in ["^\\p{Ll}+\\b", "\\P{L}a", "^(?:a|b){1,2000}$"] {
            #expect(Self.linear(source).map { !$0.table.isDeterministic } == true, "/\(source)/ runs state set by state set")
        }
        #expect(!Self.matchers.contains { $0.stateSets.isDeterministic })
        for source in Self.backtrackingPatterns {
            #expect(Self.linear(source) == nil, "/\(source)/ keeps the backtracker")
        }
    }

    @Test("the table, the state-set run and the backtracking matcher agree on generated texts")
    func matchersAgree() {
        let cases = PetSpotPropertyEngine.zip(Gen.int(in: 0...(Self.matchers.count - 1)), Self.text)
        propertyCheck(cases, configuration: PropertyConfiguration(cases: 4000), verifying: { index, text in
            let matchers = Self.matchers[index]
            guard let expected = Self.backtracking(matchers.source, text) else { return }
            let table = text.withUTF8Span { matchers.table.matches($0) }
            let stateSets = text.withUTF8Span { matchers.stateSets.matches($0) }
            let form = matchers.table.isDeterministic ? "table" : "state sets (no table)"
            try require(table == expected, "\(form): /\(matchers.source)/ on \(text.debugDescription): \(table), expected \(expected)")
            try require(stateSets == expected, "state sets: /\(matchers.source)/ on \(text.debugDescription): \(stateSets), expected \(expected)")
        })
    }
}
