import JSON

/// The patch a check answers with: the stored signed file's JSON, each module's `source` replaced
/// where possible by `"unchanged": true` (the device runs that very source) or by
/// `"delta": {"format": "zstd-prefix", "from": SHA256, "data": BASE64}` against a source the device
/// runs. The signature still covers the manifest, and each rebuilt source is checked against it.
public enum PatchOffer {
    /// The server's side. `knownSource(name, sha256)` gives a source of that module the server
    /// holds (from an earlier patch), if any.
    public static func make(patch: JSONValue, deviceModules: [String: String],
                            knownSource: (String, String) -> String?) -> JSONValue {
        guard case .object(var root) = patch, case .object(let modules)? = root["modules"] else { return patch }
        var offered = JSONObject()
        for (name, value) in modules {
            guard case .object(var module) = value, let sha = module["sha256"]?.stringValue,
                  let source = module["source"]?.stringValue, let running = deviceModules[name] else {
                offered.appendUnique(name, value)
                continue
            }
            if running == sha {
                module = JSONObject(module.members.filter { $0.key != "source" })
                module.appendUnique("unchanged", true)
            } else if let old = knownSource(name, running), let delta = try? PatchDelta.make(from: Array(old.utf8), to: Array(source.utf8)),
                      delta.count < source.utf8.count {
                module = JSONObject(module.members.filter { $0.key != "source" })
                module.appendUnique("delta", ["format": .string(PatchDelta.format), "from": .string(running), "data": .string(Base64.encode(delta))])
            }
            offered.appendUnique(name, .object(module))
        }
        root["modules"] = .object(offered)
        return .object(root)
    }

    /// The device's side: the signed patch with every source rebuilt. `runningSource(name)` is
    /// the source the device runs now for that module. Each rebuilt source must hash to the
    /// manifest's sha256; the caller then verifies the signature as for any patch file.
    public static func rebuild(_ offer: JSONValue, runningSource: (String) -> String?) throws(PatchError) -> SignedPatch {
        guard case .object(var root) = offer, case .object(let modules)? = root["modules"] else {
            throw PatchError(.malformed, "patch: expected an object with modules")
        }
        var rebuilt = JSONObject()
        for (name, value) in modules {
            guard case .object(var module) = value else { throw PatchError(.malformed, "patch: modules.\(name): expected an object") }
            let sha = module["sha256"]?.stringValue ?? ""
            if module["source"] == nil {
                let source: String
                if module["unchanged"]?.boolValue == true {
                    guard let running = runningSource(name), SignedPatch.sha256(running) == sha else {
                        throw PatchError(.badHash, "patch: modules.\(name).unchanged: this device does not run the source with sha256 \(sha)")
                    }
                    source = running
                } else if case .object(let delta)? = module["delta"] {
                    guard delta["format"]?.stringValue == PatchDelta.format, let from = delta["from"]?.stringValue,
                          let data = delta["data"]?.stringValue.flatMap(Base64.decode) else {
                        throw PatchError(.malformed, "patch: modules.\(name).delta: expected {format: \"\(PatchDelta.format)\", from, data (base64)}")
                    }
                    guard let running = runningSource(name), SignedPatch.sha256(running) == from else {
                        throw PatchError(.badHash, "patch: modules.\(name).delta.from: this device does not run the source with sha256 \(from)")
                    }
                    source = String(decoding: try PatchDelta.apply(from: Array(running.utf8), delta: data), as: UTF8.self)
                    guard SignedPatch.sha256(source) == sha else {
                        throw PatchError(.badHash, "patch: modules.\(name).delta: the rebuilt source does not match the signed sha256 \(sha)")
                    }
                } else {
                    throw PatchError(.malformed, "patch: modules.\(name): expected source, unchanged or delta")
                }
                module = JSONObject(module.members.filter { $0.key != "unchanged" && $0.key != "delta" })
                module.appendUnique("source", .string(source))
            }
            rebuilt.appendUnique(name, .object(module))
        }
        root["modules"] = .object(rebuilt)
        return try SignedPatch(json: .object(root))
    }
}
