import Foundation
import PetSpotFlowGenerators
import PetSpotModel
import PetSpotPropertyEngine

/// One report submitted over a faulty network: a valid report, the faults the network applies to
/// the connections the app opens (in order; every connection after the list is healthy), and
/// what the user does on each alert.
///
/// It is a generated value like any other, so the engine shrinks it: faults become healthy
/// connections and disappear, Cancels become plain Try Agains, and the report's fields their
/// simplest valid values, while the failure stays.
package struct SubmissionScenario: Sendable, Hashable {
    /// The report: a valid case of either flow. Its microchip input is replaced at each execution
    /// by a number unique to the run (or left out), so executions never collide.
    package var flowCase: FlowCase
    /// Whether the report carries a microchip number.
    package var hasMicrochip: Bool
    /// The fault applied to the n-th connection the app opens (`nil`: healthy).
    package var faults: [NetworkFault?]
    /// For the n-th alert: whether the user taps Cancel first (then submits again) instead of
    /// Try Again at once.
    package var cancels: [Bool]

    /// The faults that are not `nil`.
    package var faultCount: Int { faults.compactMap { $0 }.count }

    /// The reports scenarios draw from: valid reports of both flows made at `now`, the first two
    /// the simplest of each flow (the values the engine's all-zero draws make), the others random
    /// from `seed`. Scenarios pick a report by its index, so shrinking a scenario is shrinking its
    /// faults, Cancels and one number: a few cheap replays, where drawing every field would spend
    /// one replay (a whole submission) per field.
    package static func reports(now: Date, seed: UInt64, count: Int = 24) -> [FlowCase] {
        let report: Gen<FlowCase> = Gen.element(of: FlowGenerators.timeZones).flatMap { zone in
            let context = ReportContext(timeZone: zone, now: now)
            return FlowGenerators.flow.flatMap { flow in
                FlowGenerators.inputs(flow, .valid, context: context).map { FlowCase(flow: flow, inputs: $0, context: context) }
            }
        }
        let simplest = ReportFlowKind.allCases.map { flow in
            FlowGenerators.inputs(flow, .valid, context: ReportContext(timeZone: FlowGenerators.timeZones[0], now: now))
                .map { FlowCase(flow: flow, inputs: $0, context: ReportContext(timeZone: FlowGenerators.timeZones[0], now: now)) }
                .samples(count: 1, seed: 0, size: 0)[0]
        }
        return simplest + report.samples(count: max(0, count - simplest.count), seed: seed)
    }

    /// The scenarios of a run: a report of `reports`, up to four faults (one answer held past the
    /// time-out at most, in about a fifth of the scenarios: each costs the app's whole time-out),
    /// some Cancels.
    package static func generator(reports: [FlowCase]) -> Gen<SubmissionScenario> {
        let fault: Gen<NetworkFault?> = .frequency(
            (4, .constant(nil)),
            (2, .constant(.refuse)), (3, .constant(.dropRequest)), (4, .constant(.loseAnswer)),
            (2, .constant(.answer500)), (2, .constant(.answer503)), (2, .constant(.holdPastTimeout)))
        // The faults come first in the choice sequence: the shrinker's first passes work there,
        // and a scenario without its faults is the biggest simplification.
        return Gen { testCase in
            var faults = try fault.array(count: 0...4).draw(&testCase)
            let hasMicrochip = try Gen<Bool>.bool(probability: 0.6).draw(&testCase)
            // One held answer per scenario at most: a later one becomes a lost answer.
            var held = false
            for index in faults.indices where faults[index] == .holdPastTimeout {
                if held { faults[index] = .loseAnswer }
                held = true
            }
            let cancels = try Gen<Bool>.bool(probability: 0.25).array(count: 0...3).draw(&testCase)
            let report = try Gen<Int>.int(in: 0...(reports.count - 1)).draw(&testCase)
            return SubmissionScenario(flowCase: reports[report], hasMicrochip: hasMicrochip, faults: faults, cancels: cancels)
        }
    }
}
