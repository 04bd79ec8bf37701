import Foundation
import PetSpotJSON
import PetSpotModel
import PetSpotFlowGenerators
import PetSpotReport

/// Something that answers flow cases: the reference model in-process, or an adapter program.
public protocol FlowOracle: Sendable {
    /// What the oracle is, for reports: `reference model` or `adapter: CMD`.
    var name: String { get }
    /// The answer to `flowCase`, or the protocol failure that prevented one.
    func answer(_ flowCase: FlowCase) -> FlowExchange
}
