import Foundation
import PetSpotHTTP
import PetSpotJSON

/// An answer the mock gives as an error envelope:
/// `{"error": {"requestId", "code", "message", "field"?}}` with `Content-Type: application/json`.
struct MockError: Error, Equatable {
    var status: Int
    var code: String
    var message: String
    var field: String?

    init(_ status: Int, _ code: String, _ message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    /// The response, with a fresh request id.
    var response: HTTPResponse {
        var error = JSONObject([
            (key: "requestId", value: .string(UUID().uuidString.lowercased())),
            (key: "code", value: .string(code)),
            (key: "message", value: .string(message)),
        ])
        if let field { error["field"] = .string(field) }
        return MockResponses.json(status: status, .object(JSONObject([(key: "error", value: .object(error))])))
    }
}

/// Builders for the mock's successful responses.
enum MockResponses {
    static func json(status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: value.serializedBytes())
    }

    /// 200 `{"data":[row,...]}` from rows already serialised, as ``json(status:_:)`` writes it;
    /// the body's parts are the rows themselves, so an answer costs no copy of them.
    static func jsonList(_ rows: [[UInt8]]) -> HTTPResponse {
        var parts = [Array(#"{"data":["#.utf8)]
        parts.reserveCapacity(2 * rows.count + 1)
        for (index, row) in rows.enumerated() {
            if index > 0 { parts.append(comma) }
            parts.append(row)
        }
        parts.append(Array("]}".utf8))
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json; charset=utf-8"], bodyParts: parts)
    }

    /// 201 with a stored announcement's serialised representation and `managementPassword` last,
    /// the bytes ``json(status:_:)`` writes for that object, without serialising it again.
    static func created(_ representation: [UInt8], managementPassword password: String) -> HTTPResponse {
        HTTPResponse(
            status: 201, headers: ["Content-Type": "application/json; charset=utf-8"],
            bodyParts: [Array(representation.dropLast()), Array(#","managementPassword":"\#(password)"}"#.utf8)])
    }

    private static let comma = Array(",".utf8)
}
