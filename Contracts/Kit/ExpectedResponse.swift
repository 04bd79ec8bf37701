import PetSpotJSON

/// The answer a catalog case expects: an HTTP status, and for errors the envelope's `code` and
/// `field`.
///
/// `field == nil` on an error means the envelope must have no `field` member (the doc's "without
/// field"); `code == nil` means no error envelope is expected (a 2xx answer).
///
/// ```swift
/// let expected = ExpectedResponse(status: 400, code: "INVALID_FORMAT", field: "age")
/// expected.mismatch(status: 400, body: response)   // nil when the answer fits
/// ```
public struct ExpectedResponse: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status code.
    public let status: Int
    /// The error envelope's `code`, or `nil` for a success.
    public let code: String?
    /// The error envelope's `field`, or `nil` when the envelope must not have one.
    public let field: String?

    /// Creates an expectation.
    public init(status: Int, code: String? = nil, field: String? = nil) {
        self.status = status
        self.code = code
        self.field = field
    }

    /// Whether the status is an error (4xx or 5xx).
    public var isError: Bool { status >= 400 }

    /// `201`, or `400 INVALID_FORMAT field=age`, or `400 MISSING_VALUE (no field)`.
    public var description: String {
        guard isError else { return String(status) }
        return "\(status) \(code ?? "?") " + (field.map { "field=\($0)" } ?? "(no field)")
    }

    /// Compares an actual answer with this expectation.
    ///
    /// - Parameters:
    ///   - status: The actual HTTP status.
    ///   - body: The actual body parsed as JSON, or `nil` when it was not JSON.
    /// - Returns: `nil` when the answer fits, else a sentence saying what differs.
    public func mismatch(status actualStatus: Int, body: JSONValue?) -> String? {
        if actualStatus != status { return "expected \(self), got status \(actualStatus)" }
        guard isError else { return nil }
        guard let error = body?["error"]?.objectValue else {
            return "expected \(self), got status \(actualStatus) without an error envelope"
        }
        let actualCode = error["code"]?.stringValue
        if actualCode != code { return "expected \(self), got code \(actualCode ?? "(none)")" }
        let actualField = error["field"]
        switch (field, actualField) {
        case (nil, nil): return nil
        case (nil, let present?): return "expected \(self), got field \(present)"
        case (let wanted?, let present):
            return present?.stringValue == wanted ? nil : "expected \(self), got field \(present.map(\.description) ?? "(none)")"
        }
    }

    static func decode(_ node: CatalogNode) throws(CatalogDecodingError) -> ExpectedResponse {
        try node.requireOnlyKeys(["status", "code", "field"])
        let status = try node.member("status").int(in: 100...599)
        let code = try node.optionalMember("code")?.nonEmptyString()
        let field = try node.optionalMember("field")?.nonEmptyString()
        if status >= 400, code == nil { throw node.error("an error status needs a \"code\"") }
        if status < 400, code != nil || field != nil {
            throw node.error("a success status takes no \"code\" or \"field\"")
        }
        return ExpectedResponse(status: status, code: code, field: field)
    }
}
