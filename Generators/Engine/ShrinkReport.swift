/// Why shrinking stopped: because nothing smaller was found, or because a budget ran out.
///
/// Only ``minimal`` means the shrunk counterexample is as small as the engine's shrink passes
/// can make it. Every other reason means shrinking was cut short and a smaller counterexample
/// may exist; reports say so ("not minimal: shrinking stopped after 20000 replays").
///
/// ```swift
/// if let failure = result.failure, !failure.stopReason.isMinimal {
///     print(failure.shrinkStatus)   // not minimal: shrinking stopped after 512 replays (deadline, 0.5 s)
/// }
/// ```
public enum ShrinkStopReason: Sendable, Hashable, CustomStringConvertible {
    /// A whole round of shrink passes found nothing smaller that still fails: the
    /// counterexample is minimal with respect to every pass (a local minimum).
    case minimal
    /// The replay budget ran out: ``PropertyConfiguration/maxShrinkSteps`` replays, or what a
    /// caller whose replays cost (requests to a backend) allows them to cost together.
    case replayBudget
    /// Too many replays in a row (``PropertyConfiguration/shrinkStallLimit``) found nothing smaller.
    case stallBudget
    /// The shrinking time limit (``PropertyConfiguration/shrinkTimeLimit``) passed.
    case deadline
    /// The run was stopped from outside (``PropertyConfiguration/stopSignal``).
    case cancelled
    /// Shrinking was turned off (``PropertyConfiguration/shrinks`` is `false`).
    case disabled

    /// Whether the counterexample is minimal for the engine's shrink passes.
    public var isMinimal: Bool { self == .minimal }

    /// A short name: `minimal`, `replay budget`, `stall budget`, `deadline`, `cancelled` or `shrinking disabled`.
    public var description: String {
        switch self {
        case .minimal: "minimal"
        case .replayBudget: "replay budget"
        case .stallBudget: "stall budget"
        case .deadline: "deadline"
        case .cancelled: "cancelled"
        case .disabled: "shrinking disabled"
        }
    }
}

/// How much one shrink pass did while shrinking a counterexample.
///
/// Failure reports list these, so a slow shrink shows which pass spent the replays and which
/// passes found the smaller counterexamples.
public struct ShrinkPassStatistics: Sendable, Hashable, CustomStringConvertible {
    /// The pass's name (`deleteElements`, `minimizeChoices`, ...).
    public let name: String
    /// Replays the pass ran (candidates whose outcome was already known cost none).
    public let replays: Int
    /// Replays that found a smaller failing counterexample.
    public let improvements: Int

    /// Creates the statistics of one pass.
    public init(name: String, replays: Int, improvements: Int) {
        self.name = name
        self.replays = replays
        self.improvements = improvements
    }

    /// `name replays/improvements`.
    public var description: String { "\(name) \(replays)/\(improvements)" }
}
