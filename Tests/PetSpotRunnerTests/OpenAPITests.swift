import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
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
        var linkWithoutOperation = document
        linkWithoutOperation["paths"] = [
            "/api/health": ["get": ["responses": ["200": ["description": "Up.", "links": ["Again": ["parameters": ["id": "$response.body#/id"]]]]]]],
        ]
        for broken in [noInfo, wrongDialect, badResponse, linkWithoutOperation] {
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

    @Test("the paths are the route table's rows, with the links they name")
    func pathsFromTheRouteTable() throws {
        let paths = try #require(Self.document["paths"]?.objectValue)
        #expect(Set(paths.keys) == Set(BackendRoute.table.map(\.pattern.template)))
        var rowLinks = 0
        for route in BackendRoute.table {
            let operation = try #require(paths[route.pattern.template]?[route.method.lowercased()], "\(route)")
            #expect(operation["operationId"] == .string(route.operation.id), "\(route)")
            let links = operation["responses"]?[String(route.success.status)]?["links"]?.objectValue ?? JSONObject()
            #expect(links.keys == route.links.map(\.name), "\(route)")
            rowLinks += route.links.count
        }
        // create -> upload, details, both deletes; upload -> details; each delete -> details, upload.
        #expect(rowLinks >= 9)
    }

    @Test("every link names an operation of the document and parameters it has, valued from what its source gives")
    func linksResolve() throws {
        let operations = Self.operations()
        var checked = 0
        for (sourceId, source) in operations {
            for (status, response) in source.operation["responses"]?.objectValue ?? JSONObject() {
                for (name, link) in response["links"]?.objectValue ?? JSONObject() {
                    let at = "\(sourceId) \(status) link \(name)"
                    let targetId = try #require(link["operationId"]?.stringValue, "\(at) has an operationId")
                    guard let target = operations[targetId] else {
                        Issue.record("\(at): no operation \(targetId)")
                        continue
                    }
                    for (parameter, expression) in link["parameters"]?.objectValue ?? JSONObject() {
                        #expect(target.parameters.contains { $0.name == parameter }, "\(at): \(targetId) has no parameter \(parameter)")
                        let text = try #require(expression.stringValue, "\(at): \(parameter) is a runtime expression")
                        if text.hasPrefix("$response.body#/") {
                            let member = String(text.dropFirst("$response.body#/".count))
                            let schema = try #require(response["content"]?["application/json"]?["schema"], "\(at): the answer has a JSON body")
                            let properties = (schema["$ref"]?.stringValue).flatMap(Self.resolve)?["properties"] ?? schema["properties"]
                            #expect(properties?[member] != nil, "\(at): the answer's body has no \(member)")
                        } else if text.hasPrefix("$request.path.") {
                            let name = String(text.dropFirst("$request.path.".count))
                            #expect(source.parameters.contains { $0.name == name && $0.location == "path" }, "\(at): \(sourceId) has no path parameter \(name)")
                        } else {
                            Issue.record("\(at): \(text) is not an expression this document uses")
                        }
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == BackendRoute.table.reduce(0) { $0 + $1.links.reduce(0) { $0 + $1.parameters.count } })
        #expect(checked >= 9)
    }

    /// Every operation of the document by operationId, with the parameters it has (its path's and
    /// its own, references resolved).
    static func operations() -> [String: (operation: JSONValue, parameters: [(name: String, location: String)])] {
        var result: [String: (operation: JSONValue, parameters: [(name: String, location: String)])] = [:]
        for (_, item) in document["paths"]?.objectValue ?? JSONObject() {
            let shared = item["parameters"]?.arrayValue ?? []
            for (method, operation) in item.objectValue ?? JSONObject() where method != "parameters" {
                guard let id = operation["operationId"]?.stringValue else { continue }
                let parameters = (shared + (operation["parameters"]?.arrayValue ?? [])).compactMap { parameter -> (name: String, location: String)? in
                    let resolved = (parameter["$ref"]?.stringValue).flatMap(resolve) ?? parameter
                    guard let name = resolved["name"]?.stringValue, let location = resolved["in"]?.stringValue else { return nil }
                    return (name, location)
                }
                result[id] = (operation, parameters)
            }
        }
        return result
    }

    @Test("the create's error order is the mock validator's: the prose names the checks in the list's order")
    func errorOrderFromTheValidator() throws {
        let order = CreateRequestCheck.reportingOrder
        let sentence = OpenAPIDocument.errorOrderSentence(order)
        let description = try #require(Self.document["paths"]?["/api/v1/announcements"]?["post"]?["description"]?.stringValue)
        #expect(description.contains(sentence))
        #expect(Self.positions(of: order, in: sentence) == Self.positions(of: order, in: sentence).sorted())
        #expect(sentence.contains("the fields in the order petName, species, breed"))

        var moved = order
        moved.swapAt(0, 1)
        moved.append(moved.remove(at: moved.firstIndex(of: .unknownKey) ?? 0))
        let movedSentence = OpenAPIDocument.errorOrderSentence(moved)
        #expect(movedSentence != sentence)
        #expect(Self.positions(of: moved, in: movedSentence) == Self.positions(of: moved, in: movedSentence).sorted(), "\(movedSentence)")
        #expect(movedSentence.hasSuffix("then the contact rule; then the first unknown key."), "\(movedSentence)")
        #expect(OpenAPIDocument.errorOrderSentence([.contact, .field("age"), .unknownKey])
            == "When several problems exist the first is reported: the contact rule; then the field age; then the first unknown key.")
    }

    /// Where each check is named in `sentence`.
    static func positions(of order: [CreateRequestCheck], in sentence: String) -> [Int] {
        order.map { check in
            let pattern = switch check {
            case .field(let name): "\\b\(name)\\b"
            case .unknownKey: "the first unknown key"
            case .contact: "the contact rule"
            }
            let range = sentence.range(of: pattern, options: .regularExpression)
            return range.map { sentence.distance(from: sentence.startIndex, to: $0.lowerBound) } ?? -1
        }
    }

    @Test("the validator's order is backend-contract.md's")
    func errorOrderIsTheDocs() throws {
        guard let url = BackendContractDoc.url else { return sharedDataMissing("backend-contract.md not found in ../shared/docs or PETSPOT_DOCS_DIR") }
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        let sentence = try #require(text.firstMatch(of: /the fields in the order ([A-Za-z, ]+); then an unknown key \([^)]*\); then the contact rule/))
        let fields = sentence.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(fields.count == 14)
        #expect(CreateRequestCheck.reportingOrder == fields.map { .field($0) } + [.unknownKey, .contact])
    }

    @Test("each row documents the error statuses its examples answer")
    func errorStatusesHaveExamples() throws {
        let examples = OpenAPIExamples(documents: try ContractDocuments.load())
        for route in BackendRoute.table {
            #expect(examples.statuses(route.handler) == route.errorStatuses, "\(route)")
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
