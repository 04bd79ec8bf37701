/// A part of the backend contract: what a route of ``BackendRoute/table`` serves, what a
/// contract group checks and what a planted backend defect breaks.
///
/// The route table, the contract groups (`surfaces`) and the mock's planted defects
/// (`MockDefect.surface`, of which `MockDefect.Surface` is this type) name the same surfaces, so
/// a test can require that every route has a group that checks its surface and planted defects
/// that break it.
public enum ContractSurface: String, Sendable, CaseIterable {
    /// `GET /api/v1/announcements` and its location filter.
    case list
    /// `GET /api/v1/announcements/{id}`.
    case details
    /// The photo upload and `GET /images/{id}.{ext}`.
    case photo
    /// `DELETE /api/admin/v1/announcements/{id}` (and `/api/v1/...`).
    case adminDelete = "admin delete"
    /// What create, details and list echo of the stored values.
    case echo
    /// Routing and the HTTP behaviour every route shares.
    case routing
    /// The create rules and their order.
    case create
    /// The error envelope's messages.
    case messages
    /// What holds across requests: a sequence of requests shows it, no single one does.
    case sequences = "sequence"
    /// Requests sent at once by several clients.
    case concurrency
}
