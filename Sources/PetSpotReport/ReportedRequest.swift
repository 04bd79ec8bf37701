import Foundation
import PetSpotConcurrency
import PetSpotJSON

/// A request as shown in a report, secrets already redacted.
public struct ReportedRequest: Sendable, Hashable {
    /// `GET`, `POST`, `DELETE`.
    public var method: String
    /// Path and query.
    public var path: String
    /// Header fields in order, redacted.
    public var headers: [ReportedHeader]
    /// The body as text (redacted; binary bodies summarised).
    public var body: String

    /// Creates a reported request.
    public init(method: String, path: String, headers: [ReportedHeader] = [], body: String = "") {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

/// One header field of a reported request.
public struct ReportedHeader: Sendable, Hashable {
    /// The field name.
    public var name: String
    /// The value, redacted when it is a credential.
    public var value: String

    /// Creates a header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
