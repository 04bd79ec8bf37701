import Foundation
import PetSpotConcurrency
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel
import PetSpotRuntime
import PetSpotSchema

/// The captured contract, loaded once and compiled: every schema of `Contracts/` and both
/// catalogs.
///
/// Loaded from `PETSPOT_CONTRACTS_DIR` when set, else from the package's bundled resources;
/// a missing or broken contract is a configuration error (exit code 2) naming the file.
public struct ContractSchemas: Sendable {
    /// The documents as loaded.
    public let documents: ContractDocuments
    private let compiled: [ContractSchemaName: CompiledSchema]

    /// Loads and compiles the contract.
    static func load() throws(RunnerError) -> ContractSchemas {
        let documents: ContractDocuments
        do {
            documents = try ContractDocuments.load()
        } catch {
            throw .configuration("cannot load the contract: \(error.description)")
        }
        var registry = SchemaRegistry()
        for (uri, document) in documents.registry { registry.register(document, at: uri) }
        var compiled: [ContractSchemaName: CompiledSchema] = [:]
        for name in ContractSchemaName.allCases {
            do {
                compiled[name] = try JSONSchema.compile(documents[name], registry: registry)
            } catch {
                throw .configuration("cannot compile \(name.fileName): \(error.description)")
            }
        }
        return ContractSchemas(documents: documents, compiled: compiled)
    }

    /// The contract shared by every command of this process (loaded on first use).
    public static func shared() throws(RunnerError) -> ContractSchemas {
        try loadOnce().get()
    }

    /// The contract loaded once per process (or the error loading it gave).
    private static let cache = Locked<Result<ContractSchemas, RunnerError>?>(nil)

    private static func loadOnce() -> Result<ContractSchemas, RunnerError> {
        cache.withLock { cached in
            if let cached { return cached }
            let loaded = Result { () throws(RunnerError) in try ContractSchemas.load() }
            cached = loaded
            return loaded
        }
    }

    /// The compiled schema `name`.
    public func compiled(_ name: ContractSchemaName) -> CompiledSchema? {
        compiled[name]
    }

    /// Violations of `instance` against schema `name` (`location: message`); empty when valid.
    ///
    /// An evaluation the validator cannot decide (a pattern's search ran out of its budget) is
    /// never taken as valid: it comes back as one entry saying so, which fails the case with
    /// that reason rather than a made-up violation.
    public func violations(of instance: JSONValue, against name: ContractSchemaName) -> [String] {
        guard let schema = compiled[name] else { return ["\(name.fileName) is not loaded"] }
        let result = schema.validate(instance)
        switch result.outcome {
        case .valid:
            return []
        case .invalid:
            return result.errors.map { "\($0.instanceLocation.isEmpty ? "/" : $0.instanceLocation): \($0.message)" }
        case .undecided(let error):
            return ["the validator could not decide against \(name.fileName) (an evaluation error, not a contract violation): \(error.message)"]
        }
    }

    /// The validators a submitted payload must pass: create-request, then client-payload with
    /// its character caps.
    public var payloadValidators: [PayloadValidator] {
        let schemas = self
        return [
            PayloadValidator(name: ContractSchemaName.createRequest.fileName) { payload in
                schemas.violations(of: payload, against: .createRequest)
            },
            PayloadValidator(name: ContractSchemaName.clientPayload.fileName) { payload in
                var found = schemas.violations(of: payload, against: .clientPayload)
                if let object = payload.objectValue {
                    found += schemas.documents.characterLimitViolations(in: object).map(\.description)
                }
                return found
            },
        ]
    }
}
