import Foundation
import PetSpotConcurrency
import PetSpotFlowGenerators
import PetSpotModel
import PetSpotPropertyEngine

/// One report submitted over a faulty network: a valid report, the faults the network applies to
/// the requests the app sends (in order; every request after the list is healthy), and what the
/// user does on each alert.
///
/// It is a generated value like any other, so the engine shrinks it: faults become healthy
/// requests and disappear, Cancels become plain Try Agains, and each field of the report its
/// plainest spelling (left empty, when it is optional), while the failure stays.
package struct SubmissionScenario: Sendable, Hashable {
    /// The report: a valid case of either flow, its microchip input empty (see ``microchip``).
    package var flowCase: FlowCase
    /// How the user types the microchip number, `nil` for none. The number itself is unique to
    /// each execution, so that executions never collide.
    package var microchip: MicrochipSpelling?
    /// The fault applied to the n-th request the app sends (`nil`: healthy).
    package var faults: [NetworkFault?]
    /// For the n-th alert: whether the user taps Cancel first (then submits again) instead of
    /// Try Again at once.
    package var cancels: [Bool]

    /// A scenario.
    package init(flowCase: FlowCase, microchip: MicrochipSpelling?, faults: [NetworkFault?], cancels: [Bool]) {
        self.flowCase = flowCase
        self.microchip = microchip
        self.faults = faults
        self.cancels = cancels
    }

    /// Whether the report carries a microchip number.
    package var hasMicrochip: Bool { microchip != nil }

    /// The faults that are not `nil`.
    package var faultCount: Int { faults.compactMap { $0 }.count }

    /// The faults a scenario draws from, healthy first (what shrinking turns a fault into), with
    /// their weights: about a fifth of the scenarios hold an answer (each costs the app's whole
    /// time-out, one per scenario at most).
    static let faultWeights: [(fault: NetworkFault?, weight: UInt64)] = [
        (nil, 4), (.refuse, 2), (.dropRequest, 3), (.loseAnswer, 4), (.answer500, 2), (.answer503, 2), (.holdPastTimeout, 2),
    ]

    /// The scenarios of a run, for reports made at `now`: up to four faults, some Cancels, a
    /// report of either flow whose every text field is spelled one of the ways the payload
    /// mapping treats apart (``ReportSpelling``).
    ///
    /// Fresh scenarios follow a schedule (like the boundary catalogue's): the first ones plant one
    /// ``SubmissionInputClass`` each, in a shuffled cycle, with a fault on the first request (the
    /// create) or on the second (the upload after a healthy create), so that a Try Again rebuilds
    /// that report (a second create); after the first cycle, half of them plant the next class of
    /// the next cycle. Every class thus meets a retry within the
    /// first ``SubmissionInputClass/allCases`` scenarios of every run.
    ///
    /// The choices are laid out faults first (the shrinker's first passes work there, and a
    /// scenario without its faults is the biggest simplification), then the Cancels, the
    /// microchip, the flow and the clock, then each field: its spelling (0 is the plainest: left
    /// empty when optional) and its value (0 the simplest). The schedule is state of the returned
    /// generator: make a new one for every run that must see the same scenarios from the same seed.
    package static func generator(now: Date) -> Gen<SubmissionScenario> {
        let schedule = ScenarioSchedule()
        let kinds = UInt64(faultWeights.count - 1)
        return Gen { testCase in
            let plan = testCase.planning { random in schedule.plan(&random) } ?? nil
            let faultCount = Int(try testCase.choice(upTo: 4, preferring: plan?.faultCount))
            var faults: [NetworkFault?] = []
            var held = false
            for position in 0..<faultCount {
                let planned = testCase.planning { random -> UInt64 in
                    guard let plan else { return weightedFault(&random, healthy: true) }
                    // Healthy up to the planned failure, which is never healthy.
                    return position < plan.failedRequest ? 0 : weightedFault(&random, healthy: position != plan.failedRequest)
                }
                var fault = faultWeights[Int(try testCase.choice(upTo: kinds, preferring: planned))].fault
                // One held answer per scenario at most: a later one becomes a lost answer.
                if fault == .holdPastTimeout {
                    if held { fault = .loseAnswer }
                    held = true
                }
                faults.append(fault)
            }
            let cancelCount = Int(try testCase.choice(upTo: 3))
            var cancels: [Bool] = []
            for _ in 0..<cancelCount { cancels.append(try testCase.weighted(0.25)) }
            // Two in five reports carry no microchip number.
            var plannedChip = plan?.microchip
            if plannedChip == nil {
                plannedChip = testCase.planning { random in
                    random.bounded(by: 4) < 2 ? 0 : 1 + random.bounded(by: UInt64(MicrochipSpelling.allCases.count - 1))
                }
            }
            let microchip = try testCase.choice(upTo: UInt64(MicrochipSpelling.allCases.count), preferring: plannedChip)
            // One span for the whole report: the shrinker tries its plainest spelling in one replay.
            let flowCase = try Gen<FlowCase>.deferred(maxDepth: 4) { Gen { testCase in try ReportSpelling.report(now: now, plan: plan, &testCase) } }
                .draw(&testCase)
            return SubmissionScenario(
                flowCase: flowCase, microchip: microchip == 0 ? nil : MicrochipSpelling.allCases[Int(microchip) - 1], faults: faults,
                cancels: cancels)
        }
    }
}

extension SubmissionScenario {
    /// The index in ``faultWeights`` of a fault drawn by weight (`healthy`: `nil` among them).
    static func weightedFault(_ random: inout Xoshiro256StarStar, healthy: Bool) -> UInt64 {
        let candidates = faultWeights.indices.filter { healthy || faultWeights[$0].fault != nil }
        var roll = random.bounded(by: candidates.map { faultWeights[$0].weight }.reduce(0, +) - 1)
        for index in candidates {
            if roll < faultWeights[index].weight { return UInt64(index) }
            roll -= faultWeights[index].weight
        }
        return UInt64(candidates.last ?? 0)
    }
}

/// How the user types the microchip number a scenario's execution is given.
package enum MicrochipSpelling: CaseIterable, Sendable, Hashable {
    /// Its digits: `981234567000001`.
    case digits
    /// Grouped as the screen shows it: `98123-45670-00001`.
    case grouped
    /// Digits in groups of three between blanks: ` 981 234 567 000 001 `.
    case spaced

    /// The text typed for `digits`.
    package func typed(_ digits: String) -> String {
        switch self {
        case .digits: return digits
        case .grouped: return MicrochipFormatter().displayed(digits)
        case .spaced:
            var text = " "
            for (position, digit) in digits.enumerated() {
                if position > 0 && position % 3 == 0 { text.append(" ") }
                text.append(digit)
            }
            return text + " "
        }
    }
}

/// What one fresh scenario is planned to carry: the choices it prefers.
struct ScenarioPlan: Sendable {
    /// The class planted.
    var inputClass: SubmissionInputClass
    /// The request that fails, so that a Try Again follows: the first (the create) or the second
    /// (the upload after a healthy create).
    var failedRequest: Int
    /// The number of faults (past ``failedRequest``).
    var faultCount: UInt64
    /// The flow's choice, when the class decides it.
    var flow: UInt64?
    /// The microchip's choice, when the class decides it.
    var microchip: UInt64?
    /// The spelling of fields the class decides.
    var spellings: [ReportField: ReportSpelling.Spelling] = [:]
}

/// The shuffled cycles through ``SubmissionInputClass`` that plan the scenarios of one generator.
final class ScenarioSchedule: Sendable {
    private struct State {
        var order: [SubmissionInputClass] = []
        var position = 0
        var cycles = 0
    }

    private let state = Locked(State())

    /// The plan of the next fresh scenario (`nil`: left to chance), drawn with `random`.
    func plan(_ random: inout Xoshiro256StarStar) -> ScenarioPlan? {
        let next = state.withLock { state -> SubmissionInputClass? in
            let firstCycle = state.cycles == 0
            guard firstCycle || random.bounded(by: 1) == 0 else { return nil }
            if state.position == state.order.count {
                state.order = SubmissionInputClass.allCases
                for i in stride(from: state.order.count - 1, to: 0, by: -1) { state.order.swapAt(i, Int(random.bounded(by: UInt64(i)))) }
                state.position = 0
            }
            defer {
                state.position += 1
                if state.position == state.order.count { state.cycles += 1 }
            }
            return state.order[state.position]
        }
        guard let inputClass = next else { return nil }
        let failedRequest = Int(random.bounded(by: 1))
        var plan = ScenarioPlan(inputClass: inputClass, failedRequest: failedRequest, faultCount: UInt64(failedRequest + 1) + random.bounded(by: 2))
        plan.flow = random.bounded(by: 1)
        let flow = ReportFlowKind.allCases[Int(plan.flow ?? 0)]
        func pick(_ fields: [ReportField]) -> ReportField? {
            fields.isEmpty ? nil : fields[Int(random.bounded(by: UInt64(fields.count - 1)))]
        }
        switch inputClass {
        case .missingFlow: plan.flow = 0
        case .foundFlow: plan.flow = 1
        case .paddedText:
            if let field = pick(ReportSpelling.fields(of: flow, spelled: .padded).filter(ReportSpelling.sendsText)) {
                plan.spellings[field] = .padded
            }
        case .paddedNumber:
            let numbers = ReportSpelling.fields(of: flow, spelled: .padded).filter { !ReportSpelling.sendsText($0) && $0.spec.payloadKey != nil }
            if let field = pick(numbers) {
                let exponent = ReportSpelling.spellings(of: field).contains(.exponent) && random.bounded(by: 1) == 1
                plan.spellings[field] = exponent ? .exponent : .padded
            }
        case .blankOptional:
            if let field = pick(ReportSpelling.fields(of: flow, spelled: .blank).filter { $0.spec.payloadKey != nil }) {
                plan.spellings[field] = .blank
            }
        case .cappedText:
            if let field = pick(ReportSpelling.fields(of: flow, spelled: .overlong).filter { $0.spec.payloadKey != nil }) {
                plan.spellings[field] = .overlong
            }
        case .chipDigits: plan.microchip = 2 + random.bounded(by: 1)
        case .phoneDigits: plan.spellings[.phone] = .grouped
        case .optionalsPresent, .optionalsAbsent:
            let present = inputClass == .optionalsPresent
            plan.microchip = present ? 1 + random.bounded(by: 2) : 0
            for field in ReportSpelling.optionalPayloadFields(of: flow) {
                // The microchip is typed by the executor (``microchip`` above), not spelled here.
                let filled = ReportSpelling.spellings(of: field).filter { $0 != .absent && $0 != .blank }
                guard !filled.isEmpty else { continue }
                plan.spellings[field] = present ? filled[Int(random.bounded(by: UInt64(filled.count - 1)))] : .absent
            }
        }
        return plan
    }
}
