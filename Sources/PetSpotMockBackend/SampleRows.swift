import PetSpotJSON

/// Production's sample announcements: production wipes its data and inserts these 8 rows on
/// every start (backend-contract.md, admin delete). They were not created through the API and do
/// not look like created ones: their ids are not UUID v4, their `updatedAt` is SQLite's
/// `YYYY-MM-DD HH:MM:SS` (no `T`, no zone), their `photoUrl` points at `/images/seed-<id>.<ext>`,
/// and one holds the microchip number `123456789012345`. A contract run must never assume an
/// empty store, nor validate these rows as if it had created them.
///
/// ```swift
/// let backend = MockBackend(profile: .production, sampleRows: true)   // as production after a start
/// ```
public enum SampleRows {
    /// The microchip number one sample row holds (a create with it answers 409).
    public static let takenMicrochip = "123456789012345"

    /// One sample row's own values.
    struct Row {
        let digit: Character
        let petName: String?
        let species: String
        let breed: String?
        let sex: String
        let age: Int?
        let description: String?
        let microchip: String?
        let latitude: String
        let longitude: String
        let lastSeenDate: String
        let email: String?
        let phone: String?
        let status: String
        let reward: String?
        let createdAt: String
        let fileExtension: String
    }

    static let rows: [Row] = [
        Row(digit: "1", petName: "Burek", species: "DOG", breed: "Mixed", sex: "MALE", age: 4, description: "Brown collar, friendly",
            microchip: takenMicrochip, latitude: "52.2297", longitude: "21.0122", lastSeenDate: "2025-10-28",
            email: "owner1@example.com", phone: "+48 600 100 200", status: "MISSING", reward: "200 PLN",
            createdAt: "2025-10-28T08:15:30.123Z", fileExtension: "jpg"),
        Row(digit: "2", petName: "Mruczek", species: "CAT", breed: nil, sex: "MALE", age: 2, description: "Grey tabby",
            microchip: nil, latitude: "52.2401", longitude: "21.0024", lastSeenDate: "2025-10-29", email: "owner2@example.com",
            phone: nil, status: "MISSING", reward: nil, createdAt: "2025-10-29T10:02:11.456Z", fileExtension: "jpg"),
        Row(digit: "3", petName: nil, species: "DOG", breed: "Labrador", sex: "FEMALE", age: nil, description: "Found near the park",
            microchip: nil, latitude: "52.2215", longitude: "21.0301", lastSeenDate: "2025-10-30", email: nil,
            phone: "+48 600 300 400", status: "FOUND", reward: nil, createdAt: "2025-10-30T17:45:00.000Z", fileExtension: "png"),
        Row(digit: "4", petName: "Kiwi", species: "BIRD", breed: "Budgerigar", sex: "UNKNOWN", age: 1, description: "Green and yellow",
            microchip: nil, latitude: "50.0647", longitude: "19.9450", lastSeenDate: "2025-10-31", email: "owner4@example.com",
            phone: nil, status: "MISSING", reward: "50 PLN", createdAt: "2025-10-31T07:30:42.789Z", fileExtension: "jpg"),
        Row(digit: "5", petName: "Luna", species: "CAT", breed: "Maine Coon", sex: "FEMALE", age: 6, description: nil,
            microchip: "616093900001234", latitude: "50.0614", longitude: "19.9366", lastSeenDate: "2025-11-01", email: nil,
            phone: "+48 600 500 600", status: "MISSING", reward: nil, createdAt: "2025-11-01T12:00:05.010Z", fileExtension: "jpg"),
        Row(digit: "6", petName: nil, species: "RABBIT", breed: nil, sex: "UNKNOWN", age: nil, description: "White, red eyes",
            microchip: nil, latitude: "51.1079", longitude: "17.0385", lastSeenDate: "2025-11-02", email: "finder6@example.com",
            phone: nil, status: "FOUND", reward: nil, createdAt: "2025-11-02T15:20:33.333Z", fileExtension: "png"),
        Row(digit: "7", petName: "Reksio", species: "DOG", breed: "Beagle", sex: "MALE", age: 8, description: "Limps on the left paw",
            microchip: "616093900005678", latitude: "54.3520", longitude: "18.6466", lastSeenDate: "2025-11-03",
            email: "owner7@example.com", phone: "+48 600 700 800", status: "MISSING", reward: "500 PLN",
            createdAt: "2025-11-03T09:09:09.900Z", fileExtension: "jpg"),
        Row(digit: "8", petName: nil, species: "OTHER", breed: nil, sex: "UNKNOWN", age: nil, description: "A tortoise",
            microchip: nil, latitude: "51.7592", longitude: "19.4560", lastSeenDate: "2025-11-04", email: nil,
            phone: "+48 600 900 100", status: "FOUND", reward: nil, createdAt: "2025-11-04T11:11:11.111Z", fileExtension: "jpg"),
    ]

    /// The ids of the sample rows (`11111111-1111-1111-1111-111111111111` ... `8888...`).
    public static var ids: [String] { rows.map(id) }

    static func id(_ row: Row) -> String {
        let d = String(row.digit)
        return [8, 4, 4, 4, 12].map { String(repeating: d, count: $0) }.joined(separator: "-")
    }

    /// SQLite's `CURRENT_TIMESTAMP` form of an ISO instant: `2025-10-28 08:15:30`.
    static func sqliteTimestamp(_ iso: String) -> String {
        String(iso.prefix(19)).replacingOccurrences(of: "T", with: " ")
    }

    /// A small image of the row's type, with its id inside, so each file differs.
    static func image(_ row: Row) -> StoredPhoto {
        let tag = Array("PetSpot sample row \(id(row))".utf8)
        if row.fileExtension == "png" {
            // The PNG signature and an IHDR header are enough for the magic-byte check.
            let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
                + [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0, 0, 0, 0, 0] + tag
            return StoredPhoto(format: .png, bytes: bytes)
        }
        let length = tag.count + 2
        return StoredPhoto(format: .jpeg, bytes: [0xFF, 0xD8, 0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + tag + [0xFF, 0xD9])
    }

    /// The stored form of each row, with its `/images` file, as the store seeds them.
    static var entries: [(make: (Int) -> StoredAnnouncement, file: (name: String, photo: StoredPhoto)?)] {
        rows.map { row in
            let id = id(row)
            let fileName = "seed-\(id).\(row.fileExtension)"
            let photo = image(row)
            func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
            func number(_ literal: String) -> JSONValue { JSONNumber(literal: literal).map(JSONValue.number) ?? .null }
            let representation = JSONObject(uniqueMembers: [
                (key: "id", value: .string(id)),
                (key: "petName", value: text(row.petName)),
                (key: "species", value: .string(row.species)),
                (key: "breed", value: text(row.breed)),
                (key: "sex", value: .string(row.sex)),
                (key: "age", value: row.age.map { .number(JSONNumber($0)) } ?? .null),
                (key: "description", value: text(row.description)),
                (key: "microchipNumber", value: text(row.microchip)),
                (key: "locationLatitude", value: number(row.latitude)),
                (key: "locationLongitude", value: number(row.longitude)),
                (key: "lastSeenDate", value: .string(row.lastSeenDate)),
                (key: "email", value: text(row.email)),
                (key: "phone", value: text(row.phone)),
                (key: "photoUrl", value: .string("/images/\(fileName)")),
                (key: "status", value: .string(row.status)),
                (key: "reward", value: text(row.reward)),
                (key: "createdAt", value: .string(row.createdAt)),
                (key: "updatedAt", value: .string(sqliteTimestamp(row.createdAt))),
            ])
            let make: (Int) -> StoredAnnouncement = { sequence in
                StoredAnnouncement(
                    id: id, sequence: sequence, representation: representation,
                    password: SaltedPasswordHash(password: "sample-\(id)"), microchipKey: row.microchip, photo: photo,
                    photoFileName: fileName)
            }
            return (make, (fileName, photo))
        }
    }
}
