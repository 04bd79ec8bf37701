/// The operation as OpenAPI documents it.
package struct RouteOperation: Sendable, Hashable {
    /// The unique `operationId` (links name operations by it).
    package let id: String
    /// The tag that groups it.
    package let tag: RouteTag
    /// One line.
    package let summary: String
    /// What a client needs to know beyond the schemas.
    package let description: String

    /// An operation.
    package init(_ id: String, tag: RouteTag, summary: String, description: String) {
        self.id = id
        self.tag = tag
        self.summary = summary
        self.description = description
    }
}

/// The groups operations are documented in.
package enum RouteTag: String, Sendable, Hashable, CaseIterable {
    /// Create, list, read and delete announcements.
    case announcements
    /// The announcement's photo.
    case photos
    /// Removal with the admin token.
    case admin
    /// Liveness.
    case health

    /// What the tag's operations do, in a sentence.
    package var summary: String {
        switch self {
        case .announcements: "Create, list, read and delete announcements."
        case .photos: "The announcement's photo: upload (Basic auth) and the stored file."
        case .admin: "Removal with the admin token."
        case .health: "Liveness."
        }
    }
}
