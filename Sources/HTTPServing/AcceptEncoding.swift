/// What a request's `Accept-Encoding` fields allow (RFC 9110, 12.5.3): each content coding named,
/// with its weight (`q`, 0 to 1), `*` for any coding not named, and `identity` (no coding), which
/// is acceptable unless the request says `identity;q=0` or `*;q=0` without naming it.
///
/// ```swift
/// AcceptEncoding(["gzip;q=0.5, deflate"]).preferred(among: ["gzip", "deflate"])   // "deflate"
/// AcceptEncoding(["gzip;q=0"]).preferred(among: ["gzip", "deflate"])               // nil: identity
/// ```
public struct AcceptEncoding: Sendable, Equatable {
    /// The codings named, lowercased (`x-gzip` as `gzip`), with their weights; `*` among them.
    let weights: [String: Double]
    /// Whether the request had the field at all: a request without it gets the identity.
    let present: Bool

    /// `fields`: every `Accept-Encoding` field of the request, as sent. An entry whose `q` is not a
    /// number from 0 to 1 is left out, as if not sent; the others still count.
    public init(_ fields: [String]) {
        present = !fields.isEmpty
        var weights: [String: Double] = [:]
        for field in fields {
            for entry in field.split(separator: ",") {
                let parts = entry.split(separator: ";").map { $0.trimmingSpaces.lowercased() }
                guard let name = parts.first, !name.isEmpty else { continue }
                var weight: Double? = 1
                for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                    weight = Double(parameter.dropFirst(2)).flatMap { (0...1).contains($0) ? $0 : nil }
                }
                guard let weight else { continue }
                // A coding named twice keeps its higher weight.
                let coding = name == "x-gzip" ? "gzip" : name
                weights[coding] = max(weights[coding] ?? 0, weight)
            }
        }
        self.weights = weights
    }

    /// The weight the request gives `coding` (lowercase): its own, else `*`'s, else 0; for
    /// `identity`, 1 unless it or `*` says otherwise.
    public func weight(of coding: String) -> Double {
        if let weight = weights[coding] { return weight }
        if let any = weights["*"] { return any }
        return coding == "identity" ? 1 : 0
    }

    /// The coding of `codings` (the server's, best first) to answer in: the one the request
    /// weighs highest, the server's order breaking ties, when its weight is above 0 and not below
    /// the weight the request gives the identity by name (or through `*`). An identity the request
    /// does not name is acceptable but least preferred: `gzip;q=0.5` asks for gzip. Nil means the
    /// identity: the body as it is.
    public func preferred(among codings: [String]) -> String? {
        guard present else { return nil }
        var best: (coding: String, weight: Double)?
        for coding in codings {
            let weight = weight(of: coding)
            if weight > 0, weight > (best?.weight ?? 0) { best = (coding, weight) }
        }
        guard let best, best.weight >= weights["identity"] ?? weights["*"] ?? 0 else { return nil }
        return best.coding
    }
}

extension Substring {
    /// Without the spaces and tabs around it (the OWS of HTTP's lists).
    var trimmingSpaces: Substring {
        let isText: (Character) -> Bool = { $0 != " " && $0 != "\t" }
        guard let first = firstIndex(where: isText), let last = lastIndex(where: isText) else { return "" }
        return self[first...last]
    }
}
