/// A catalog case whose expected answer depends on the backend's profile: production's answer,
/// and the strict mock's where it differs.
public protocol ProfiledCase {
    /// The production answer.
    var expected: ExpectedResponse { get }
    /// The strict mock's answer where it differs from production.
    var strictExpected: ExpectedResponse? { get }
}

extension ProfiledCase {
    /// The answer expected from a backend of the given profile.
    public func expected(for profile: BackendProfile) -> ExpectedResponse {
        switch profile {
        case .production: expected
        case .strict: strictExpected ?? expected
        }
    }

    /// Whether the strict mock and production answer differently.
    public var profilesDiffer: Bool { strictExpected != nil && strictExpected != expected }
}
