import PetSpotJSON

/// A route's path: fixed segments and parameters, as in `/api/v1/announcements/{id}/photos`.
///
/// Rows of the route table that share a path share its pattern; its ``name`` names the
/// operations every path has without a row of its own (`head` + name for the `HEAD` twin of
/// the `GET` row, `preflight` + name for the CORS preflight).
package struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    /// A segment between two `/`.
    package enum Segment: Sendable, Hashable, ExpressibleByStringLiteral {
        /// Text that must be there (production, like Express, ignores its ASCII case).
        case fixed(String)
        /// A non-empty segment, percent-decoded, bound to the parameter.
        case parameter(RouteParameter)

        /// A fixed segment.
        package init(stringLiteral value: String) { self = .fixed(value) }
    }

    /// The path's name in operation ids (`Announcements`, `Photos`).
    package let name: String
    /// The segments after the leading `/`.
    package let segments: [Segment]

    /// A pattern of `segments`, named `name`.
    package init(_ name: String, _ segments: [Segment]) {
        self.name = name
        self.segments = segments
    }

    /// The OpenAPI path template: `/api/v1/announcements/{id}`.
    package var template: String {
        "/" + segments.map { segment in
            switch segment {
            case .fixed(let text): text
            case .parameter(let parameter): "{\(parameter.name)}"
            }
        }.joined(separator: "/")
    }

    /// The path parameters, in path order.
    package var parameters: [RouteParameter] {
        segments.compactMap { segment in
            if case .parameter(let parameter) = segment { return parameter }
            return nil
        }
    }

    package var description: String { template }
}

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

/// An operation a client can go on to with what a success answer gives it: an OpenAPI link.
///
/// ```swift
/// RouteLink("GetAnnouncement", operationId: "getAnnouncement", ["id": .responseBody("/id")],
///           summary: "Read the announcement just created.")
/// ```
package struct RouteLink: Sendable, Hashable {
    /// A value of the answer or of its request, as an OpenAPI runtime expression.
    package enum Expression: Sendable, Hashable, CustomStringConvertible {
        /// A member of the answer's JSON body, by JSON Pointer (`/id`): `$response.body#/id`.
        case responseBody(String)
        /// A path parameter of the request answered: `$request.path.id`.
        case requestPath(String)

        /// The runtime expression.
        package var description: String {
            switch self {
            case .responseBody(let pointer): "$response.body#\(pointer)"
            case .requestPath(let name): "$request.path.\(name)"
            }
        }
    }

    /// A parameter of the linked operation and where its value comes from.
    package struct Binding: Sendable, Hashable {
        /// The linked operation's parameter.
        package let name: String
        /// Where its value comes from.
        package let value: Expression
    }

    /// The link's name in the answer's `links`.
    package let name: String
    /// The operation linked to.
    package let operationId: String
    /// The linked operation's parameters, in the order written.
    package let parameters: [Binding]
    /// What the link is for, in a sentence.
    package let summary: String

    /// A link.
    package init(_ name: String, operationId: String, _ parameters: KeyValuePairs<String, Expression>, summary: String) {
        self.name = name
        self.operationId = operationId
        self.parameters = parameters.map { Binding(name: $0.key, value: $0.value) }
        self.summary = summary
    }
}
