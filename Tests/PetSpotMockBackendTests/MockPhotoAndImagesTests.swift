import Foundation
import PetSpotContractKit
import PetSpotHTTP
import PetSpotJSON
import Testing
@testable import PetSpotMockBackend

/// Photo upload part names, APNG, and `GET /images/{id}.{ext}`, in both profiles; and every
/// case of the photo catalog answered as catalogued.
@Suite("Photo upload and /images")
struct MockPhotoAndImagesTests {
    @Test("/images serves the stored bytes with the extension's Content-Type until replaced or deleted",
          arguments: BackendProfile.allCases)
    func images(profile: BackendProfile) throws {
        let backend = makeBackend(profile)
        let (id, password) = createAnnouncement(backend)
        expectError(backend.answer(request("GET", "/images/\(id).png")), 404, "NOT_FOUND", field: nil)
        let pngBytes = tinyPNG + [9, 9, 9]
        #expect(upload(backend, id: id, password: password, parts: [TestPart(name: "photo", filename: "a.png", content: pngBytes)]).status == 201)
        let photoURL = try #require(backend.storedAnnouncement(id: id)?["photoUrl"]?.stringValue)
        #expect(photoURL == "/images/\(id).png")
        let served = backend.answer(request("GET", photoURL))
        #expect(served.status == 200)
        #expect(served.headers["Content-Type"] == "image/png")
        #expect(served.body == pngBytes)
        for wrong in ["/images/\(id).jpeg", "/images/\(id).PNG", "/images/\(id)", "/images/\(UUID().uuidString.lowercased()).png"] {
            let response = backend.answer(request("GET", wrong))
            expectError(response, 404, "NOT_FOUND", field: nil)
            #expect(message(response) == "Resource not found")
        }
        // A JPEG declared as image/png: the extension and the type follow the detected bytes.
        #expect(upload(backend, id: id, password: password, parts: [TestPart(name: "photo", filename: "b.png", contentType: "image/png",
                                                                              content: tinyJPEG)]).status == 201)
        let replaced = backend.answer(request("GET", "/images/\(id).jpeg"))
        #expect(replaced.status == 200 && replaced.headers["Content-Type"] == "image/jpeg" && replaced.body == tinyJPEG)
        expectError(backend.answer(request("GET", photoURL)), 404, "NOT_FOUND", field: nil)
        // Same type again: the new bytes are served.
        let secondJPEG = tinyJPEG + [1, 2, 3]
        #expect(upload(backend, id: id, password: password, parts: [TestPart(name: "photo", filename: "c.jpg", content: secondJPEG)]).status == 201)
        #expect(backend.answer(request("GET", "/images/\(id).jpeg")).body == secondJPEG)
        let delete = backend.answer(request("DELETE", "/api/admin/v1/announcements/\(id)", headers: [("Authorization", MockBackend.defaultAdminToken)]))
        #expect(delete.status == 204)
        expectError(backend.answer(request("GET", "/images/\(id).jpeg")), 404, "NOT_FOUND", field: nil)
    }

    @Test("every detected format gets its extension and media type", arguments: [
        (ImageFormat.gif, Array("GIF89a".utf8) + [0, 0]), (.webp, Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBPVP8 ".utf8)),
        (.bmp, Array("BM".utf8) + [0, 0, 0, 0]), (.tiff, [0x49, 0x49, 0x2A, 0x00, 8]), (.heic, [0, 0, 0, 0x18] + Array("ftypheic".utf8)),
        (.heif, [0, 0, 0, 0x18] + Array("ftypmif1".utf8)),
    ] as [(ImageFormat, [UInt8])])
    func formats(format: ImageFormat, bytes: [UInt8]) {
        let backend = makeBackend(.production)
        let (id, password) = createAnnouncement(backend)
        #expect(upload(backend, id: id, password: password, parts: [TestPart(name: "photo", filename: "x", content: bytes)]).status == 201)
        let served = backend.answer(request("GET", "/images/\(id).\(format.rawValue)"))
        #expect(served.status == 200 && served.body == bytes)
        #expect(served.headers["Content-Type"] == "image/\(format.rawValue)")
    }

    @Test("an animated PNG (acTL before IDAT) is refused; acTL after IDAT is a still PNG", arguments: BackendProfile.allCases)
    func animatedPNG(profile: BackendProfile) {
        let backend = makeBackend(profile)
        let (id, password) = createAnnouncement(backend)
        let animated = png(chunks: ["IHDR", "acTL", "IDAT", "IEND"])
        let response = upload(backend, id: id, password: password, parts: [TestPart(name: "photo", filename: "a.png", content: animated)])
        expectError(response, 400, "INVALID_FILE_FORMAT", field: "file")
        if profile == .production {
            #expect(message(response) == "File is not a valid image format (JPEG, PNG, GIF, WebP, BMP, TIFF, HEIC, HEIF)")
        } else {
            #expect(message(response)?.contains("APNG") == true)
        }
        #expect(backend.storedPhoto(id: id) == nil)
        for still in [png(chunks: ["IHDR", "IDAT", "acTL", "IEND"]), png(chunks: ["IHDR", "tEXt", "IDAT", "IEND"]), tinyPNG] {
            #expect(upload(backend, id: id, password: password, parts: [TestPart(name: "photo", filename: "a.png", content: still)]).status == 201)
        }
        #expect(ImageFormat.isAnimatedPNG(animated[...]))
        #expect(!ImageFormat.isAnimatedPNG(png(chunks: ["IHDR"])[...]))
    }

    @Test("part names: another name or two photo parts are production's 500, clear 400s in strict", arguments: BackendProfile.allCases)
    func partNames(profile: BackendProfile) {
        let backend = makeBackend(profile)
        let (id, password) = createAnnouncement(backend)
        let photo = TestPart(name: "photo", filename: "a.png", content: tinyPNG)
        let cases: [([TestPart], strict: (Int, String, String?))] = [
            ([TestPart(name: "file", filename: "a.png", content: tinyPNG)], (400, "MISSING_FILE", "photo")),
            ([photo, photo], (400, "INVALID_FORMAT", "photo")),
            ([photo, TestPart(name: "thumbnail", filename: "b.png", content: tinyPNG)], (400, "INVALID_FIELD", "thumbnail")),
            ([TestPart(name: "image", filename: "b.png", content: tinyPNG), photo], (400, "INVALID_FIELD", "image")),
        ]
        for (parts, strict) in cases {
            let response = upload(backend, id: id, password: password, parts: parts)
            if profile == .production {
                expectError(response, 500, "INTERNAL_SERVER_ERROR", field: nil)
                #expect(message(response) == "Internal server error")
            } else {
                expectError(response, strict.0, strict.1, field: strict.2)
                #expect(message(response)?.contains("photo") == true)
            }
        }
        #expect(backend.storedPhoto(id: id) == nil)
        // Not files: a text field named photo, an empty file name. Text fields beside the photo are fine.
        for parts in [[TestPart(name: "photo", filename: nil, content: tinyPNG)], [TestPart(name: "photo", filename: "", content: tinyPNG)]] {
            let response = upload(backend, id: id, password: password, parts: parts)
            expectError(response, 400, "MISSING_FILE", field: "photo")
            if profile == .production { #expect(message(response) == "Photo field is required") }
        }
        let withFields = upload(backend, id: id, password: password, parts: [
            TestPart(name: "note", filename: nil, content: Array("hello".utf8)), photo, TestPart(name: "photo2", filename: nil, content: [1]),
        ])
        #expect(withFields.status == 201)
        // A malformed multipart body: production's 500, strict's 400 on photo.
        let broken = backend.answer(request("POST", "/api/v1/announcements/\(id)/photos", headers: [
            ("Content-Type", "multipart/form-data; boundary=XYZ"), ("Authorization", basicAuthorization(user: id, password: password)),
        ], body: Array("--XYZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\n\r\nunterminated".utf8)))
        if profile == .production {
            expectError(broken, 500, "INTERNAL_SERVER_ERROR", field: nil)
        } else {
            expectError(broken, 400, "MISSING_FILE", field: "photo")
        }
    }

    @Test("every photo catalog case is answered as catalogued", arguments: BackendProfile.allCases)
    func photoCatalog(profile: BackendProfile) throws {
        let catalog = try ContractDocuments.load().photoUploadCases
        var mismatches: [String] = []
        for item in catalog.cases {
            let backend = makeBackend(profile)
            let (id, password) = createAnnouncement(backend)
            let target = switch item.announcement {
            case .created: id
            case .unknown: UUID().uuidString.lowercased()
            case .malformed: PhotoUploadCase.Target.malformedID
            }
            let credentials = PhotoCredentials(id: target, password: password)
            var parts = item.otherParts.map { TestPart(name: $0.name, filename: nil, content: Array($0.value.utf8)) }
            if let file = item.file {
                parts.append(TestPart(name: file.partName, filename: file.fileName, contentType: file.contentType, content: file.content.bytes()))
            }
            let (body, contentType) = multipart(parts)
            var headers = [("Content-Type", contentType), ("Content-Length", String(body.count))]
            if let authorization = item.authorization.headerValue(with: credentials) { headers.append(("Authorization", authorization)) }
            let response = backend.answer(request("POST", "/api/v1/announcements/\(target)/photos", headers: headers, body: body))
            if let mismatch = item.expected(for: profile).mismatch(status: response.status, body: try? JSONValue.parse(response.body)) {
                mismatches.append("\(item.id): \(mismatch)")
            }
            if response.status == 201 {
                let url = try #require(backend.storedAnnouncement(id: id)?["photoUrl"]?.stringValue)
                #expect(backend.answer(request("GET", url)).body == item.file?.content.bytes(), "\(item.id)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }
}
