import PetSpotJSON

/// What the create-request schema should say about a case's body.
public enum SchemaVerdict: String, Sendable, Hashable {
    /// The schema accepts the body (the case is refused for a reason no schema can see, or is
    /// accepted by production).
    case valid
    /// The schema rejects the body.
    case invalid
}

/// One negative create request of the catalog and the answers it must get.
///
/// A case derives its body from the catalog's base payload through a ``CaseMutation``, optionally
/// after a setup step, and expects one answer from production and, where the strict mock differs,
/// another from the strict mock:
///
/// ```swift
/// let body = try negativeCase.body(from: catalog.basePayload)
/// let expected = negativeCase.expected(for: .production)   // e.g. 400 INVALID_FORMAT field=age
/// ```
///
/// A few cases expect a success from production (an empty optional text is accepted there): a
/// runner deletes what such a case created.
public struct NegativeCase: Sendable, Hashable, Identifiable, ProfiledCase {
    /// A step to run before sending the case's body.
    public enum Setup: String, Sendable, Hashable {
        /// Create the base payload first (expect 201), then send the case's body derived from the
        /// same base, so that its `microchipNumber` is already taken.
        case createBaseFirst
    }

    /// A stable slug, e.g. `age-zero`.
    public let id: String
    /// One line saying what the body does wrong.
    public let description: String
    /// The step to run first, if any.
    public let setup: Setup?
    /// How the body is derived from the base payload.
    public let mutation: CaseMutation
    /// The production answer.
    public let expected: ExpectedResponse
    /// The strict mock's answer where it differs from production.
    public let strictExpected: ExpectedResponse?
    /// What the create-request schema says about the body; `nil` when the body is not JSON.
    public let createRequestSchema: SchemaVerdict?
    /// Whether the expectation is inferred rather than stated by backend-contract.md: a mismatch
    /// against a real backend calls for a recapture before it is called a regression.
    public let inferred: Bool
    /// Why the expectation is what it is, where the doc needed reading.
    public let note: String?
    /// Set when production's answer (``expected``) is a known backend defect, saying what the
    /// defect is; ``strictExpected`` then holds the sane answer. A runner reports a production
    /// that answers ``expected`` as conforming, and may list the defect.
    public let knownProductionDefect: String?


    /// The body to send, derived from `base`.
    ///
    /// - Parameter base: The catalog's ``CaseCatalog/basePayload``, with a `microchipNumber` no
    ///   other case or run uses.
    /// - Throws: ``CaseMutationError`` when the mutation removes a key `base` lacks.
    public func body(from base: JSONObject) throws(CaseMutationError) -> CaseBody {
        try mutation.apply(to: base)
    }

    static func decode(_ node: CatalogNode) throws(CatalogDecodingError) -> NegativeCase {
        try node.requireOnlyKeys([
            "id", "description", "setup", "mutation", "expected", "strictExpected", "createRequestSchema",
            "inferred", "note", "knownProductionDefect",
        ])
        let id = try node.member("id").slug()
        var setup: Setup?
        if let setupNode = try node.optionalMember("setup") {
            let name = try setupNode.string()
            guard let known = Setup(rawValue: name) else { throw setupNode.error("unknown setup \"\(name)\"") }
            setup = known
        }
        var verdict: SchemaVerdict?
        if let verdictNode = try node.optionalMember("createRequestSchema") {
            let name = try verdictNode.string()
            guard let known = SchemaVerdict(rawValue: name) else {
                throw verdictNode.error("expected \"valid\" or \"invalid\", found \"\(name)\"")
            }
            verdict = known
        }
        let expected = try ExpectedResponse.decode(node.member("expected"))
        let strictExpected = try node.optionalMember("strictExpected").map { (n) throws(CatalogDecodingError) in try ExpectedResponse.decode(n) }
        return NegativeCase(
            id: id,
            description: try node.member("description").nonEmptyString(),
            setup: setup,
            mutation: try CaseMutation.decode(node.member("mutation")),
            expected: expected,
            strictExpected: strictExpected,
            createRequestSchema: verdict,
            inferred: try node.optionalMember("inferred")?.bool() ?? false,
            note: try node.optionalMember("note")?.nonEmptyString(),
            knownProductionDefect: try node.knownProductionDefect(expected: expected, strictExpected: strictExpected))
    }
}

/// The catalog of negative create requests (`catalog/create-negative-cases.json`).
///
/// A versioned document: `version` (this kit reads 1 and 2), `basePayload` (a valid `MISSING` payload with
/// every optional field) and `cases`. Ids are unique; decoding refuses unknown keys anywhere, so a
/// misspelt `strictExpected` is an error, not a silently ignored line.
public struct CaseCatalog: Sendable, Hashable {
    /// The newest catalog version this kit reads (2 added `knownProductionDefect` and the
    /// `setRawJSON` and `setNestedArrays` mutations).
    public static let supportedVersion = 2

    /// The document's version.
    public let version: Int
    /// A valid Missing-flow payload with every optional field; cases derive from it. Its
    /// `microchipNumber` is a placeholder: give each case a run-unique value.
    public let basePayload: JSONObject
    /// The cases, in catalog order.
    public let cases: [NegativeCase]

    /// Decodes a catalog document.
    ///
    /// - Throws: ``CatalogDecodingError`` naming the key path of the first problem.
    public init(json: JSONValue) throws(CatalogDecodingError) {
        let root = CatalogNode(root: json)
        try root.requireOnlyKeys(["$comment", "version", "basePayload", "cases"])
        version = try root.catalogVersion(supported: Self.supportedVersion)
        basePayload = try root.member("basePayload").object()
        cases = try root.member("cases").uniqueCases(NegativeCase.decode, id: \.id)
    }

    /// The case with this id.
    public subscript(id id: String) -> NegativeCase? {
        cases.first { $0.id == id }
    }

    /// The base payload with `microchipNumber` replaced, for a case that must not collide with
    /// anything stored (production reseeds sample data and staging keeps leftovers).
    public func basePayload(microchipNumber: String) -> JSONObject {
        var base = basePayload
        base["microchipNumber"] = .string(microchipNumber)
        return base
    }
}
