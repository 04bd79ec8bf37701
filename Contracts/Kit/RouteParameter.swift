import PetSpotJSON

/// A parameter of a route: in its path or its query.
package struct RouteParameter: Sendable, Hashable {
    /// Where the parameter is read.
    package enum Location: Sendable, Hashable {
        /// A path segment; `malformedEscape` says what text that is not valid percent-encoding does.
        case path(malformedEscape: MalformedEscape)
        /// A query parameter (optional).
        case query
    }

    /// What a path segment that is not valid percent-encoding (`%E0%A4%A`) does.
    package enum MalformedEscape: Sendable, Hashable {
        /// The request fails, whatever its method: 500 (Express decodes a route's `:param`
        /// while matching the path).
        case failsRequest
        /// The route does not match: 404 (the static file server finds no such file).
        case missesRoute
    }

    /// The name in the path template or the query.
    package let name: String
    /// Where it is read.
    package let location: Location
    /// Its name among the OpenAPI document's `components/parameters`.
    package let component: String
    /// What it is, in a sentence.
    package let summary: String
    /// Its JSON Schema.
    package let schema: JSONValue

    /// A parameter.
    package init(_ name: String, _ location: Location, component: String, summary: String, schema: JSONValue) {
        self.name = name
        self.location = location
        self.component = component
        self.summary = summary
        self.schema = schema
    }

    /// Whether a request must carry it (every path parameter).
    package var isRequired: Bool {
        if case .path = location { return true }
        return false
    }
}
