import Foundation
import PetSpotJSON
@testable import PetSpotContractKit

/// The repository's `Contracts/` directory, found relative to this file.
let repositoryContractsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Contracts", isDirectory: true)

/// The bundled documents, loaded once per use (cheap: a few small files).
func bundledContract() throws -> ContractDocuments {
    try ContractDocuments.bundled()
}

/// A scratch copy of the contract's `schemas/` and `catalog/`, removed by the caller.
func scratchContractCopy() throws -> URL {
    let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("petspot-contracts-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    for sub in ["schemas", "catalog"] {
        try FileManager.default.copyItem(
            at: repositoryContractsDirectory.appendingPathComponent(sub), to: root.appendingPathComponent(sub))
    }
    return root
}

/// Parses a JSON literal written in a test.
func json(_ text: String) throws -> JSONValue {
    try JSONValue.parse(text)
}
