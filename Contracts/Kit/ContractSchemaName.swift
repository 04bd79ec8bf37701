/// The seven captured JSON Schemas of the PetSpot backend contract.
///
/// Each case names one file in `Contracts/schemas/` and the stable `$id` under which other schemas
/// reference it (`client-payload` builds on `create-request`, `list-response` on `announcement`):
///
/// ```swift
/// ContractSchemaName.createRequest.fileName  // "create-request.schema.json"
/// ContractSchemaName.createRequest.id        // "https://petspot.example/contracts/v1/create-request.schema.json"
/// ```
///
/// The `/v1/` segment is the contract's major version: it changes only when a schema change would
/// reject a document the previous version accepted (see `Contracts/README.md`).
public enum ContractSchemaName: String, CaseIterable, Sendable, Hashable {
    /// The create request as production accepts it (strict object, trimmed-string rules).
    case createRequest = "create-request"
    /// The 201 body of a create: the stored announcement plus `managementPassword`.
    case createResponse = "create-response"
    /// An announcement as read back (details, list element): never a `managementPassword`.
    case announcement
    /// The list body `{"data": [announcement]}`.
    case listResponse = "list-response"
    /// The error envelope of every 4xx and 5xx answer.
    case errorEnvelope = "error-envelope"
    /// The apps' stricter payload rule, built on ``createRequest``.
    case clientPayload = "client-payload"
    /// The `GET /api/health` body.
    case health

    /// The contract's major version, the `/v1/` segment of every `$id`: it changes only with a
    /// breaking change (Contracts/README.md, "Versioning"), so a release recorded against one
    /// major version is judged against that version only.
    public static let majorVersion = "v1"

    /// The common prefix of every schema `$id`.
    public static let idPrefix = "https://petspot.example/contracts/\(majorVersion)/"

    /// The dialect every schema declares in `$schema`.
    public static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// The file name inside `Contracts/schemas/`, e.g. `create-request.schema.json`.
    public var fileName: String { "\(rawValue).schema.json" }

    /// The schema's stable `$id`.
    public var id: String { Self.idPrefix + fileName }
}

/// The three case catalogs in `Contracts/catalog/`.
public enum ContractCatalogName: String, CaseIterable, Sendable, Hashable {
    /// Negative create requests with their expected answers per backend profile.
    case createNegativeCases = "create-negative-cases"
    /// The photo upload endpoint's documented checks.
    case photoUploadCases = "photo-upload-cases"
    /// Shrunk failures kept so they run on every build.
    case regressions

    /// The file name inside `Contracts/catalog/`, e.g. `create-negative-cases.json`.
    public var fileName: String { "\(rawValue).json" }
}
