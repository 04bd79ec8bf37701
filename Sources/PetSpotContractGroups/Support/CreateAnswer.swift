import Foundation
import PetSpotFlowChecks
import PetSpotJSON
import PetSpotModel

/// A create's 201 answer, judged as backend-contract.md says: the create-response schema, a
/// 6-digit management password and a lower-case UUID v4 id (the submission group and the
/// stateful group both judge it).
package enum CreateAnswer {
    /// What is wrong with a 201 create body, or `nil`.
    package static func problem(_ body: JSONValue, schemas: ContractSchemas) -> String? {
        let violations = schemas.violations(of: body, against: .createResponse)
        if !violations.isEmpty { return "body does not match create-response.schema.json: " + violations.prefix(3).joined(separator: "; ") }
        do {
            let decoded = try CreateAnnouncementResponse(json: body)
            if let number = Int(decoded.managementPassword), !(100_000...999_999).contains(number) {
                return "managementPassword is outside 100000-999999"
            }
            if !isLowercaseUUIDv4(decoded.announcement.id) { return "id \(decoded.announcement.id) is not a lower-case UUID v4" }
            return nil
        } catch {
            return "create response: \(error.description)"
        }
    }

    /// Whether `text` is a UUID of version 4 and RFC 4122's variant, in lower case.
    package static func isLowercaseUUIDv4(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 8, 13, 18, 23: if byte != UInt8(ascii: "-") { return false }
            case 14: if byte != UInt8(ascii: "4") { return false }
            case 19: if !"89ab".utf8.contains(byte) { return false }
            default: if !"0123456789abcdef".utf8.contains(byte) { return false }
            }
        }
        return true
    }
}
