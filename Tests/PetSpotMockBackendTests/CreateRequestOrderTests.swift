import PetSpotContractKit
import PetSpotHTTP
import PetSpotJSON
import PetSpotMockBackend
import Testing

/// The order the create's checks are exposed in (``CreateRequestCheck/reportingOrder``, which the
/// OpenAPI document's prose is written from) is the order the mock reports problems in.
@Suite("the create's reporting order, as exposed")
struct CreateRequestOrderTests {
    /// A body with a problem for `check` added: a field `null` (the wrong type for every field),
    /// an unknown key, or neither email nor phone.
    static func breaking(_ check: CreateRequestCheck, in body: inout JSONObject) {
        switch check {
        case .field(let name): body[name] = .null
        case .unknownKey: body["zzUnknownKey"] = 1
        case .contact:
            body["email"] = nil
            body["phone"] = nil
        }
    }

    /// The `field` of the error a problem of `check` is reported with.
    static func field(of check: CreateRequestCheck) -> String {
        switch check {
        case .field(let name): name
        case .unknownKey: "zzUnknownKey"
        case .contact: "contact"
        }
    }

    /// Whether a body can have a problem of both checks: the contact rule is broken only when
    /// email and phone are absent, so it cannot meet a problem of either.
    static func canMeet(_ first: CreateRequestCheck, _ second: CreateRequestCheck) -> Bool {
        let contactFields: Set<CreateRequestCheck> = [.field("email"), .field("phone")]
        return !(first == .contact && contactFields.contains(second) || second == .contact && contactFields.contains(first))
    }

    @Test("of two problems, the one whose check comes first in reportingOrder is reported", arguments: BackendProfile.allCases)
    func reportsInExposedOrder(profile: BackendProfile) {
        let backend = makeBackend(profile)
        let order = CreateRequestCheck.reportingOrder
        #expect(order.count == 16)
        for check in order {
            var body = createBody()
            CreateRequestOrderTests.breaking(check, in: &body)
            let error = json(backend.answer(createRequest(body)))["error"]
            #expect(error?["field"]?.stringValue == CreateRequestOrderTests.field(of: check), "\(check) alone")
        }
        var pairs = 0
        for first in order.indices {
            for second in order.indices where second > first && CreateRequestOrderTests.canMeet(order[first], order[second]) {
                var body = createBody()
                CreateRequestOrderTests.breaking(order[second], in: &body)
                CreateRequestOrderTests.breaking(order[first], in: &body)
                let reported = json(backend.answer(createRequest(body)))["error"]?["field"]?.stringValue
                #expect(reported == CreateRequestOrderTests.field(of: order[first]), "\(order[first]) and \(order[second])")
                pairs += 1
            }
        }
        #expect(pairs == 16 * 15 / 2 - 2)
    }
}
