/// A compiled ECMA-262 regular expression, as JSON Schema's `pattern` and `patternProperties`
/// require.
///
/// ECMA semantics rather than ICU's: `\d` is `[0-9]`, `\w` is `[A-Za-z0-9_]`, `\s` is
/// ECMAScript white space and line terminators, `$` matches only at the very end, `.` stops at
/// line terminators; with Unicode-mode code points (`\u{…}`, surrogate pairs joined, `\p{…}`).
/// Supported: alternation, groups (capturing, `(?:…)`, named), greedy and lazy quantifiers,
/// classes, backreferences, lookahead and lookbehind, `\b`/`\B`. Patterns are searched, not
/// anchored, as `RegExp.prototype.test` does.
///
/// Three matchers, fastest first: ``SimplePattern`` (an automaton or a flat step list, for the
/// anchored-run shapes schemas use most), ``PatternNFA`` (every pattern without backreferences
/// or lookarounds: exact, in time linear in the text) and ``BacktrackingMatcher`` (the rest,
/// within a step budget). Only the last can run out of budget, and then ``matches(_:)`` throws
/// instead of answering.
final class RegexPattern: Sendable {
    /// The pattern as written in the schema.
    let source: String
    private let root: RegexNode
    private let anchoredAtStart: Bool
    private let captureCount: Int
    private let simple: SimplePattern?
    /// ``simple`` for the fast path, unretained (owned by ``simple``).
    private let unretainedSimple: UnretainedReference<SimplePattern>?
    private let automaton: PatternNFA?

    init(_ source: String) throws(PatternSyntaxError) {
        self.source = source
        var parser = RegexParser(Array(source.unicodeScalars))
        let root = try parser.parse()
        try parser.checkBackreferences()
        self.root = root
        self.captureCount = parser.captureCount
        self.anchoredAtStart = root.isAnchoredAtStart
        let simple = SimplePattern(root)
        self.simple = simple
        self.unretainedSimple = simple.map(UnretainedReference.init)
        // The step matcher can run out of budget; the automaton never does, so it needs no fallback.
        self.automaton = simple?.usesAutomaton == true ? nil : PatternNFA(root)
    }

    /// Whether the pattern matches somewhere in `text`.
    /// - Throws: ``PatternStepBudgetExhausted`` when the backtracking matcher ran out of steps
    ///   before it proved a match or its absence (never for patterns the faster matchers take).
    func matches(_ text: String) throws(PatternStepBudgetExhausted) -> Bool {
        guard text.isContiguousUTF8 else {
            var contiguous = text
            contiguous.makeContiguousUTF8()
            return try matches(contiguous)
        }
        if let unretainedSimple, let result = unretainedSimple.withObject({ simple in text.withUTF8Span { simple.matches($0) } }) {
            return result
        }
        if let automaton {
            // Past the work limit the backtracker would be no better (and would recurse deeply).
            guard automaton.fitsWorkLimit(byteCount: text.utf8.count) else { throw PatternStepBudgetExhausted(pattern: source) }
            return text.withUTF8Span { automaton.matches($0) }
        }
        return try backtrackingMatches(text)
    }

    /// The general matcher's answer alone, bypassing the fast matchers (to test them against it).
    func backtrackingMatches(_ text: String) throws(PatternStepBudgetExhausted) -> Bool {
        let matcher = BacktrackingMatcher(bytes: Array(text.utf8), captureCount: captureCount)
        do {
            return try matcher.search(root, anchoredAtStart: anchoredAtStart)
        } catch {
            throw PatternStepBudgetExhausted(pattern: source)
        }
    }
}
