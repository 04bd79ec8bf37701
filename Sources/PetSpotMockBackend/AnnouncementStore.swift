import Foundation
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
}

/// The in-memory announcement store: every operation takes one lock, so concurrent requests see
/// a consistent store and an accepted create is never lost. The microchip uniqueness check and
/// the insert happen under the same lock (production's pre-check can race; see the README).
final class AnnouncementStore: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [String: StoredAnnouncement] = [:]
    private var microchipOwners: [String: String] = [:]
    private var nextSequence = 0

    /// Inserts the record built by `make` unless `microchipKey` is taken.
    /// - Returns: the stored record, or `nil` on a microchip conflict.
    func insert(id: String, microchipKey: String?, make: (Int) -> StoredAnnouncement) -> StoredAnnouncement? {
        lock.lock()
        defer { lock.unlock() }
        if let microchipKey, microchipOwners[microchipKey] != nil { return nil }
        let record = make(nextSequence)
        nextSequence += 1
        records[id] = record
        if let microchipKey { microchipOwners[microchipKey] = id }
        return record
    }

    /// Whether a stored announcement uses `microchipKey`.
    func isMicrochipTaken(_ microchipKey: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return microchipOwners[microchipKey] != nil
    }

    func record(id: String) -> StoredAnnouncement? {
        lock.lock()
        defer { lock.unlock() }
        return records[id]
    }

    /// Sets the photo and the matching representation fields; `false` when the id is gone.
    func setPhoto(id: String, photo: StoredPhoto, photoURL: String, updatedAt: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard var record = records[id] else { return false }
        record.photo = photo
        record.representation["photoUrl"] = .string(photoURL)
        record.representation["updatedAt"] = .string(updatedAt)
        records[id] = record
        return true
    }

    /// Removes an announcement and its photo; `false` when there was none.
    func remove(id: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let record = records.removeValue(forKey: id) else { return false }
        if let key = record.microchipKey { microchipOwners.removeValue(forKey: key) }
        return true
    }

    /// Every announcement with a photo, oldest first.
    func withPhotos() -> [StoredAnnouncement] {
        lock.lock()
        let selected = records.values.filter { $0.photo != nil }
        lock.unlock()
        return selected.sorted { $0.sequence < $1.sequence }
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return records.count
    }

    var allIdentifiers: [String] {
        lock.lock()
        let all = records.values.sorted { $0.sequence < $1.sequence }.map(\.id)
        lock.unlock()
        return all
    }

    func removeAll() {
        lock.lock()
        records.removeAll()
        microchipOwners.removeAll()
        lock.unlock()
    }
}
