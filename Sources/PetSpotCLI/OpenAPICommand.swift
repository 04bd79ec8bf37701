import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotOpenAPI
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// `petspot-contracts openapi [--output FILE]`: the captured contract as an OpenAPI 3.1 document.
struct OpenAPICommand: RunnerCommand {
    static let outputFile = Option.text("--output", value: "FILE", default: "standard output", help: "Write the document to FILE.")

    static let spec = CommandSpec(
        name: "openapi",
        summary: "Write the captured contract as an OpenAPI 3.1 document (JSON).",
        discussion: """
            Every route of backend-contract.md with its methods, parameters, request bodies and responses; the schemas \
            of Contracts/schemas as components; the error envelope and its codes; examples from the schemas and, for \
            error answers, the catalogs' cases as the production-profile mock answers them. For Schemathesis, Prism, \
            code generators. PETSPOT_CONTRACTS_DIR selects a recaptured contract.
            """,
        options: [outputFile],
        examples: [
            "petspot-contracts openapi --output petspot-openapi.json",
            "petspot-contracts openapi | python3 -m json.tool | less",
        ],
        exitCodes: "EXIT CODES: 0 written, \(RunnerExitCode.usage.rawValue) usage error, "
            + "\(RunnerExitCode.configuration.rawValue) configuration error (e.g. the file cannot be written, the contract does not load).")

    /// Where the document goes; standard output when `nil`.
    let output: String?

    init(_ parsed: ParsedArguments, arguments: [String]) throws(RunnerError) {
        output = try parsed.resolve()[Self.outputFile]
    }

    func run(output console: RunnerOutput) async throws -> RunnerExitCode {
        let documents: ContractDocuments
        do {
            documents = try ContractDocuments.load()
        } catch {
            throw RunnerError.configuration("the contract does not load: \(error)", command: "openapi")
        }
        let text = await runOnDedicatedThread { OpenAPIDocument.make(documents: documents).serialized(options: [.prettyPrinted]) }
        if let output {
            try ContractReport.write(text + "\n", to: output, flag: "--output")
        } else {
            console.line(text)
        }
        return .success
    }
}
