import Foundation
import PetSpotJSON

/// The captured contract, loaded: every schema as a JSON document and the decoded case catalogs.
///
/// By default the documents come from the package's resources (`Bundle.module`); a user who
/// recaptured the contract points `PETSPOT_CONTRACTS_DIR` at a directory with the same layout
/// (`schemas/*.schema.json`, `catalog/*.json`) instead:
///
/// ```swift
/// let contract = try ContractDocuments.load()
/// let schema = contract[.createRequest]            // JSONValue, ready to compile
/// validator.register(contract.registry)            // $id → document, for cross-file $ref
/// for item in contract.negativeCases.cases { ... }
/// ```
///
/// Loading checks that each schema declares the 2020-12 dialect and its expected `$id`, and that
/// each catalog decodes; every error names the file and the byte offset or key path.
public struct ContractDocuments: Sendable {
    /// The environment variable naming a contract directory to load instead of the bundled one.
    public static let directoryEnvironmentKey = "PETSPOT_CONTRACTS_DIR"

    /// The directory the documents were read from.
    public let directory: URL
    /// Every schema document by name.
    public let schemas: [ContractSchemaName: JSONValue]
    /// The negative create-request catalog.
    public let negativeCases: CaseCatalog
    /// The photo upload catalog.
    public let photoUploadCases: PhotoUploadCatalog
    /// The kept regressions.
    public let regressions: RegressionCatalog

    /// The schema document of `name`.
    public subscript(name: ContractSchemaName) -> JSONValue {
        // Every name is loaded by init (or init throws), so the fallback is unreachable.
        schemas[name] ?? .bool(false)
    }

    /// Every schema keyed by its `$id`, for a validator's registry of remote references.
    public var registry: [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: schemas.map { ($0.key.id, $0.value) })
    }

    /// Loads from `PETSPOT_CONTRACTS_DIR` when the environment sets it, else from the bundle.
    ///
    /// - Parameter environment: The environment to read (the process's by default).
    /// - Throws: ``ContractLoadError`` naming the file at fault.
    public static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ContractLoadError) -> ContractDocuments {
        if let path = environment[directoryEnvironmentKey], !path.isEmpty {
            return try ContractDocuments(directory: URL(fileURLWithPath: path, isDirectory: true))
        }
        return try bundled()
    }

    /// Loads the documents shipped in the package's resources.
    ///
    /// - Throws: ``ContractLoadError`` naming the file at fault, or `missingDirectory` when
    ///   the resources cannot be found (a binary copied without its resource bundle: set
    ///   `PETSPOT_CONTRACTS_DIR`).
    public static func bundled() throws(ContractLoadError) -> ContractDocuments {
        guard let directory = bundledDirectory else {
            throw .missingDirectory(path: "the PetSpotContractKit resource bundle (set \(directoryEnvironmentKey))")
        }
        return try ContractDocuments(directory: directory)
    }

    /// The directory holding the bundled `schemas/` and `catalog/`, or `nil` when no copy is found.
    ///
    /// SwiftPM's generated `Bundle.module` stops the process when its bundle is missing, so the
    /// bundle is looked up here instead: a `*_PetSpotContractKit.resources` (Linux) or `.bundle`
    /// (Apple) directory beside the running executable or test bundle, then the package's own
    /// `Contracts/` directory in the source tree this module was built from.
    public static var bundledDirectory: URL? {
        let fileManager = FileManager.default
        var searchDirectories = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let executable = Bundle.main.executableURL { searchDirectories.append(executable.deletingLastPathComponent()) }
        for directory in searchDirectories {
            guard let entries = try? fileManager.contentsOfDirectory(atPath: directory.path) else { continue }
            for entry in entries.sorted()
            where entry.hasSuffix("_PetSpotContractKit.resources") || entry.hasSuffix("_PetSpotContractKit.bundle") {
                let bundleURL = directory.appendingPathComponent(entry, isDirectory: true)
                for root in [bundleURL, bundleURL.appendingPathComponent("Contents/Resources", isDirectory: true)]
                where fileManager.fileExists(atPath: root.appendingPathComponent("schemas").path) {
                    return root
                }
            }
        }
        let sourceTree = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        if fileManager.fileExists(atPath: sourceTree.appendingPathComponent("schemas").path) { return sourceTree }
        return nil
    }

    /// Loads every document from a contract directory.
    ///
    /// - Parameter directory: A directory with `schemas/` and `catalog/` as in `Contracts/`.
    /// - Throws: ``ContractLoadError`` naming the file at fault.
    public init(directory: URL) throws(ContractLoadError) {
        self.directory = directory
        var isDirectory: ObjCBool = false
        for sub in ["schemas", "catalog"] {
            let path = directory.appendingPathComponent(sub).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .missingDirectory(path: directory.path)
            }
        }
        var schemas: [ContractSchemaName: JSONValue] = [:]
        for name in ContractSchemaName.allCases {
            let file = "schemas/\(name.fileName)"
            let document = try Self.readJSON(file, in: directory)
            guard document["$schema"]?.stringValue == ContractSchemaName.dialect else {
                throw .invalidSchema(file: file, reason: "\"$schema\" must be \"\(ContractSchemaName.dialect)\"")
            }
            guard document["$id"]?.stringValue == name.id else {
                throw .invalidSchema(file: file, reason: "\"$id\" must be \"\(name.id)\"")
            }
            schemas[name] = document
        }
        self.schemas = schemas
        negativeCases = try Self.decodeCatalog(.createNegativeCases, in: directory, with: CaseCatalog.init(json:))
        photoUploadCases = try Self.decodeCatalog(.photoUploadCases, in: directory, with: PhotoUploadCatalog.init(json:))
        regressions = try Self.decodeCatalog(.regressions, in: directory, with: RegressionCatalog.init(json:))
    }

    private static func decodeCatalog<Catalog>(
        _ name: ContractCatalogName, in directory: URL,
        with decode: (JSONValue) throws(CatalogDecodingError) -> Catalog
    ) throws(ContractLoadError) -> Catalog {
        let file = "catalog/\(name.fileName)"
        let document = try readJSON(file, in: directory)
        do {
            return try decode(document)
        } catch {
            throw .invalidCatalog(file: file, path: error.path, reason: error.reason)
        }
    }

    private static func readJSON(_ file: String, in directory: URL) throws(ContractLoadError) -> JSONValue {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path) else {
            throw .unreadable(file: file)
        }
        do {
            return try JSONValue.parse(data)
        } catch {
            throw .invalidJSON(file: file, offset: error.offset, reason: error.reason)
        }
    }
}
