/// One operation the backend serves: a row of the route table (``table``).
///
/// A row is the one declaration of a route, and every reader reads it: the mock's router
/// matches requests against the rows and dispatches on ``handler``; the OpenAPI document writes
/// its `paths` (operations, parameters, request bodies, answers, links) from them; and a test
/// requires of every row a contract group that checks its ``surface``, planted defects of that
/// surface, and a mock that answers a valid request with ``success``. Adding an endpoint is one
/// row, its contract group and its planted defects.
///
/// ```swift
/// let create = BackendRoute.table.first { $0.handler == .create }
/// create?.method            // "POST"
/// create?.pattern.template  // "/api/v1/announcements"
/// ```
///
/// `HEAD` is answered by the `GET` row of a path and `OPTIONS` (the CORS preflight) by every
/// path: neither has rows of its own.
package struct BackendRoute: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP method, upper case (`GET`, `POST`, `DELETE`).
    package let method: String
    /// The path, with its parameters.
    package let pattern: RoutePattern
    /// The part of the contract the route serves.
    package let surface: ContractSurface
    /// What the mock does with a request to it.
    package let handler: RouteHandler
    /// The credentials the route asks for.
    package let authorization: RouteAuthorization
    /// The request body it reads.
    package let request: RouteRequestBody
    /// The query parameters it reads, in the order they are documented.
    package let queryParameters: [RouteParameter]
    /// The answer to a valid request.
    package let success: RouteAnswer
    /// The error statuses the route documents (each with the error envelope), ascending.
    package let errorStatuses: [Int]
    /// The operation as OpenAPI documents it.
    package let operation: RouteOperation
    /// The operations a client can go on to with what the success answer gives it (OpenAPI
    /// `links`, which Schemathesis's stateful phase follows).
    package let links: [RouteLink]

    /// A row.
    package init(
        _ method: String, _ pattern: RoutePattern, surface: ContractSurface, handler: RouteHandler,
        authorization: RouteAuthorization = .none, request: RouteRequestBody = .none, queryParameters: [RouteParameter] = [],
        success: RouteAnswer, errorStatuses: [Int], operation: RouteOperation, links: [RouteLink] = []
    ) {
        self.method = method
        self.pattern = pattern
        self.surface = surface
        self.handler = handler
        self.authorization = authorization
        self.request = request
        self.queryParameters = queryParameters
        self.success = success
        self.errorStatuses = errorStatuses
        self.operation = operation
        self.links = links
    }

    /// `METHOD /path/{parameter}`, as backend-contract.md names routes.
    package var description: String { "\(method) \(pattern.template)" }
}

/// What the mock does with a request a row matched: the mock dispatches on it.
package enum RouteHandler: String, Sendable, Hashable, CaseIterable {
    /// `GET /api/health`: status ok and the time.
    case health
    /// Validates and stores an announcement.
    case create
    /// The announcements with a photo, filtered by location.
    case list
    /// One announcement, by `{id}`.
    case details
    /// Stores the announcement's photo (Basic credentials with its management password).
    case uploadPhoto
    /// Removes an announcement and its photo (the admin token).
    case delete
    /// The stored photo file, by `{fileName}`.
    case image
}

/// The credentials a route asks for.
package enum RouteAuthorization: String, Sendable, Hashable, CaseIterable {
    /// None.
    case none
    /// `Authorization: Basic base64(user:password)`, the password being the announcement's
    /// management password.
    case managementPassword
    /// `Authorization: <admin token>`, the raw token without a scheme.
    case adminToken

    /// What the credentials are, in a sentence.
    package var summary: String {
        switch self {
        case .none: "No credentials."
        case .managementPassword:
            "User: any non-empty text (the iOS app sends the announcement id). Password: the managementPassword the create answered."
        case .adminToken: "The raw admin token, without a scheme."
        }
    }
}

/// The request body a route reads.
package enum RouteRequestBody: Sendable, Hashable {
    /// No body.
    case none
    /// A JSON body that the contract schema describes; `summary` says what it is.
    case json(ContractSchemaName, summary: String)
    /// `multipart/form-data` with one file part named `photo` holding an image.
    case photo
}

/// The answer to a valid request: its status, what it means and its body.
package struct RouteAnswer: Sendable, Hashable {
    /// The body of the answer.
    package enum Body: Sendable, Hashable {
        /// None (204).
        case none
        /// JSON that the contract schema describes.
        case json(ContractSchemaName)
        /// The empty JSON object `{}`.
        case emptyObject
        /// The stored image's bytes, with the image type of its extension.
        case image
    }

    /// The HTTP status.
    package let status: Int
    /// What the answer means, in a sentence.
    package let summary: String
    /// Its body.
    package let body: Body

    /// An answer.
    package init(_ status: Int, _ summary: String, body: Body) {
        self.status = status
        self.summary = summary
        self.body = body
    }
}
