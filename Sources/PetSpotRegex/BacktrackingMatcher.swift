/// The general ECMA-262 matcher: backtracking over the syntax tree, on the UTF-8 bytes of the
/// text, with continuations. It handles everything the parser accepts (backreferences,
/// lookarounds, `\b`), and bounds its work by a step budget proportional to the input: when the
/// budget runs out the search ends with ``PatternStepBudgetExhausted``, never with an answer,
/// because a cut-short search proves neither a match nor its absence.
final class BacktrackingMatcher {
    let bytes: [UInt8]
    var captures: [Int]
    var steps = 0
    let budget: Int
    /// Nested `match` calls (each continuation nests deeper): bounded so that a long text cannot
    /// overflow the stack; reaching the bound counts as running out of budget.
    private var depth = 0
    private static let maximumDepth = 2_000

    /// Steps allowed for a text of `byteCount` bytes.
    static func budget(forByteCount byteCount: Int) -> Int { 200_000 + byteCount * 2_000 }

    init(bytes: [UInt8], captureCount: Int) {
        self.bytes = bytes
        self.captures = captureCount == 0 ? [] : Array(repeating: -1, count: (captureCount + 1) * 2)
        self.budget = Self.budget(forByteCount: bytes.count)
    }

    var exhausted: Bool { steps > budget }

    /// Whether `root` matches somewhere in the text (only at the start when `anchoredAtStart`).
    /// - Throws: ``PatternStepBudgetExhausted`` when the budget ran out before an answer was proven.
    func search(_ root: RegexNode, anchoredAtStart: Bool) throws(PatternStepBudgetExhausted) -> Bool {
        var start = 0
        while true {
            let found = match(root, start, { _ in true })
            // After the budget ran out, every branch answered "no" unproven; a negative
            // lookaround may even have turned that into a "yes". Neither answer stands.
            if exhausted { throw PatternStepBudgetExhausted() }
            if found { return true }
            if anchoredAtStart || start >= bytes.count { return false }
            start = next(start)
        }
    }

    /// Decodes the code point at `position` (which is on a boundary); returns it and its length.
    @inline(__always)
    func scalar(at position: Int) -> (value: UInt32, length: Int) {
        let lead = UInt32(bytes[position])
        if lead < 0x80 { return (lead, 1) }
        if lead < 0xE0 {
            return ((lead & 0x1F) << 6 | UInt32(bytes[position + 1] & 0x3F), 2)
        }
        if lead < 0xF0 {
            return ((lead & 0x0F) << 12 | UInt32(bytes[position + 1] & 0x3F) << 6 | UInt32(bytes[position + 2] & 0x3F), 3)
        }
        return ((lead & 0x07) << 18 | UInt32(bytes[position + 1] & 0x3F) << 12 | UInt32(bytes[position + 2] & 0x3F) << 6 | UInt32(bytes[position + 3] & 0x3F), 4)
    }

    func next(_ position: Int) -> Int { position + scalar(at: position).length }

    func previous(_ position: Int) -> Int {
        var result = position - 1
        while result > 0 && bytes[result] & 0xC0 == 0x80 { result -= 1 }
        return result
    }

    private func isWordBefore(_ position: Int) -> Bool {
        position > 0 && ScalarPredicate.isWord(UInt32(bytes[position - 1]))
    }

    private func isWordAt(_ position: Int) -> Bool {
        position < bytes.count && ScalarPredicate.isWord(UInt32(bytes[position]))
    }

    /// Matches one code point for a single-scalar node; the position after it, or nil.
    @inline(__always)
    private func step(_ node: RegexNode, _ position: Int) -> Int? {
        guard position < bytes.count else { return nil }
        let (value, length) = scalar(at: position)
        switch node {
        case .scalar(let expected): return value == expected ? position + length : nil
        case .anyExceptLineTerminator:
            return value == 0x0A || value == 0x0D || value == 0x2028 || value == 0x2029 ? nil : position + length
        case .set(let set): return set.contains(value) ? position + length : nil
        default: return nil
        }
    }

    /// Matches `node` at `position`, then the continuation; true when the whole match succeeds.
    func match(_ node: RegexNode, _ position: Int, _ continuation: (Int) -> Bool) -> Bool {
        steps += 1
        if steps > budget { return false }
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth {
            steps = budget + 1
            return false
        }
        switch node {
        case .empty:
            return continuation(position)
        case .scalar, .anyExceptLineTerminator, .set:
            guard let end = step(node, position) else { return false }
            return continuation(end)
        case .lineStart:
            return position == 0 && continuation(position)
        case .lineEnd:
            return position == bytes.count && continuation(position)
        case .wordBoundary(let negated):
            let boundary = isWordBefore(position) != isWordAt(position)
            return boundary != negated && continuation(position)
        case .group(let inner, let capture):
            guard let capture else { return match(inner, position, continuation) }
            let savedStart = captures[capture * 2]
            let savedEnd = captures[capture * 2 + 1]
            let matched = match(inner, position) { end in
                let previousStart = self.captures[capture * 2]
                let previousEnd = self.captures[capture * 2 + 1]
                self.captures[capture * 2] = position
                self.captures[capture * 2 + 1] = end
                if continuation(end) { return true }
                self.captures[capture * 2] = previousStart
                self.captures[capture * 2 + 1] = previousEnd
                return false
            }
            if !matched {
                captures[capture * 2] = savedStart
                captures[capture * 2 + 1] = savedEnd
            }
            return matched
        case .sequence(let nodes):
            return matchSequence(nodes, 0, position, continuation)
        case .alternation(let alternatives):
            for alternative in alternatives where match(alternative, position, continuation) { return true }
            return false
        case .repetition(let inner, let minimum, let maximum, let greedy):
            if inner.isSingleScalar { return repeatSingle(inner, minimum, maximum, greedy, position, continuation) }
            return repeatGeneral(inner, minimum, maximum, greedy, 0, position, continuation)
        case .lookaround(let inner, let behind, let negated):
            let found: Bool
            if behind {
                var start = position
                var matched = false
                while true {
                    if match(inner, start, { $0 == position }) { matched = true; break }
                    if start == 0 { break }
                    start = previous(start)
                }
                found = matched
            } else {
                found = match(inner, position) { _ in true }
            }
            return found != negated && continuation(position)
        case .backreference(let number):
            return matchCapture(number, position, continuation)
        case .namedBackreference:
            return continuation(position)
        }
    }

    private func matchCapture(_ number: Int, _ position: Int, _ continuation: (Int) -> Bool) -> Bool {
        guard number * 2 + 1 < captures.count else { return continuation(position) }
        let start = captures[number * 2]
        let end = captures[number * 2 + 1]
        guard start >= 0, end >= start else { return continuation(position) }
        let length = end - start
        guard position + length <= bytes.count else { return false }
        for offset in 0..<length where bytes[start + offset] != bytes[position + offset] { return false }
        return continuation(position + length)
    }

    private func matchSequence(_ nodes: [RegexNode], _ at: Int, _ position: Int, _ continuation: (Int) -> Bool) -> Bool {
        if at == nodes.count { return continuation(position) }
        return match(nodes[at], position) { next in self.matchSequence(nodes, at + 1, next, continuation) }
    }

    private func repeatSingle(_ inner: RegexNode, _ minimum: Int, _ maximum: Int, _ greedy: Bool, _ position: Int, _ continuation: (Int) -> Bool) -> Bool {
        var count = 0
        var end = position
        if greedy {
            while count < maximum, let next = step(inner, end) {
                end = next
                count += 1
            }
            if count < minimum { return false }
            while true {
                steps += 1
                if steps > budget { return false }
                if continuation(end) { return true }
                if count == minimum { return false }
                end = previous(end)
                count -= 1
            }
        }
        while count < minimum {
            guard let next = step(inner, end) else { return false }
            end = next
            count += 1
        }
        while true {
            steps += 1
            if steps > budget { return false }
            if continuation(end) { return true }
            guard count < maximum, let next = step(inner, end) else { return false }
            end = next
            count += 1
        }
    }

    private func repeatGeneral(_ inner: RegexNode, _ minimum: Int, _ maximum: Int, _ greedy: Bool, _ count: Int, _ position: Int, _ continuation: (Int) -> Bool) -> Bool {
        if count < minimum {
            return match(inner, position) { next in
                self.repeatGeneral(inner, minimum, maximum, greedy, count + 1, next, continuation)
            }
        }
        if greedy {
            if count < maximum, match(inner, position, { next in
                next != position && self.repeatGeneral(inner, minimum, maximum, greedy, count + 1, next, continuation)
            }) { return true }
            return continuation(position)
        }
        if continuation(position) { return true }
        return count < maximum && match(inner, position) { next in
            next != position && self.repeatGeneral(inner, minimum, maximum, greedy, count + 1, next, continuation)
        }
    }
}

/// A pattern search ran out of its step budget before it could prove a match or its absence.
package struct PatternStepBudgetExhausted: Error {
    /// The pattern as written in the schema (filled in by ``RegexPattern``).
    package var pattern = ""
}
