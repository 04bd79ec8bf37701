/// Why the contract documents could not be loaded.
///
/// Every case names the file (relative to the contract directory, e.g.
/// `schemas/create-request.schema.json`) so that a broken recapture is fixed from the message.
public enum ContractLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The contract directory (bundle resources or `PETSPOT_CONTRACTS_DIR`) is missing or lacks
    /// `schemas/` or `catalog/`.
    case missingDirectory(path: String)
    /// A file could not be read.
    case unreadable(file: String)
    /// A file is not valid JSON; `offset` is the byte offset of the problem.
    case invalidJSON(file: String, offset: Int, reason: String)
    /// A schema file lacks the expected `$schema` or `$id`.
    case invalidSchema(file: String, reason: String)
    /// A catalog file does not have the documented shape; `path` is the key path inside it.
    case invalidCatalog(file: String, path: String, reason: String)

    /// One line naming the file and the problem.
    public var description: String {
        switch self {
        case .missingDirectory(let path):
            "contract directory not found or incomplete (needs schemas/ and catalog/): \(path)"
        case .unreadable(let file): "\(file): cannot be read"
        case .invalidJSON(let file, let offset, let reason): "\(file): invalid JSON at byte \(offset): \(reason)"
        case .invalidSchema(let file, let reason): "\(file): \(reason)"
        case .invalidCatalog(let file, let path, let reason): "\(file): \(path): \(reason)"
        }
    }
}
