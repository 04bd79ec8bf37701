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
