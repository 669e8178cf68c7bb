import SyncProtocol
import SystemIO
@testable import SyncServer
import Testing

/// What a sweep rejects, decided as both stores decide it (``HeldPacketExpiry``), case by case:
/// at `now` 100 with a hold of 10, a packet received at 90 or before is overdue.
@Suite("held packet expiry")
struct HeldPacketExpiryTests {
    typealias Held = HeldPacketExpiry.Held

    /// A held packet of device `d1` (unless told), received at `at`, its dependency's state as given.
    static func held(_ packetId: String, on dependency: String, at receivedAt: Double, _ state: PacketState?, device: String = "d1") -> Held {
        Held(deviceId: device, packetId: packetId, dependency: dependency, receivedAt: WallTime(secondsSince1970: receivedAt), dependencyState: state)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let held: [Held]
        /// "device/packet: reason", in the order decided.
        let rejected: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "an overdue packet whose dependency never arrived", held: [held("B", on: "A", at: 90, nil)],
             rejected: ["d1/B: dependency A not received within 10 s"]),
        Case(name: "a packet within its hold waits", held: [held("B", on: "A", at: 91, nil)], rejected: []),
        Case(name: "two overdue packets that depend on each other: the older first",
             held: [held("A", on: "B", at: 80, .held), held("B", on: "A", at: 85, .held)],
             rejected: ["d1/A: dependency B still held after 10 s", "d1/B: dependency A was rejected"]),
        Case(name: "a loop with a packet still within its hold waits for it",
             held: [held("A", on: "B", at: 80, .held), held("B", on: "A", at: 95, .held)], rejected: []),
        Case(name: "a chain that arrived newest first is rejected from its missing root",
             held: [held("D", on: "C", at: 70, .held), held("C", on: "B", at: 75, .held), held("B", on: "A", at: 80, nil)],
             rejected: ["d1/B: dependency A not received within 10 s", "d1/C: dependency B was rejected", "d1/D: dependency C was rejected"]),
        Case(name: "an overdue packet waiting on one within its hold waits",
             held: [held("D", on: "C", at: 70, .held), held("C", on: "B", at: 95, nil)], rejected: []),
        Case(name: "a rejection reaches the packets held behind it, overdue or not",
             held: [held("B", on: "A", at: 80, nil), held("C", on: "B", at: 99, .held)],
             rejected: ["d1/B: dependency A not received within 10 s", "d1/C: dependency B was rejected"]),
        Case(name: "an overdue packet whose dependency is applied is left for the settle",
             held: [held("B", on: "A", at: 80, .applied)], rejected: []),
        Case(name: "an overdue packet whose dependency was rejected", held: [held("B", on: "A", at: 80, .rejected)],
             rejected: ["d1/B: dependency A was rejected"]),
        Case(name: "a chain into a loop: each overdue packet, oldest first",
             held: [held("D", on: "C", at: 70, .held), held("C", on: "B", at: 75, .held), held("B", on: "C", at: 80, .held)],
             rejected: ["d1/D: dependency C still held after 10 s", "d1/C: dependency B still held after 10 s", "d1/B: dependency C was rejected"]),
        Case(name: "another device's packet of the same id is another packet",
             held: [held("A", on: "B", at: 80, nil, device: "d2"), held("B", on: "A", at: 85, .held)], rejected: ["d2/A: dependency B not received within 10 s"]),
        Case(name: "a dependency spelled with other bytes is another packet",
             held: [held("caf\u{E9}", on: "x", at: 95, nil), held("y", on: "cafe\u{301}", at: 80, nil)],
             rejected: ["d1/y: dependency cafe\u{301} not received within 10 s"]),
    ]

    @Test("a sweep rejects what waiting can no longer help, and says why", arguments: cases)
    func expiry(_ example: Case) {
        let rejections = HeldPacketExpiry.rejections(example.held, now: WallTime(secondsSince1970: 100), hold: .seconds(10))
        let described = rejections.map { "\($0.deviceId)/\($0.packetId): \($0.reason)" }
        #expect(described.count == example.rejected.count && zip(described, example.rejected).allSatisfy { $0.utf8.elementsEqual($1.utf8) },
                "\(described)")
    }
}
