import Foundation
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotModel
import PetSpotPropertyEngine

/// The reports a backend run submits: flow cases with the payload an oracle sends for each.
package enum SubmittedReports {
    /// `count` valid reports of either flow made at `now` (the server's clock judges their
    /// dates), with the reference model's payloads.
    package static func generated(count: Int, seed: UInt64, now: Date) -> [(flowCase: FlowCase, payload: CreateAnnouncementRequest)] {
        let generator: Gen<FlowCase> = Gen.element(of: FlowGenerators.timeZones).flatMap { zone in
            let context = ReportContext(timeZone: zone, now: now)
            return FlowGenerators.flow.flatMap { flow in
                FlowGenerators.inputs(flow, .valid, context: context).map { FlowCase(flow: flow, inputs: $0, context: context) }
            }
        }
        return submitted(generator.samples(count: count, seed: seed), oracle: ReferenceOracle())
    }

    /// The cases `oracle` submits, with their payloads decoded (payloads that do not decode
    /// are left to the flow contracts).
    package static func submitted(_ cases: [FlowCase], oracle: any FlowOracle) -> [(flowCase: FlowCase, payload: CreateAnnouncementRequest)] {
        cases.compactMap { flowCase in
            guard case .success(.submitted(let payload)) = oracle.answer(flowCase).result,
                let request = try? CreateAnnouncementRequest(json: payload)
            else { return nil }
            return (flowCase, request)
        }
    }
}
