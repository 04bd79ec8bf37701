import Foundation
import PetSpotContractKit
import PetSpotModel
import PetSpotReport

extension PhotoUploadCase {
    /// The multipart upload this case describes, to `announcement` with `credentials` as its
    /// authorization allows.
    package func request(to announcement: AnnouncementPath, credentials: PhotoCredentials) -> TransportRequest {
        let boundary = "PetSpotContractsBoundary5f2a"
        var body = Data()
        for part in otherParts {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"\r\n\r\n\(part.value)\r\n".utf8))
        }
        if let file {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.partName)\"; filename=\"\(file.fileName)\"\r\n".utf8))
            body.append(Data("Content-Type: \(file.contentType)\r\n\r\n".utf8))
            body.append(Data(file.content.bytes()))
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        var headers: [(name: String, value: String)] = [("Content-Type", "multipart/form-data; boundary=\(boundary)")]
        if let authorization = authorization.headerValue(with: credentials) { headers.append(("Authorization", authorization)) }
        return TransportRequest(method: "POST", path: announcement.photos, headers: headers, body: body)
    }
}

extension PhotoUploadCase.Authorization {
    /// Whether these credentials are made up to be refused, holding no `{password}` (a wrong
    /// one, none, or a malformed header): decoys, not secrets.
    package var isDecoy: Bool {
        switch self {
        case .none: false
        case .basic(let user, let password): !(user + password).contains("{password}")
        case .basicCredentials(let text), .header(let text): !text.contains("{password}")
        }
    }
}
