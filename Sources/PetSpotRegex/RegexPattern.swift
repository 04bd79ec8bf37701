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
/// Two matchers: ``PatternNFA`` for every pattern without backreferences or lookarounds (exact,
/// in time linear in the text) and ``BacktrackingMatcher`` for the rest (within a step budget).
/// When the search runs out of work (the backtracker's budget, or the linear matcher's work
/// limit on a huge automaton), ``matches(_:)`` throws instead of answering.
package final class RegexPattern: Sendable {
    /// The pattern as written in the schema.
    package let source: String
    private let root: RegexNode
    private let anchoredAtStart: Bool
    private let captureCount: Int
    private let linear: PatternNFA?

    /// Parses `source` and builds its matcher.
    /// - Throws: ``PatternSyntaxError`` naming the position of the first error.
    package init(_ source: String) throws(PatternSyntaxError) {
        self.source = source
        var parser = RegexParser(Array(source.unicodeScalars))
        let root = try parser.parse()
        try parser.checkBackreferences()
        self.root = root
        self.captureCount = parser.captureCount
        self.anchoredAtStart = root.isAnchoredAtStart
        self.linear = PatternNFA(root)
    }

    /// Whether the pattern matches somewhere in `text`.
    /// - Throws: ``PatternStepBudgetExhausted`` when the search ran out of work before it proved
    ///   a match or its absence (the backtracking matcher's step budget, or a state-set run too
    ///   long for ``PatternNFA/workLimit``).
    package func matches(_ text: String) throws(PatternStepBudgetExhausted) -> Bool {
        guard text.isContiguousUTF8 else {
            var contiguous = text
            contiguous.makeContiguousUTF8()
            return try matches(contiguous)
        }
        if let linear {
            // Past the work limit the backtracker would be no better (and would recurse deeply).
            guard linear.fitsWorkLimit(byteCount: text.utf8.count) else { throw PatternStepBudgetExhausted(pattern: source) }
            return text.withUTF8Span { linear.matches($0) }
        }
        return try backtrackingMatches(text)
    }

    /// The backtracking matcher's answer alone, bypassing the linear one (to test it against it).
    func backtrackingMatches(_ text: String) throws(PatternStepBudgetExhausted) -> Bool {
        let matcher = BacktrackingMatcher(bytes: Array(text.utf8), captureCount: captureCount)
        do {
            return try matcher.search(root, anchoredAtStart: anchoredAtStart)
        } catch {
            throw PatternStepBudgetExhausted(pattern: source)
        }
    }
}
