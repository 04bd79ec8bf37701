import Foundation
import PetSpotContractKit
import PetSpotJSON
@testable import PetSpotOpenAPI
import PetSpotRuntime
import PetSpotSchema
import Testing

/// The official OpenAPI 3.1 schemas: `$PETSPOT_OPENAPI_SCHEMAS`, else `../shared/openapi-3.1`
/// beside the repository (read there, never copied into the project).
enum OpenAPISchemas {
    static let directory: URL? = {
        let environment = ProcessInfo.processInfo.environment
        let candidate = environment["PETSPOT_OPENAPI_SCHEMAS"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/openapi-3.1")
        return FileManager.default.fileExists(atPath: candidate.appendingPathComponent("schema-base.json").path) ? candidate : nil
    }()

    static let missing = "the OpenAPI 3.1 schemas were not found in ../shared/openapi-3.1 or PETSPOT_OPENAPI_SCHEMAS"

    /// `schema.json`, `schema-base.json` and the dialect and vocabulary schemas they reference,
    /// each registered under its `$id`.
    static func registry() throws -> (registry: SchemaRegistry, schema: JSONValue, schemaBase: JSONValue) {
        let directory = try #require(directory)
        var registry = SchemaRegistry()
        var loaded: [String: JSONValue] = [:]
        for file in ["schema.json", "schema-base.json", "dialect/base.schema.json", "meta/base.schema.json"] {
            let document = try JSONValue.parse(Data(contentsOf: directory.appendingPathComponent(file)))
            registry.register(document, at: try #require(document["$id"]?.stringValue))
            loaded[file] = document
        }
        return (registry, try #require(loaded["schema.json"]), try #require(loaded["schema-base.json"]))
    }
}

/// backend-contract.md: `$PETSPOT_DOCS_DIR`, else `../shared/docs`.
enum BackendContractDoc {
    static let url: URL? = {
        let directory = ProcessInfo.processInfo.environment["PETSPOT_DOCS_DIR"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/docs")
        let file = directory.appendingPathComponent("backend-contract.md")
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }()

    /// Every `METHOD /path` the document names (`GET /images/{id}.{ext}` included).
    static func routes() throws -> [(method: String, path: String)] {
        let text = try String(contentsOf: try #require(url), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (/[A-Za-z0-9_./{}-]+)"#)
        var routes: [(String, String)] = []
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let method = Range(match.range(at: 1), in: text), let path = Range(match.range(at: 2), in: text) else { continue }
            // `GET /images/...` elides a route named in full elsewhere: not a route of its own.
            if text[path].hasSuffix("...") { continue }
            let route = (String(text[method]), String(text[path]).trimmingCharacters(in: CharacterSet(charactersIn: ".")))
            if !routes.contains(where: { $0 == route }) { routes.append(route) }
        }
        return routes
    }
}

@Suite("the OpenAPI document")
struct OpenAPITests {
    /// The document of the bundled contract (`null` if the contract does not load, which
    /// ``generated()`` reports).
    static let document: JSONValue = (try? ContractDocuments.load()).map { OpenAPIDocument.make(documents: $0) } ?? .null

    @Test("the document is generated from the bundled contract, as OpenAPI 3.1.0")
    func generated() throws {
        #expect(Self.document["openapi"] == "3.1.0")
        #expect(Self.document["jsonSchemaDialect"] == .string(OpenAPIDocument.dialect))
        let schemas = try #require(Self.document["components"]?["schemas"]?.objectValue)
        #expect(Set(schemas.keys) == Set(ContractSchemaName.allCases.map(\.rawValue)))
        for (name, schema) in schemas {
            #expect(schema["$id"] == nil && schema["$schema"] == nil, "\(name)")
            #expect(!Self.references(in: schema).contains { $0.hasPrefix("http") }, "\(name) refers to components only")
        }
    }

    @Test("it validates against the OpenAPI 3.1 schema and the base-dialect schema")
    func validatesAgainstOpenAPISchemas() throws {
        guard OpenAPISchemas.directory != nil else { return sharedDataMissing(OpenAPISchemas.missing) }
        let (registry, schema, schemaBase) = try OpenAPISchemas.registry()
        for (name, metaschema) in [("schema.json", schema), ("schema-base.json", schemaBase)] {
            let compiled = try JSONSchema.compile(metaschema, registry: registry)
            let errors = compiled.validate(Self.document).errors.map(\.description)
            #expect(errors == [], "\(name): \(errors.prefix(10).joined(separator: "\n"))")
        }
    }

    @Test("the OpenAPI schemas refuse a broken document (the check can fail)")
    func refusesBrokenDocuments() throws {
        guard OpenAPISchemas.directory != nil else { return sharedDataMissing(OpenAPISchemas.missing) }
        let (registry, _, schemaBase) = try OpenAPISchemas.registry()
        let compiled = try JSONSchema.compile(schemaBase, registry: registry)
        guard case .object(let document) = Self.document else { throw ReportFixtureError.notAnObject }
        var noInfo = document
        noInfo["info"] = nil
        var wrongDialect = document
        wrongDialect["jsonSchemaDialect"] = "https://json-schema.org/draft/2020-12/schema"
        var badResponse = document
        badResponse["paths"] = ["/api/health": ["get": ["responses": ["200": ["content": [:]]]]]]
        for broken in [noInfo, wrongDialect, badResponse] {
            #expect(try !compiled.isValid(.object(broken)))
        }
    }

    @Test("every route of backend-contract.md is in it, with its method")
    func everyRoute() throws {
        guard BackendContractDoc.url != nil else { return sharedDataMissing("backend-contract.md not found in ../shared/docs or PETSPOT_DOCS_DIR") }
        let routes = try BackendContractDoc.routes()
        #expect(routes.count >= 8, "\(routes)")
        let paths = try #require(Self.document["paths"]?.objectValue)
        for route in routes {
            let match = paths.first { Self.sameTemplate($0.key, route.path) }
            #expect(match?.value[route.method.lowercased()] != nil, "\(route.method) \(route.path) is missing")
        }
        for (path, item) in paths where !path.hasPrefix("/images") {
            for method in ["get"] where item[method] != nil {
                #expect(item["head"] != nil, "HEAD is answered by every GET route: \(path)")
            }
            #expect(item["options"] != nil, "every route answers a preflight: \(path)")
        }
    }

    /// Whether two path templates name the same route: equal segments, a template segment
    /// (`{id}`, `{id}.{ext}`) matching any template segment.
    static func sameTemplate(_ left: String, _ right: String) -> Bool {
        let a = left.split(separator: "/"), b = right.split(separator: "/")
        return a.count == b.count && zip(a, b).allSatisfy { $0 == $1 || ($0.contains("{") && $1.contains("{")) }
    }

    @Test("every reference resolves, and every example validates against its schema")
    func examplesValidate() throws {
        let uri = "https://petspot.example/openapi.json"
        var registry = SchemaRegistry()
        registry.register(Self.document, at: uri)
        var checked = 0
        try Self.visitMediaTypes(Self.document) { location, mediaType in
            guard let schema = mediaType["schema"] else { return }
            let compiled: CompiledSchema
            if let reference = schema["$ref"]?.stringValue {
                #expect(Self.resolve(reference) != nil, "\(location): \(reference)")
                compiled = try JSONSchema.compile(["$ref": .string(uri + reference)], registry: registry)
            } else {
                compiled = try JSONSchema.compile(schema, registry: registry)
            }
            for (name, example) in mediaType["examples"]?.objectValue ?? JSONObject() {
                let value = try #require(example["value"], "\(location) example \(name) has a value")
                let errors = compiled.validate(value).errors.map(\.description)
                #expect(errors == [], "\(location) example \(name): \(errors)")
                checked += 1
            }
        }
        #expect(checked > 100, "the catalogs give the error answers their examples")
        for reference in Self.references(in: Self.document) {
            #expect(Self.resolve(reference) != nil, "unresolved \(reference)")
        }
    }

    @Test("the error answers carry every code of the envelope and the catalogs' answers")
    func errorCodes() throws {
        var codes: Set<String> = []
        Self.visitMediaTypes(Self.document) { _, mediaType in
            for (_, example) in mediaType["examples"]?.objectValue ?? JSONObject() {
                if let code = example["value"]?["error"]?["code"]?.stringValue { codes.insert(code) }
            }
        }
        let envelope = try #require(Self.document["components"]?["schemas"]?["error-envelope"])
        let declared = Set((envelope["properties"]?["error"]?["properties"]?["code"]?["enum"]?.arrayValue ?? []).compactMap(\.stringValue))
        #expect(declared.count == 13)
        #expect(codes == declared, "codes without an example: \(declared.subtracting(codes).sorted())")
        #expect(Set(OpenAPIDocument.errorCodes.map(\.code)) == declared, "the info lists every code")
        let create400 = Self.document["paths"]?["/api/v1/announcements"]?["post"]?["responses"]?["400"]?["content"]?["application/json"]?["examples"]
        #expect(create400?["age-zero"]?["value"]?["error"]?["field"] == "age")
        #expect(create400?["age-zero"]?["value"]?["error"]?["requestId"] == "req-example")
    }

    @Test("the component schemas judge as the contract's own: the catalog's bodies and the schemas' examples")
    func componentsAgreeWithContract() throws {
        let documents = try ContractDocuments.load()
        var contractRegistry = SchemaRegistry()
        for (id, document) in documents.registry { contractRegistry.register(document, at: id) }
        var openAPIRegistry = SchemaRegistry()
        openAPIRegistry.register(Self.document, at: "https://petspot.example/openapi.json")
        var bodies: [JSONValue] = []
        let base = documents.negativeCases.basePayload(microchipNumber: "900000000000001")
        for item in documents.negativeCases.cases {
            if let body = try? item.body(from: base), let json = body.json { bodies.append(json) }
        }
        var compared = 0
        for name in ContractSchemaName.allCases {
            let original = try JSONSchema.compile(documents[name], registry: contractRegistry)
            let component = try JSONSchema.compile(
                ["$ref": .string("https://petspot.example/openapi.json#/components/schemas/\(name.rawValue)")], registry: openAPIRegistry)
            for instance in (documents[name]["examples"]?.arrayValue ?? []) + bodies {
                #expect(try original.isValid(instance) == component.isValid(instance), "\(name.rawValue): \(instance.serialized())")
                compared += 1
            }
        }
        #expect(compared > 500)
        #expect(OpenAPIDocument.componentReference("#/$defs/nonBlankText", in: .createRequest) == "#/components/schemas/create-request/$defs/nonBlankText")
        #expect(OpenAPIDocument.componentReference(ContractSchemaName.announcement.id, in: .listResponse) == "#/components/schemas/announcement")
    }

    @Test("petspot-contracts openapi writes the document; its help names its own exit codes")
    func command() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: path) }
        let result = await runTool(["openapi", "--output", path.path])
        #expect(result.status == 0, "\(result.err)")
        let written = try JSONValue.parse(Data(contentsOf: path))
        #expect(written["openapi"] == "3.1.0")
        #expect(written == Self.document)
        let help = await runTool(["openapi", "--help"])
        #expect(help.out.contains("EXIT CODES: 0 written, 64 usage error, 2 configuration error"))
        let bad = await runTool(["openapi", "--output", "/nonexistent-directory/x.json"])
        #expect(bad.status == RunnerExitCode.configuration.rawValue)
    }

    // MARK: Walking the document

    /// Calls `body` with every media type object under `paths`, and where it is.
    static func visitMediaTypes(_ document: JSONValue, _ body: (String, JSONValue) throws -> Void) rethrows {
        for (path, item) in document["paths"]?.objectValue ?? JSONObject() {
            for (method, operation) in item.objectValue ?? JSONObject() where method != "parameters" {
                for (type, mediaType) in operation["requestBody"]?["content"]?.objectValue ?? JSONObject() {
                    try body("\(method.uppercased()) \(path) request \(type)", mediaType)
                }
                for (status, response) in operation["responses"]?.objectValue ?? JSONObject() {
                    for (type, mediaType) in response["content"]?.objectValue ?? JSONObject() {
                        try body("\(method.uppercased()) \(path) \(status) \(type)", mediaType)
                    }
                }
            }
        }
    }

    /// Every `$ref` string in `value` (skipping examples, which are data).
    static func references(in value: JSONValue) -> [String] {
        switch value {
        case .object(let object):
            return object.flatMap { key, member -> [String] in
                if key == "$ref", let text = member.stringValue { return [text] }
                if key == "examples" || key == "example" || key == "value" { return [] }
                return references(in: member)
            }
        case .array(let elements):
            return elements.flatMap(references)
        default:
            return []
        }
    }

    /// The value a local reference (`#/a/b`) points at in the document.
    static func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var current: JSONValue? = document
        for token in reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if case .array(let elements)? = current, let index = Int(key), elements.indices.contains(index) {
                current = elements[index]
            } else {
                current = current?[key]
            }
        }
        return current
    }
}

/// Shared data a test needs (beside the clone in `../shared`, or where its variable points) was
/// not found: a warning locally ("passed ... with N warnings" closes the run), a failure in CI
/// (`CI=true`, as `.ci/run` and CI services set it), so no run passes silently without it.
func sharedDataMissing(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let inCI = ProcessInfo.processInfo.environment["CI"] == "true"
    Issue.record(
        Comment(rawValue: "shared data missing: \(what); " + (inCI ? "CI=true requires it" : "this test checked nothing")),
        severity: inCI ? .error : .warning, sourceLocation: sourceLocation)
}
