import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// The photo upload the app sends to `announcement`: multipart/form-data with one file part, Basic
/// auth `id:password` (none when `password` is `nil`).
package func photoUploadRequest(
    _ announcement: AnnouncementPath, password: String?, partName: String = "photo", fileName: String, contentType: String, bytes: Data
) -> TransportRequest {
    let boundary = "PetSpotContractsPhoto7c1e"
    var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(partName)\"; filename=\"\(fileName)\"\r\n".utf8)
    body.append(Data("Content-Type: \(contentType)\r\n\r\n".utf8))
    body.append(bytes)
    body.append(Data("\r\n--\(boundary)--\r\n".utf8))
    var headers: [(name: String, value: String)] = [("Content-Type", "multipart/form-data; boundary=\(boundary)"), ("Accept", "application/json")]
    if let password { headers.append(("Authorization", basicAuthorization("\(announcement.id):\(password)"))) }
    return TransportRequest(method: "POST", path: announcement.photos, headers: headers, body: body)
}

/// The `Authorization` value `Basic base64(credentials)` (`credentials` is `user:password`).
package func basicAuthorization(_ credentials: String) -> String {
    "Basic " + Data(credentials.utf8).base64EncodedString()
}
