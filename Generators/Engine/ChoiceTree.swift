/// What the shrinker knows about the choice sequences it has replayed: a trie of the answers
/// each replay drew, with the bound asked at every position and the outcome at every end.
///
/// Replays are deterministic: the bound a generator asks for at position *i* depends only on
/// the answers before *i*. So once one replay has walked a path, the tree can *simulate* any
/// candidate that follows it: at each node the candidate's number is clamped to the node's
/// bound exactly as ``TestCase`` would clamp it (`0` past the candidate's end), and the walk
/// either reaches a recorded outcome (no replay needed) or leaves the known paths (the
/// candidate must run). Many shrink candidates differ from a known sequence only in choices
/// that get clamped, or past the point where the generator stopped reading, and cost nothing.
///
/// Invariant: a node has an outcome only if a replay ended there, and then no recorded path
/// continues past it. Nodes are stored in parallel arrays (first child, next sibling), so a
/// lookup costs one step per choice plus a scan of the siblings at each step. The tree forgets
/// everything when it grows past ``nodeLimit`` nodes, which bounds its memory.
struct ChoiceTree {
    /// How a replay ended.
    enum Outcome: UInt8, Sendable {
        /// The property held.
        case passed = 1
        /// A generator or assumption rejected the case, or it overran its choice budget.
        case discarded = 2
        /// The property failed.
        case failed = 3
    }

    /// Nodes past which the tree starts over (about 26 MB).
    static let nodeLimit = 1 << 20

    /// The bound asked at each node's position, valid where `asked` is set.
    private var bounds: [UInt64] = [0]
    private var asked: [Bool] = [false]
    /// The outcome of a replay that ended at each node (`0`: none).
    private var outcomes: [UInt8] = [0]
    /// The answer on the edge from each node's parent.
    private var values: [UInt64] = [0]
    private var firstChild: [Int32] = [-1]
    private var nextSibling: [Int32] = [-1]

    /// The number of nodes.
    var count: Int { values.count }

    /// Records a replay: the answers it drew, the bound of each, and how it ended.
    mutating func record(_ choices: [UInt64], bounds choiceBounds: [UInt64], outcome: Outcome) {
        guard choices.count == choiceBounds.count else { return }
        if count + choices.count > Self.nodeLimit { self = ChoiceTree() }
        var node = 0
        for (index, value) in choices.enumerated() {
            bounds[node] = choiceBounds[index]
            asked[node] = true
            node = child(of: node, answer: value) ?? addChild(to: node, answer: value)
        }
        outcomes[node] = outcome.rawValue
    }

    /// The outcome of replaying `candidate`, when a recorded path decides it; `nil` otherwise.
    func outcome(of candidate: [UInt64]) -> Outcome? {
        var node = 0
        var index = 0
        while true {
            if outcomes[node] != 0 { return Outcome(rawValue: outcomes[node]) }
            guard asked[node] else { return nil }
            let raw = index < candidate.count ? candidate[index] : 0
            guard let next = child(of: node, answer: raw <= bounds[node] ? raw : 0) else { return nil }
            node = next
            index += 1
        }
    }

    private func child(of node: Int, answer: UInt64) -> Int? {
        var child = Int(firstChild[node])
        while child >= 0 {
            if values[child] == answer { return child }
            child = Int(nextSibling[child])
        }
        return nil
    }

    private mutating func addChild(to node: Int, answer: UInt64) -> Int {
        let index = values.count
        bounds.append(0)
        asked.append(false)
        outcomes.append(0)
        values.append(answer)
        firstChild.append(-1)
        nextSibling.append(firstChild[node])
        firstChild[node] = Int32(index)
        return index
    }
}
