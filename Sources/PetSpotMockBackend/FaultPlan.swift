import Foundation
import PetSpotConcurrency

/// Why a fault specification was refused, naming the offending token.
public struct FaultPlanParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The comma-separated term that could not be read (as written, trimmed).
    public let token: String
    /// What is wrong with it.
    public let reason: String

    public var description: String { "invalid fault term '\(token)': \(reason)" }
}

/// Which requests a mock answers badly, so that clients' retry logic can be exercised.
///
/// A plan is written as a comma-separated list of terms:
///
/// ```
/// spec      = "" | term *("," term)
/// term      = status ":" share       ; answer with this status (400...599), error envelope
///           | "drop" ":" share       ; close the connection without answering
///           | "delay=" duration ":" share   ; wait before answering (combines with the others)
///           | "seed=" digits         ; the generator's seed (default 0)
/// duration  = digits ("ms" | "s")
/// share     = a decimal in [0, 1], e.g. 0.1 or .05 or 1
/// ```
///
/// Example: `500:0.1,503:0.05,delay=200ms:0.1,drop:0.02,seed=42`. The status and drop shares
/// are exclusive outcomes and must sum to at most 1; the delay is drawn independently. Every
/// request except `GET /api/health` draws exactly two numbers from a SplitMix64 generator
/// seeded with `seed`, so the same sequence of requests meets the same faults on every run. A
/// faulted request is not processed (nothing is stored).
public struct FaultPlan: Sendable, Equatable, CustomStringConvertible {
    /// What happens to a request picked for a fault.
    public enum Outcome: Sendable, Equatable, Hashable {
        /// Answer with this status and an error envelope, without processing the request.
        case status(Int)
        /// Close the connection without answering (in-process: throw
        /// ``MockTransportError/connectionDropped``).
        case drop
    }

    /// Exclusive outcomes with their probabilities, in the order written.
    public var outcomes: [(outcome: Outcome, probability: Double)]
    /// A delay in milliseconds and its probability, if any.
    public var delay: (milliseconds: Int, probability: Double)?
    /// The seed of the generator that picks the requests.
    public var seed: UInt64

    /// No faults.
    public static let none = FaultPlan(outcomes: [], delay: nil, seed: 0)

    /// A plan from its parts.
    public init(outcomes: [(outcome: Outcome, probability: Double)], delay: (milliseconds: Int, probability: Double)?, seed: UInt64) {
        self.outcomes = outcomes
        self.delay = delay
        self.seed = seed
    }

    /// Parses a specification in the grammar above.
    /// - Throws: ``FaultPlanParseError`` naming the first bad term.
    public init(parsing specification: String) throws(FaultPlanParseError) {
        self = .none
        var total = 0.0
        var sawSeed = false
        for rawTerm in specification.split(separator: ",", omittingEmptySubsequences: false) {
            let term = rawTerm.trimmingASCIIWhitespace()
            if term.isEmpty {
                if specification.trimmingASCIIWhitespace().isEmpty { continue }
                throw FaultPlanParseError(token: term, reason: "empty term")
            }
            if term.hasPrefix("seed=") {
                guard !sawSeed else { throw FaultPlanParseError(token: term, reason: "seed given twice") }
                guard let value = UInt64(term.dropFirst(5)) else {
                    throw FaultPlanParseError(token: term, reason: "seed must be an unsigned 64-bit integer")
                }
                seed = value
                sawSeed = true
                continue
            }
            guard let colon = term.lastIndex(of: ":") else {
                throw FaultPlanParseError(token: term, reason: "expected KIND:SHARE (e.g. 503:0.1, drop:0.02, delay=200ms:0.1)")
            }
            let kind = String(term[..<colon])
            let shareText = String(term[term.index(after: colon)...])
            guard let share = FaultPlan.parseShare(shareText) else {
                throw FaultPlanParseError(token: term, reason: "share '\(shareText)' must be a decimal between 0 and 1")
            }
            if kind == "drop" {
                guard !outcomes.contains(where: { $0.outcome == .drop }) else {
                    throw FaultPlanParseError(token: term, reason: "drop given twice")
                }
                outcomes.append((.drop, share))
                total += share
            } else if kind.hasPrefix("delay=") {
                guard delay == nil else { throw FaultPlanParseError(token: term, reason: "delay given twice") }
                guard let milliseconds = FaultPlan.parseDuration(String(kind.dropFirst(6))) else {
                    throw FaultPlanParseError(token: term, reason: "duration must be digits followed by ms or s (at most 600 s)")
                }
                delay = (milliseconds, share)
            } else if kind.utf8.count == 3, kind.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let status = Int(kind) {
                guard (400...599).contains(status) else {
                    throw FaultPlanParseError(token: term, reason: "status must be between 400 and 599")
                }
                guard !outcomes.contains(where: { $0.outcome == .status(status) }) else {
                    throw FaultPlanParseError(token: term, reason: "status \(status) given twice")
                }
                outcomes.append((.status(status), share))
                total += share
            } else {
                throw FaultPlanParseError(token: term, reason: "unknown kind '\(kind)' (a status 400-599, drop, delay=DURATION or seed=N)")
            }
            if total > 1.000_000_001 {
                throw FaultPlanParseError(token: term, reason: "status and drop shares add up to more than 1")
            }
        }
    }

    /// Whether the plan never injects anything.
    public var isEmpty: Bool {
        outcomes.allSatisfy { $0.probability == 0 } && (delay?.probability ?? 0) == 0
    }

    /// The specification in canonical form (parses back to an equal plan).
    public var description: String {
        var terms: [String] = outcomes.map { entry in
            switch entry.outcome {
            case .status(let status): "\(status):\(entry.probability)"
            case .drop: "drop:\(entry.probability)"
            }
        }
        if let delay { terms.append("delay=\(delay.milliseconds)ms:\(delay.probability)") }
        terms.append("seed=\(seed)")
        return terms.joined(separator: ",")
    }

    public static func == (lhs: FaultPlan, rhs: FaultPlan) -> Bool {
        lhs.seed == rhs.seed && lhs.outcomes.count == rhs.outcomes.count
            && zip(lhs.outcomes, rhs.outcomes).allSatisfy { $0.0.outcome == $0.1.outcome && $0.0.probability == $0.1.probability }
            && lhs.delay?.milliseconds == rhs.delay?.milliseconds && lhs.delay?.probability == rhs.delay?.probability
    }

    private static func parseShare(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }),
              bytes.filter({ $0 == UInt8(ascii: ".") }).count <= 1, bytes != [UInt8(ascii: ".")],
              let value = Double(text.hasPrefix(".") ? "0" + text : text), value >= 0, value <= 1
        else { return nil }
        return value
    }

    private static func parseDuration(_ text: String) -> Int? {
        let (digits, scale): (Substring, Int) = text.hasSuffix("ms") ? (text.dropLast(2), 1)
            : text.hasSuffix("s") ? (text.dropLast(1), 1000) : ("", 0)
        guard !digits.isEmpty, digits.utf8.count <= 9, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let value = Int(digits), value * scale <= 600_000
        else { return nil }
        return value * scale
    }
}

/// What the fault generator decided for one request.
struct FaultDecision: Equatable {
    var delayMilliseconds: Int
    var outcome: FaultPlan.Outcome?
}

/// The seeded generator that applies a ``FaultPlan``, one decision per request, thread-safe.
final class FaultInjector: Sendable {
    let plan: FaultPlan
    private let state: Locked<UInt64>

    init(plan: FaultPlan) {
        self.plan = plan
        self.state = Locked(plan.seed)
    }

    /// Draws the next decision (exactly two generator steps).
    func nextDecision() -> FaultDecision {
        if plan.isEmpty { return FaultDecision(delayMilliseconds: 0, outcome: nil) }
        let (first, second) = state.withLock { state in
            (FaultInjector.unitInterval(FaultInjector.splitMix(&state)), FaultInjector.unitInterval(FaultInjector.splitMix(&state)))
        }
        var outcome: FaultPlan.Outcome? = nil
        var cumulative = 0.0
        for entry in plan.outcomes {
            cumulative += entry.probability
            if first < cumulative {
                outcome = entry.outcome
                break
            }
        }
        var delay = 0
        if let planned = plan.delay, second < planned.probability { delay = planned.milliseconds }
        return FaultDecision(delayMilliseconds: delay, outcome: outcome)
    }

    static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    static func unitInterval(_ value: UInt64) -> Double {
        Double(value >> 11) * 0x1.0p-53
    }
}
