import Foundation
import PetSpotConcurrency
import PetSpotJSON

/// A photo as the mock stores it.
public struct StoredPhoto: Sendable, Equatable {
    /// The format detected from the magic bytes.
    public let format: ImageFormat
    /// The file's bytes, exactly as uploaded.
    public let bytes: [UInt8]
}

/// One stored announcement.
struct StoredAnnouncement: Sendable {
    let id: String
    let sequence: Int
    /// The public representation (what details and list answer), keys in the documented order.
    var representation: JSONObject
    let password: SaltedPasswordHash
    /// The key under which the microchip number is unique, if one was given.
    let microchipKey: String?
    var photo: StoredPhoto?
    /// The name of its file under `/images` (`{id}.{ext}`), once a photo was uploaded.
    var photoFileName: String?
}

/// The in-memory announcement store and the `/images` files: every operation holds one lock, so
/// concurrent requests see a consistent store and an accepted create is never lost. The insert
/// refuses a taken microchip under the same lock, like the database's unique index (production
/// checks first with ``isMicrochipTaken(_:)``, and two creates can both pass that check).
///
/// Files are kept apart from the announcements, as production keeps them on disk: the file of
/// an announcement is written by an upload, replaced by the next one, and removed with the
/// announcement (planted defects keep a stale or orphaned file).
final class AnnouncementStore: Sendable {
    private struct State {
        var records: [String: StoredAnnouncement] = [:]
        var microchipOwners: [String: String] = [:]
        var files: [String: StoredPhoto] = [:]
        var nextSequence = 0
    }

    private let state = Locked(State())

    /// Inserts the record built by `make` unless `microchipKey` is taken.
    /// - Returns: the stored record, or `nil` on a microchip conflict.
    func insert(microchipKey: String?, make: (Int) -> StoredAnnouncement) -> StoredAnnouncement? {
        state.withLock { state in
            if let microchipKey, state.microchipOwners[microchipKey] != nil { return nil }
            let record = make(state.nextSequence)
            state.nextSequence += 1
            state.records[record.id] = record
            if let microchipKey { state.microchipOwners[microchipKey] = record.id }
            return record
        }
    }

    /// Whether a stored announcement uses `microchipKey` (production's pre-check).
    func isMicrochipTaken(_ microchipKey: String) -> Bool {
        state.withLock { $0.microchipOwners[microchipKey] != nil }
    }

    func record(id: String) -> StoredAnnouncement? {
        state.withLock { $0.records[id] }
    }

    /// Sets the photo, its `/images` file and the matching representation fields.
    /// - Parameters:
    ///   - overwritingFile: `false` keeps an existing file of the same name (a stale cache).
    /// - Returns: `false` when the announcement is gone.
    func setPhoto(id: String, photo: StoredPhoto, fileName: String, updatedAt: String, overwritingFile: Bool = true) -> Bool {
        state.withLock { state in
            guard var record = state.records[id] else { return false }
            if let previous = record.photoFileName, previous != fileName { state.files[previous] = nil }
            if overwritingFile || state.files[fileName] == nil { state.files[fileName] = photo }
            record.photo = photo
            record.photoFileName = fileName
            record.representation["photoUrl"] = .string("/images/\(fileName)")
            record.representation["updatedAt"] = .string(updatedAt)
            state.records[id] = record
            return true
        }
    }

    /// The file served at `/images/{fileName}`, if any.
    func file(named fileName: String) -> StoredPhoto? {
        state.withLock { $0.files[fileName] }
    }

    /// Removes an announcement and (unless `keepingFile`) its photo file.
    /// - Returns: `false` when there was none.
    func remove(id: String, keepingFile: Bool = false) -> Bool {
        state.withLock { state in
            guard let record = state.records.removeValue(forKey: id) else { return false }
            if let key = record.microchipKey { state.microchipOwners.removeValue(forKey: key) }
            if !keepingFile, let fileName = record.photoFileName { state.files[fileName] = nil }
            return true
        }
    }

    /// Every announcement (only those with a photo unless `includingPhotoless`), oldest first.
    func announcements(includingPhotoless: Bool = false) -> [StoredAnnouncement] {
        let selected = state.withLock { state in
            includingPhotoless ? Array(state.records.values) : state.records.values.filter { $0.photo != nil }
        }
        return selected.sorted { $0.sequence < $1.sequence }
    }

    var count: Int {
        state.withLock { $0.records.count }
    }

    var allIdentifiers: [String] {
        announcements(includingPhotoless: true).map(\.id)
    }

    func removeAll() {
        state.withLock { state in
            state.records.removeAll()
            state.microchipOwners.removeAll()
            state.files.removeAll()
        }
    }
}
