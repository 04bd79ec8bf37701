import Foundation
import PetSpotContractKit
import PetSpotFlowChecks
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// A list answer's body, judged as backend-contract.md says: the rows the run created must match
/// `announcement.schema.json` exactly; the others (production's sample rows, whose ids are not UUID
/// v4 and whose `updatedAt` is SQLite's `YYYY-MM-DD HH:MM:SS`, and others' data on a staging
/// backend) only for what the apps decode: `id`, `createdAt` and `updatedAt` as strings.
package enum ListAnswer {
    /// The fields of a row the apps decode as plain strings.
    package static let decodedStrings = ["id", "createdAt", "updatedAt"]

    /// What is wrong with a 200 list body, or `nil`; `isOwn` tells the run's own ids.
    package static func problem(_ body: JSONObject, schemas: ContractSchemas, isOwn: (String) -> Bool) -> String? {
        guard let rows = body["data"]?.arrayValue else {
            let violations = schemas.violations(of: .object(body), against: .listResponse)
            return "body does not match list-response.schema.json: " + violations.prefix(3).joined(separator: "; ")
        }
        var own: [JSONValue] = []
        for (index, row) in rows.enumerated() {
            guard let object = row.objectValue else { return "data[\(index)] is not an object" }
            if let id = object["id"]?.stringValue, isOwn(id) {
                own.append(row)
                continue
            }
            for key in decodedStrings where object[key]?.stringValue == nil {
                return "data[\(index)], a row the run did not create, has \(object[key].map { "a \($0.typeName) " } ?? "no ")\(key)"
                    + " (the apps decode id, createdAt and updatedAt as strings)"
            }
        }
        var judged = body
        judged["data"] = .array(own)
        let violations = schemas.violations(of: .object(judged), against: .listResponse)
        guard violations.isEmpty else {
            return "body does not match list-response.schema.json (judging the \(own.count) row(s) the run created): "
                + violations.prefix(3).joined(separator: "; ")
        }
        return nil
    }
}
