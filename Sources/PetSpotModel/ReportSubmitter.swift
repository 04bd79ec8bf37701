import Foundation
import PetSpotJSON

/// What the user is told when a submission fails, per report-flows.md.
public enum SubmissionFailure: Error, Sendable, Hashable {
    /// No connection or a timeout.
    case noConnection
    /// The backend answered 4xx or 5xx (or an answer that cannot be understood), at `request`.
    case backendError(request: SubmissionRequestKind, status: Int, envelope: ErrorEnvelope?)
    /// The photo's bytes are not available (an attachment known only by its metadata).
    case photoUnavailable

    /// The alert's message.
    public var userMessage: String {
        switch self {
        case .noConnection: "No connection. Please check your network and try again."
        case .backendError, .photoUnavailable: "Something went wrong. Please try again later."
        }
    }
}

/// Which of the two submission requests an event concerns.
public enum SubmissionRequestKind: String, Sendable, Hashable {
    /// The create request.
    case create
    /// The photo upload.
    case photoUpload
}

/// A successful submission: the created announcement's id and its management password.
public struct SubmissionReceipt: Sendable, Hashable {
    /// The created announcement's id.
    public var announcementId: String
    /// Its management password, shown on the Missing flow's summary.
    public var managementPassword: String
    /// The create response as decoded.
    public var created: Announcement

    /// A receipt.
    public init(announcementId: String, managementPassword: String, created: Announcement) {
        self.announcementId = announcementId
        self.managementPassword = managementPassword
        self.created = created
    }
}

/// Submits a report: create the announcement, then upload its photo with Basic auth.
///
/// Both requests must succeed. Try Again is simply another call to ``submit(_:photo:)``: it
/// repeats both requests from the start, as report-flows.md asks.
public struct ReportSubmitter: Sendable {
    /// Where the requests go.
    public let transport: any AnnouncementTransport

    /// A submitter sending through `transport`.
    public init(transport: any AnnouncementTransport) {
        self.transport = transport
    }

    /// Sends `payload`, then `photo`; the receipt on success, the user-facing failure otherwise.
    public func submit(_ payload: CreateAnnouncementRequest, photo: PhotoAttachment) async -> Result<SubmissionReceipt, SubmissionFailure> {
        guard let photoBytes = photo.contents else { return .failure(.photoUnavailable) }
        let createResponse: TransportResponse
        do {
            createResponse = try await transport.send(Self.createRequest(payload))
        } catch {
            return .failure(.noConnection)
        }
        guard createResponse.status == 201 else {
            return .failure(.backendError(request: .create, status: createResponse.status, envelope: Self.envelope(createResponse.body)))
        }
        let created: CreateAnnouncementResponse
        do {
            created = try CreateAnnouncementResponse(json: try JSONValue.parse(createResponse.body))
        } catch {
            return .failure(.backendError(request: .create, status: createResponse.status, envelope: nil))
        }
        let upload = Self.photoUploadRequest(
            announcementId: created.announcement.id, managementPassword: created.managementPassword,
            photo: photo, contents: photoBytes)
        let uploadResponse: TransportResponse
        do {
            uploadResponse = try await transport.send(upload)
        } catch {
            return .failure(.noConnection)
        }
        guard uploadResponse.status == 201 else {
            return .failure(.backendError(request: .photoUpload, status: uploadResponse.status, envelope: Self.envelope(uploadResponse.body)))
        }
        return .success(SubmissionReceipt(
            announcementId: created.announcement.id, managementPassword: created.managementPassword,
            created: created.announcement))
    }

    /// The create request: `POST /api/v1/announcements` with the JSON payload.
    public static func createRequest(_ payload: CreateAnnouncementRequest) -> TransportRequest {
        TransportRequest(
            method: "POST", path: "/api/v1/announcements",
            headers: [("Content-Type", "application/json"), ("Accept", "application/json")],
            body: payload.json.serializedData())
    }

    /// The photo upload: multipart/form-data with one `photo` part, Basic auth `id:password`.
    public static func photoUploadRequest(
        announcementId: String, managementPassword: String, photo: PhotoAttachment, contents: Data,
        boundary: String = "PetSpotBoundary7MA4YWxkTrZu0gW"
    ) -> TransportRequest {
        var body = Data()
        let safeName = photo.fileName.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "")
            .replacingOccurrences(of: "\n", with: "")
        body.append(Data("--\(boundary)\r\n".utf8))
        body.append(Data("Content-Disposition: form-data; name=\"photo\"; filename=\"\(safeName)\"\r\n".utf8))
        body.append(Data("Content-Type: \(photo.mimeType)\r\n\r\n".utf8))
        body.append(contents)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return TransportRequest(
            method: "POST", path: "/api/v1/announcements/\(pathSegment(announcementId))/photos",
            headers: [
                ("Content-Type", "multipart/form-data; boundary=\(boundary)"),
                ("Authorization", basicAuthorization(user: announcementId, password: managementPassword)),
            ],
            body: body)
    }

    /// `text` as one path segment: every byte outside RFC 3986's unreserved set percent-encoded,
    /// so an id the backend handed out cannot change the route (`a/b` is `a%2Fb`).
    static func pathSegment(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            let unreserved = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
            bytes += unreserved ? [byte] : [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `Basic base64(user:password)`.
    public static func basicAuthorization(user: String, password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    private static func envelope(_ body: Data) -> ErrorEnvelope? {
        guard let json = try? JSONValue.parse(body) else { return nil }
        return try? ErrorEnvelope(json: json)
    }
}
