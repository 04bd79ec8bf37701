import Foundation
import PetSpotJSON
import PetSpotModel
import PetSpotFlowGenerators
import PetSpotReport

/// Validates a submitted payload against a schema; returns one message per violation.
public struct PayloadValidator: Sendable {
    /// What it validates against, e.g. `create-request.schema.json`.
    public let name: String
    /// Returns the violations of `payload` (empty when it is valid).
    public let violations: @Sendable (JSONValue) -> [String]

    /// Creates a validator.
    public init(name: String, violations: @escaping @Sendable (JSONValue) -> [String]) {
        self.name = name
        self.violations = violations
    }

    /// The model's strict decoder of the create request: unknown keys, `null`, wrong types and
    /// unknown statuses are refused (used when no schema validator is available).
    public static let modelDecoder = PayloadValidator(name: "CreateAnnouncementRequest(json:)") { payload in
        do {
            _ = try CreateAnnouncementRequest(json: payload)
            return []
        } catch {
            return [String(describing: error)]
        }
    }
}
