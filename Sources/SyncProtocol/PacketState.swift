/// Where a pushed packet stands in the server's durable per-device record.
public enum PacketState: String, Sendable, CaseIterable {
    case applied
    case held
    case rejected
}
