/// The syntax tree of an ECMA-262 pattern, as ``RegexParser`` builds it.
indirect enum RegexNode: Sendable {
    case empty
    case scalar(UInt32)
    case anyExceptLineTerminator
    case set(ScalarSet)
    case lineStart
    case lineEnd
    case wordBoundary(negated: Bool)
    case group(RegexNode, capture: Int?)
    case sequence([RegexNode])
    case alternation([RegexNode])
    case repetition(RegexNode, min: Int, max: Int, greedy: Bool)
    case lookaround(RegexNode, behind: Bool, negated: Bool)
    case backreference(Int)
    case namedBackreference(String)

    /// Whether this node always consumes exactly one code point (eligible for the fast repeat).
    var isSingleScalar: Bool {
        switch self {
        case .scalar, .anyExceptLineTerminator, .set: true
        default: false
        }
    }

    /// Whether the pattern can only match at the start of the input (`^…`).
    var isAnchoredAtStart: Bool {
        switch self {
        case .lineStart: true
        case .sequence(let nodes): nodes.first.map { if case .lineStart = $0 { true } else { false } } ?? false
        default: false
        }
    }
}
