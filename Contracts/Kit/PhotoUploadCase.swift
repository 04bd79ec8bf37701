import Foundation
import PetSpotJSON

/// The values a photo case's placeholders stand for.
///
/// Strings in a photo case may hold `{id}` (the target announcement's id), `{password}` (the
/// management password of the announcement the runner created) and `{otherPassword}` (six digits
/// that are not that password).
public struct PhotoCredentials: Sendable, Hashable {
    /// The id in the request path and in `{id}`.
    public let id: String
    /// The created announcement's management password.
    public let password: String
    /// A six-digit password guaranteed to differ from ``password``.
    public let otherPassword: String

    /// Creates credentials; `otherPassword` is derived so that it differs from `password`.
    public init(id: String, password: String) {
        self.id = id
        self.password = password
        otherPassword = password == "100000" ? "100001" : "100000"
    }

    /// `text` with every placeholder replaced.
    public func substitute(_ text: String) -> String {
        text.replacingOccurrences(of: "{id}", with: id)
            .replacingOccurrences(of: "{password}", with: password)
            .replacingOccurrences(of: "{otherPassword}", with: otherPassword)
    }
}

/// One case of the photo upload endpoint (`POST /api/v1/announcements/{id}/photos`).
///
/// The backend checks, in order: credentials (401), the announcement (404), the password (403),
/// the `photo` part (400 `MISSING_FILE`), the size (413) and the magic bytes (400
/// `INVALID_FILE_FORMAT`). Each case sets up one combination and expects the first failing check;
/// cases combining two faults pin the order. A few cases expect 201 (documented acceptances).
public struct PhotoUploadCase: Sendable, Hashable, Identifiable, ProfiledCase {
    /// Which announcement id the request targets.
    public enum Target: String, Sendable, Hashable {
        /// One the runner created for the case (its password is known).
        case created
        /// A fresh UUID v4 that no announcement has.
        case unknown
        /// A string that is not a UUID (``malformedID``).
        case malformed

        /// The id a ``malformed`` case puts in the path.
        public static let malformedID = "not-a-uuid"
    }

    /// The Authorization header a case sends.
    public enum Authorization: Sendable, Hashable {
        /// No header.
        case none
        /// `Basic base64(user:password)`.
        case basic(user: String, password: String)
        /// `Basic base64(credentials)`, the credentials taken verbatim (e.g. without a colon).
        case basicCredentials(String)
        /// This header value verbatim.
        case header(String)

        /// The header value with placeholders substituted, or `nil` for ``none``.
        public func headerValue(with credentials: PhotoCredentials) -> String? {
            switch self {
            case .none: return nil
            case .basic(let user, let password):
                let pair = credentials.substitute(user) + ":" + credentials.substitute(password)
                return "Basic " + Data(pair.utf8).base64EncodedString()
            case .basicCredentials(let text):
                return "Basic " + Data(credentials.substitute(text).utf8).base64EncodedString()
            case .header(let value):
                return credentials.substitute(value)
            }
        }
    }

    /// A plain form field sent beside (or instead of) the file.
    public struct FormField: Sendable, Hashable {
        /// The part name.
        public let name: String
        /// The text value.
        public let value: String
    }

    /// The case's id, a stable slug.
    public let id: String
    /// What the request does.
    public let description: String
    /// The announcement targeted.
    public let announcement: Target
    /// The Authorization header.
    public let authorization: Authorization
    /// The file part, or `nil` for a multipart body without one.
    public let file: PhotoFilePart?
    /// Other form fields in the multipart body.
    public let otherParts: [FormField]
    /// The production answer.
    public let expected: ExpectedResponse
    /// The strict mock's answer where it differs.
    public let strictExpected: ExpectedResponse?
    /// Whether the expectation is inferred rather than stated by backend-contract.md.
    public let inferred: Bool
    /// Why the expectation is what it is.
    public let note: String?
    /// Set when production's answer (``expected``) is a known backend defect, saying what the
    /// defect is; ``strictExpected`` then holds the sane answer.
    public let knownProductionDefect: String?


    static func decode(_ node: CatalogNode) throws(CatalogDecodingError) -> PhotoUploadCase {
        try node.requireOnlyKeys([
            "id", "description", "announcement", "authorization", "file", "otherParts", "expected",
            "strictExpected", "inferred", "note", "knownProductionDefect",
        ])
        let targetNode = try node.member("announcement")
        let targetName = try targetNode.string()
        guard let target = Target(rawValue: targetName) else {
            throw targetNode.error("expected created, unknown or malformed, found \"\(targetName)\"")
        }
        let fileNode = try node.member("file")
        var parts: [FormField] = []
        if let partsNode = try node.optionalMember("otherParts") {
            for part in try partsNode.elements() {
                try part.requireOnlyKeys(["name", "value"])
                parts.append(FormField(name: try part.member("name").nonEmptyString(), value: try part.member("value").string()))
            }
        }
        let expected = try ExpectedResponse.decode(node.member("expected"))
        let strictExpected = try node.optionalMember("strictExpected").map { (n) throws(CatalogDecodingError) in try ExpectedResponse.decode(n) }
        return PhotoUploadCase(
            id: try node.member("id").slug(),
            description: try node.member("description").nonEmptyString(),
            announcement: target,
            authorization: try decodeAuthorization(node.member("authorization")),
            file: fileNode.value.isNull ? nil : try PhotoFilePart.decode(fileNode),
            otherParts: parts,
            expected: expected,
            strictExpected: strictExpected,
            inferred: try node.optionalMember("inferred")?.bool() ?? false,
            note: try node.optionalMember("note")?.nonEmptyString(),
            knownProductionDefect: try node.knownProductionDefect(expected: expected, strictExpected: strictExpected))
    }

    private static func decodeAuthorization(_ node: CatalogNode) throws(CatalogDecodingError) -> Authorization {
        let kindNode = try node.member("kind")
        switch try kindNode.string() {
        case "none":
            try node.requireOnlyKeys(["kind"])
            return .none
        case "basic":
            try node.requireOnlyKeys(["kind", "user", "password"])
            return .basic(user: try node.member("user").string(), password: try node.member("password").string())
        case "basicCredentials":
            try node.requireOnlyKeys(["kind", "credentials"])
            return .basicCredentials(try node.member("credentials").string())
        case "header":
            try node.requireOnlyKeys(["kind", "value"])
            return .header(try node.member("value").string())
        case let other:
            throw kindNode.error("unknown authorization kind \"\(other)\" (none, basic, basicCredentials, header)")
        }
    }
}

/// The file part of a photo upload case.
public struct PhotoFilePart: Sendable, Hashable {
    /// The multipart part name (`photo` unless a case tests another).
    public let partName: String
    /// The part's file name.
    public let fileName: String
    /// The declared Content-Type of the part (the backend does not trust it).
    public let contentType: String
    /// The bytes to send.
    public let content: PhotoContent

    static func decode(_ node: CatalogNode) throws(CatalogDecodingError) -> PhotoFilePart {
        try node.requireOnlyKeys(["partName", "fileName", "contentType", "content"])
        return PhotoFilePart(
            partName: try node.member("partName").nonEmptyString(),
            fileName: try node.member("fileName").nonEmptyString(),
            contentType: try node.member("contentType").nonEmptyString(),
            content: try PhotoContent.decode(node.member("content")))
    }
}

/// Generated file content: a sample of one kind, padded to a size.
///
/// `{"kind": "png", "size": 20971520}` is a valid 1×1 PNG followed by zero bytes up to 20 MB;
/// without `size` the sample alone is sent. Kinds: `png` (a complete 1×1 PNG), `jpeg` (the JPEG
/// signature and a JFIF header), `pdf`, `text` (ASCII prose, padded with more of it) and `empty`.
public struct PhotoContent: Sendable, Hashable {
    /// The sample kinds.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case png, jpeg, pdf, text, empty
    }

    /// The largest size a case may ask for (64 MiB), so that a hostile catalog cannot exhaust
    /// memory.
    public static let maxSize = 64 * 1024 * 1024

    /// The sample kind.
    public let kind: Kind
    /// The total size in bytes, or `nil` for the sample alone.
    public let size: Int?

    /// Creates content; `size` must be at least the sample's length (checked when decoding).
    public init(kind: Kind, size: Int? = nil) {
        self.kind = kind
        self.size = size
    }

    /// The sample bytes of a kind, before padding.
    public static func sample(_ kind: Kind) -> [UInt8] {
        switch kind {
        case .png: onePixelPNG
        case .jpeg: jfifHeader
        case .pdf: Array("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".utf8)
        case .text: Array(textSample.utf8)
        case .empty: []
        }
    }

    /// The bytes to send: the sample, padded to ``size`` (zeros for binary kinds, more prose for
    /// text).
    public func bytes() -> [UInt8] {
        let sample = Self.sample(kind)
        guard let size, size > sample.count else { return sample }
        if kind == .text {
            var result: [UInt8] = []
            result.reserveCapacity(size)
            while result.count + sample.count <= size { result.append(contentsOf: sample) }
            result.append(contentsOf: sample.prefix(size - result.count))
            return result
        }
        var result = [UInt8](repeating: 0, count: size)
        result.replaceSubrange(0..<sample.count, with: sample)
        return result
    }

    static func decode(_ node: CatalogNode) throws(CatalogDecodingError) -> PhotoContent {
        try node.requireOnlyKeys(["kind", "size"])
        let kindNode = try node.member("kind")
        let name = try kindNode.string()
        guard let kind = Kind(rawValue: name) else {
            throw kindNode.error("unknown content kind \"\(name)\" (\(Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let minimum = sample(kind).count
        let size = try node.optionalMember("size")?.int(in: minimum...maxSize)
        if kind == .empty, let size, size > 0 { throw node.error("empty content has no size") }
        return PhotoContent(kind: kind, size: size)
    }

    private static let textSample = "This is not an image, whatever its declared type says.\n"

    /// A complete 1×1 RGBA PNG (signature, IHDR, IDAT, IEND with valid CRCs).
    private static let onePixelPNG: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0B, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x60, 0x00, 0x02, 0x00,
        0x00, 0x05, 0x00, 0x01, 0x7A, 0x5E, 0xAB, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44,
        0xAE, 0x42, 0x60, 0x82,
    ]

    /// The JPEG start-of-image marker, a JFIF APP0 segment and the end-of-image marker: what
    /// magic-byte detection looks at (not a decodable picture).
    private static let jfifHeader: [UInt8] = [
        0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
        0x00, 0x01, 0x00, 0x00, 0xFF, 0xD9,
    ]
}

/// The photo upload catalog (`catalog/photo-upload-cases.json`): `version` and `cases`.
public struct PhotoUploadCatalog: Sendable, Hashable {
    /// The newest catalog version this kit reads (2 added `knownProductionDefect`).
    public static let supportedVersion = 2

    /// The document's version.
    public let version: Int
    /// The cases, in catalog order.
    public let cases: [PhotoUploadCase]

    /// Decodes a catalog document.
    ///
    /// - Throws: ``CatalogDecodingError`` naming the key path of the first problem.
    public init(json: JSONValue) throws(CatalogDecodingError) {
        let root = CatalogNode(root: json)
        try root.requireOnlyKeys(["$comment", "version", "cases"])
        version = try root.catalogVersion(supported: Self.supportedVersion)
        cases = try root.member("cases").uniqueCases(PhotoUploadCase.decode, id: \.id)
    }

    /// The case with this id.
    public subscript(id id: String) -> PhotoUploadCase? {
        cases.first { $0.id == id }
    }
}
