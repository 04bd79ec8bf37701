extension BackendRoute {
    /// Every route of backend-contract.md, one row per method and path, in the order the
    /// OpenAPI document lists them and the mock's router tries them.
    ///
    /// `RouteTableTests` requires of every row a registered contract group whose `surfaces`
    /// include its surface, at least 3 planted defects of that surface, and a mock that answers a
    /// valid request to it with its success status; it names the row and what is missing.
    package static let table: [BackendRoute] = [
        BackendRoute(
            "GET", .announcements, surface: .list, handler: .list,
            queryParameters: [.latitude, .longitude, .range],
            success: RouteAnswer(200, "The announcements.", body: .json(.listResponse)),
            errorStatuses: [400],
            operation: RouteOperation(
                "listAnnouncements", tag: .announcements, summary: "List announcements that have a photo",
                description: """
                    Only announcements with a photo. `lat` and `lng` (both or neither) and `range` (km, default 5) keep those \
                    closer than `range` by great-circle distance (Earth radius 6371 km). Numbers are read like JavaScript \
                    `parseFloat` (`lat=50.06abc` is 50.06; an empty `lat=` counts as absent).
                    """)),
        BackendRoute(
            "POST", .announcements, surface: .create, handler: .create,
            request: .json(.createRequest, summary: "The announcement. `client-payload` (a component) is the stricter rule the apps keep."),
            success: RouteAnswer(201, "Created: the stored announcement with its managementPassword (returned only here).", body: .json(.createResponse)),
            errorStatuses: [400, 409, 413, 500],
            // The order in which problems are reported is the mock's validator's, written by the OpenAPI writer.
            operation: RouteOperation(
                "createAnnouncement", tag: .announcements, summary: "Create an announcement",
                description: """
                    JSON body of at most 100 KB. The object is strict: a key outside the schema is 400 `INVALID_FIELD`. Strings are \
                    validated trimmed (JavaScript `trim()`) but stored and echoed as sent; an empty optional text comes back as \
                    `null`. A used microchipNumber is 409 (checked after validation). lastSeenDate must not be after the server's \
                    current instant, read as UTC midnight.
                    """),
            links: [
                RouteLink(
                    "UploadPhoto", operationId: "uploadPhoto", ["id": .responseBody("/id")],
                    summary: "Upload the photo of the announcement created (Basic credentials: any user and this answer's managementPassword)."),
                RouteLink("GetAnnouncement", operationId: "getAnnouncement", ["id": .responseBody("/id")], summary: "Read the announcement created."),
                RouteLink(
                    "DeleteAnnouncementAsAdmin", operationId: "deleteAnnouncementAsAdmin", ["id": .responseBody("/id")],
                    summary: "Delete the announcement created (admin token)."),
                RouteLink(
                    "DeleteAnnouncement", operationId: "deleteAnnouncement", ["id": .responseBody("/id")],
                    summary: "Delete the announcement created, on the /api/v1 route (admin token)."),
            ]),
        BackendRoute(
            "GET", .announcement, surface: .details, handler: .details,
            success: RouteAnswer(200, "The announcement.", body: .json(.announcement)),
            errorStatuses: [404, 500],
            operation: RouteOperation(
                "getAnnouncement", tag: .announcements, summary: "Read an announcement",
                description: "Never carries the managementPassword. An unknown or malformed id is 404.")),
        BackendRoute(
            "DELETE", .announcement, surface: .adminDelete, handler: .delete, authorization: .adminToken,
            success: deleted, errorStatuses: [401, 404],
            operation: RouteOperation(
                "deleteAnnouncement", tag: .admin, summary: "Delete an announcement and its photo (the same route under /api/v1)",
                description: deleteDescription),
            links: afterDelete),
        BackendRoute(
            "POST", .photos, surface: .photo, handler: .uploadPhoto, authorization: .managementPassword, request: .photo,
            success: RouteAnswer(201, "Stored.", body: .emptyObject),
            errorStatuses: [400, 401, 403, 404, 413, 500],
            operation: RouteOperation(
                "uploadPhoto", tag: .photos, summary: "Upload the announcement's photo",
                description: """
                    `multipart/form-data` with one file part named `photo`; `Authorization: Basic base64(user:password)` where \
                    the password is the announcement's managementPassword and the user is any non-empty text (the iOS app \
                    sends the id). Checked in this order: credentials (401), the announcement (404), the password (403), the \
                    file part (400 MISSING_FILE; another part name or two photo parts: 500 in production), the size (20 MB or \
                    more: 413), the content by its magic bytes (JPEG, PNG, GIF, WebP, BMP, TIFF, HEIC, HEIF; an animated PNG is \
                    refused: 400 INVALID_FILE_FORMAT). A second upload replaces the first; photoUrl becomes /images/{id}.{ext}.
                    """),
            links: [
                RouteLink(
                    "GetAnnouncement", operationId: "getAnnouncement", ["id": .requestPath("id")],
                    summary: "Read the announcement: its photoUrl names the photo stored."),
            ]),
        BackendRoute(
            "DELETE", .adminAnnouncement, surface: .adminDelete, handler: .delete, authorization: .adminToken,
            success: deleted, errorStatuses: [401, 404],
            operation: RouteOperation(
                "deleteAnnouncementAsAdmin", tag: .admin, summary: "Delete an announcement and its photo", description: deleteDescription),
            links: afterDelete),
        BackendRoute(
            "GET", .image, surface: .photo, handler: .image,
            success: RouteAnswer(200, "The stored bytes, with the Content-Type of the extension.", body: .image),
            errorStatuses: [404],
            operation: RouteOperation(
                "getImage", tag: .photos, summary: "The stored photo file",
                description: "Served until the announcement is deleted; after a replacement with another type the old name is 404. Names are case-sensitive.")),
        // Health has no rule of its own beyond answering: what breaks it is routing's (HEAD, CORS).
        BackendRoute(
            "GET", .health, surface: .routing, handler: .health,
            success: RouteAnswer(200, "Up.", body: .json(.health)),
            errorStatuses: [],
            operation: RouteOperation("getHealth", tag: .health, summary: "Liveness", description: "Extra members are tolerated.")),
    ]

    /// The answer of both delete routes.
    private static let deleted = RouteAnswer(204, "Deleted: the announcement and its photo are gone.", body: .none)

    private static let deleteDescription =
        "`Authorization: <admin token>`, the raw token without a scheme. A contract run against a shared staging backend uses this to remove what it created."

    /// Where a client can go after a delete: what was deleted answers 404.
    private static let afterDelete = [
        RouteLink("GetAnnouncement", operationId: "getAnnouncement", ["id": .requestPath("id")], summary: "Read the deleted announcement: 404."),
        RouteLink("UploadPhoto", operationId: "uploadPhoto", ["id": .requestPath("id")], summary: "Upload to the deleted announcement: 404."),
    ]
}

extension RoutePattern {
    /// `/api/v1/announcements`.
    package static let announcements = RoutePattern("Announcements", ["api", "v1", "announcements"])
    /// `/api/v1/announcements/{id}`.
    package static let announcement = RoutePattern("Announcement", ["api", "v1", "announcements", .parameter(.announcementId)])
    /// `/api/v1/announcements/{id}/photos`.
    package static let photos = RoutePattern("Photos", ["api", "v1", "announcements", .parameter(.announcementId), "photos"])
    /// `/api/admin/v1/announcements/{id}`.
    package static let adminAnnouncement = RoutePattern("AdminAnnouncement", ["api", "admin", "v1", "announcements", .parameter(.announcementId)])
    /// `/images/{fileName}`, served by the static file server.
    package static let image = RoutePattern("Image", ["images", .parameter(.imageFileName)])
    /// `/api/health`.
    package static let health = RoutePattern("Health", ["api", "health"])
}

extension RouteParameter {
    /// `{id}`: an announcement's id.
    package static let announcementId = RouteParameter(
        "id", .path(malformedEscape: .failsRequest), component: "announcementId",
        summary: "The announcement's id (a lower-case UUID v4 when it exists; anything else is 404, and text that is not valid percent-encoding is 500).",
        schema: ["type": "string"])
    /// `{fileName}`: a stored photo's file name.
    package static let imageFileName = RouteParameter(
        "fileName", .path(malformedEscape: .missesRoute), component: "imageFileName",
        summary: "`{id}.{ext}` as in the announcement's photoUrl; ext is the detected type.",
        schema: ["type": "string", "pattern": "^[^/]+\\.(jpeg|png|gif|webp|bmp|tiff|heic|heif)$"])
    /// `lat`: the latitude of the list's centre.
    package static let latitude = RouteParameter(
        "lat", .query, component: "lat", summary: "Latitude of the centre; required with lng.",
        schema: ["type": "number", "minimum": -90, "maximum": 90])
    /// `lng`: the longitude of the list's centre.
    package static let longitude = RouteParameter(
        "lng", .query, component: "lng", summary: "Longitude of the centre; required with lat.",
        schema: ["type": "number", "minimum": -180, "maximum": 180])
    /// `range`: the list's radius in km.
    package static let range = RouteParameter(
        "range", .query, component: "range", summary: "Radius in km (greater than zero).",
        schema: ["type": "integer", "minimum": 1, "default": 5])
}
