import Foundation
import PetSpotContractGroups
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel

/// The photo of an announcement and `/images`: `photoUrl` takes the extension of the type
/// detected from the bytes (not the declared one), `GET` on it serves the same bytes with the
/// extension's Content-Type, another extension is 404, a second upload replaces the first, and
/// deleting the announcement removes the photo.
package struct PhotoContracts: BackendContractGroup {
    package let name = "photo and /images"
    package let surfaces: Set<MockDefect.Surface> = [.photo]

    /// The group.
    package init() {}

    // Contract names, as the report shows them.
    package static let detectedExtension = "photoUrl takes the detected type's extension (a PNG declared image/jpeg gives .png)"
    package static let serves = "GET photoUrl serves the uploaded bytes with the extension's Content-Type"
    package static let otherExtension = "/images/{id} under another extension answers the 404 envelope"
    package static let replaces = "a second upload replaces the first (same type: new bytes; another type: new photoUrl)"
    package static let deleteRemoves = "deleting the announcement removes its photo (/images answers 404)"
    package static let animated = "an animated PNG (acTL before IDAT) is refused with 400 INVALID_FILE_FORMAT"
    static let contracts = [detectedExtension, serves, otherExtension, replaces, deleteRemoves, animated]
    /// The answer to a file that is no accepted image.
    static let notAnImage = ErrorExpectation(
        400, "INVALID_FILE_FORMAT", field: .named("file"), message: "File is not a valid image format (JPEG, PNG, GIF, WebP, BMP, TIFF, HEIC, HEIF)")

    package func contracts(in session: ContractSession) -> [String] { Self.contracts }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        if backend.adminToken == nil { backend.skip(Self.deleteRemoves, reason: "no --admin-token given") }
        let created: GroupBackend.Created
        switch try await backend.createBase() {
        case .failure(let setup):
            backend.recordSetupFailure(Self.contracts, setup, what: "creating an announcement")
            return
        case .success(let value): created = value
        }
        let announcement = created.path, password = created.password
        let tag = "petspot-contracts \(backend.target.microchips.prefix) \(UUID().uuidString.lowercased())"
        let firstPNG = SampleImage.png(tag: tag + " first"), secondPNG = SampleImage.png(tag: tag + " second")
        let jpeg = SampleImage.jpeg(tag: tag + " third")
        func record(_ contract: String, _ problem: String?, _ exchange: BackendTarget.Exchange, _ expected: String) {
            backend.record(contract, problem, exchange, expected: expected, password: password)
        }
        func upload(_ bytes: Data, declared: String, fileName: String) async throws(GroupStop) -> (BackendTarget.Exchange, String?) {
            let exchange = try await backend.exchange(photoUploadRequest(announcement, password: password, fileName: fileName, contentType: declared, bytes: bytes))
            switch exchange.response {
            case .failure(let error): return (exchange, "the upload got no answer: \(error.description)")
            case .success(let response): return (exchange, response.status == 201 ? nil : "the upload answered \(response.status), expected 201")
            }
        }
        func photoURL() async throws(GroupStop) -> (BackendTarget.Exchange, Result<String, ProblemText>) {
            let read = try await backend.exchange(BackendTarget.getRequest(announcement.details))
            switch successObject(read.response, status: 200) {
            case .failure(let problem): return (read, .failure(ProblemText("details: \(problem)")))
            case .success(let object):
                guard let url = object["photoUrl"]?.stringValue else {
                    return (read, .failure(ProblemText("details answered photoUrl \(object["photoUrl"]?.serialized() ?? "missing")")))
                }
                return (read, .success(url))
            }
        }
        func image(_ path: String, bytes: Data, type: String) async throws(GroupStop) -> (BackendTarget.Exchange, String?) {
            let fetched = try await backend.exchange(TransportRequest(method: "GET", path: path))
            switch fetched.response {
            case .failure(let error): return (fetched, "no answer: \(error.description)")
            case .success(let response):
                if response.status != 200 { return (fetched, "GET \(path) answered \(response.status), expected 200") }
                let served = SharedBehaviourObservations.mediaType(response.header("Content-Type"))
                if served != type { return (fetched, "GET \(path) answered Content-Type \(served ?? "none"), expected \(type)") }
                if response.body != bytes {
                    return (fetched, "GET \(path) served \(response.body.count) bytes that are not the \(bytes.count) uploaded")
                }
                return (fetched, nil)
            }
        }

        // An animated PNG is no photo.
        let apng = try await backend.exchange(photoUploadRequest(
            announcement, password: password, fileName: "animated.png", contentType: "image/png", bytes: SampleImage.png(tag: tag, animated: true)))
        record(Self.animated, backend.problem(apng.response, Self.notAnImage), apng, Self.notAnImage.description)

        // A PNG declared as JPEG: the extension follows the bytes.
        let (firstUpload, firstProblem) = try await upload(firstPNG, declared: "image/jpeg", fileName: "photo.jpg")
        if let firstProblem {
            for contract in [Self.detectedExtension, Self.serves, Self.otherExtension, Self.replaces, Self.deleteRemoves]
            where contract != Self.deleteRemoves || backend.adminToken != nil {
                record(contract, firstProblem, firstUpload, "201 {}")
            }
            return
        }
        let pngPath = announcement.image(extension: "png"), jpegPath = announcement.image(extension: "jpeg")
        let (read, url) = try await photoURL()
        switch url {
        case .failure(let problem): record(Self.detectedExtension, problem.description, read, "photoUrl \(pngPath)")
        case .success(let value):
            record(Self.detectedExtension, value == pngPath ? nil : "photoUrl is \(value), expected \(pngPath) (the bytes are PNG)", read, "photoUrl \(pngPath)")
        }
        let (served, servedProblem) = try await image(pngPath, bytes: firstPNG, type: "image/png")
        record(Self.serves, servedProblem, served, "200 image/png with the uploaded bytes")
        let other = try await backend.exchange(TransportRequest(method: "GET", path: jpegPath))
        let notFound = ErrorExpectation(404, "NOT_FOUND")
        record(Self.otherExtension, backend.problem(other.response, notFound), other, notFound.description)

        // The same type again: new bytes at the same URL.
        let (secondUpload, secondProblem) = try await upload(secondPNG, declared: "image/png", fileName: "second.png")
        if let secondProblem {
            record(Self.replaces, secondProblem, secondUpload, "201 {}")
        } else {
            let (replaced, replacedProblem) = try await image(pngPath, bytes: secondPNG, type: "image/png")
            record(Self.replaces, replacedProblem.map { "after a second PNG upload, \($0)" }, replaced, "200 image/png with the second upload's bytes")
        }

        // Another type: a new photoUrl serving the JPEG.
        let (thirdUpload, thirdProblem) = try await upload(jpeg, declared: "image/jpeg", fileName: "third.jpg")
        if let thirdProblem {
            record(Self.replaces, thirdProblem, thirdUpload, "201 {}")
        } else {
            let (readAgain, urlAgain) = try await photoURL()
            switch urlAgain {
            case .failure(let problem): record(Self.replaces, problem.description, readAgain, "photoUrl \(jpegPath)")
            case .success(let value):
                record(Self.replaces, value == jpegPath ? nil : "after a JPEG upload photoUrl is \(value), expected \(jpegPath)", readAgain, "photoUrl \(jpegPath)")
            }
            let (servedJPEG, jpegProblem) = try await image(jpegPath, bytes: jpeg, type: "image/jpeg")
            record(Self.serves, jpegProblem, servedJPEG, "200 image/jpeg with the uploaded bytes")
        }

        // Deleting the announcement removes the photo.
        guard let token = backend.adminToken else { return }
        let deletion = try await backend.exchange(BackendTarget.adminDeleteRequest(announcement, authorization: token))
        guard case .success(let response) = deletion.response, response.status == 204 else {
            record(Self.deleteRemoves, "the delete answered \(AdminDeleteContracts.statusText(deletion.response)), expected 204", deletion, "204")
            return
        }
        let gone = try await backend.exchange(TransportRequest(method: "GET", path: thirdProblem == nil ? jpegPath : pngPath))
        record(Self.deleteRemoves, backend.problem(gone.response, notFound).map { "after the delete, /images: \($0)" }, gone, notFound.description)
    }
}
