import PetSpotJSON

/// One kept failure: the exact input a shrunk failure came down to and the answer it must get.
public struct RegressionCase: Sendable, Hashable, Identifiable {
    /// What a regression replays.
    public enum Check: Sendable, Hashable {
        /// Send `body` as a create request; expect `expected` (production) or `strictExpected`.
        case createRequest(body: JSONValue, expected: ExpectedResponse, strictExpected: ExpectedResponse?)
        /// Validate `payload` against client-payload.schema.json; expect `valid`.
        case clientPayload(payload: JSONValue, valid: Bool)
        /// Ask the reference model (or an adapter) `question` (a sut-protocol question without `v`
        /// and `id`); expect `answer` (without `v` and `id`).
        case flow(question: JSONValue, answer: JSONValue)
    }

    /// A stable slug.
    public let id: String
    /// The day it was added, `YYYY-MM-DD`.
    public let addedOn: String
    /// The command line that found it, seed included.
    public let origin: String
    /// What to replay and expect.
    public let check: Check
    /// Why it is kept.
    public let note: String?

    static func decode(_ node: CatalogNode) throws(CatalogDecodingError) -> RegressionCase {
        try node.requireOnlyKeys(["id", "addedOn", "origin", "kind", "input", "expected", "strictExpected", "note"])
        let addedNode = try node.member("addedOn")
        let addedOn = try addedNode.string()
        let shape = addedOn.utf8.enumerated().allSatisfy { offset, byte in
            offset == 4 || offset == 7 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard addedOn.utf8.count == 10, shape else { throw addedNode.error("expected a date YYYY-MM-DD") }
        let input = try node.member("input").value
        let expectedNode = try node.member("expected")
        let kindNode = try node.member("kind")
        let check: Check
        switch try kindNode.string() {
        case "createRequest":
            check = .createRequest(
                body: input, expected: try ExpectedResponse.decode(expectedNode),
                strictExpected: try node.optionalMember("strictExpected").map { (n) throws(CatalogDecodingError) in try ExpectedResponse.decode(n) })
        case "clientPayload":
            try expectedNode.requireOnlyKeys(["valid"])
            check = .clientPayload(payload: input, valid: try expectedNode.member("valid").bool())
        case "flow":
            _ = try expectedNode.object()
            check = .flow(question: input, answer: expectedNode.value)
        case let other:
            throw kindNode.error("unknown kind \"\(other)\" (createRequest, clientPayload, flow)")
        }
        if case .createRequest = check {} else if try node.optionalMember("strictExpected") != nil {
            throw node.error("strictExpected belongs to createRequest regressions only")
        }
        return RegressionCase(
            id: try node.member("id").slug(), addedOn: addedOn,
            origin: try node.member("origin").nonEmptyString(), check: check,
            note: try node.optionalMember("note")?.nonEmptyString())
    }
}

/// The kept regressions (`catalog/regressions.json`): `version` and `cases`, empty until a shrunk
/// failure is worth keeping. See `Contracts/README.md` for how to add one.
public struct RegressionCatalog: Sendable, Hashable {
    /// The newest catalog version this kit reads.
    public static let supportedVersion = 1

    /// The document's version.
    public let version: Int
    /// The kept cases.
    public let cases: [RegressionCase]

    /// Decodes a catalog document.
    ///
    /// - Throws: ``CatalogDecodingError`` naming the key path of the first problem.
    public init(json: JSONValue) throws(CatalogDecodingError) {
        let root = CatalogNode(root: json)
        try root.requireOnlyKeys(["$comment", "version", "cases"])
        version = try root.catalogVersion(supported: Self.supportedVersion)
        var decoded: [RegressionCase] = []
        var seen: Set<String> = []
        for element in try root.member("cases").elements() {
            let item = try RegressionCase.decode(element)
            guard seen.insert(item.id).inserted else { throw element.error("duplicate case id \"\(item.id)\"") }
            decoded.append(item)
        }
        cases = decoded
    }
}
