import Glibc
import JSON
import PatchProtocol
import Patches
import SystemIO

/// A signed patch file's text parsed (`SignedPatch.parse`) and verified (`PatchVerifier.verify`)
/// against the demo app's key (`js/apps/demo/patches/demo-signing.key`, public in the repository
/// for the demo), as `hybrid patch apply` and the drop folder do. Random bytes rarely carry a
/// valid signature, so each patch that parses is also signed again with that key, once as it is
/// and once with its modules' hashes made right, to reach the checks after the signature (hashes,
/// base version, expiry, version, module paths). A patch keeps its meaning through its text: it
/// parses back from `text` equal, and verifies the same way.
enum PatchFuzzTarget {
    static let target = FuzzTarget(name: "patch", summary: "SignedPatch.parse + PatchVerifier.verify against a fixed key; re-signed variants; text round trip") { input throws(FuzzFinding) in
        try run(input)
    }

    static let privateKey = "eD49x5TRQ/1e4f1S9wu2XMSrj6Az7zq/rSsoaONCH2Q="
    static let publicKey = "IIP6hFOOsrDo7sNQdzfuUjiY9Ps5aOWGNwCZU8KX66U="
    /// 2026-11-23T00:00:00Z: a fixed clock, so `expires` decides the same way in every run.
    static let now = 1_795_392_000.0

    /// An app folder with the modules patches may name: `main.js`, `report.js`, `lib/cart.js`.
    static let trust: PatchTrust = {
        let folder = FileSystem.makeTemporaryFolder(prefix: "hybrid-fuzz-patch")!
        mkdir(folder + "/lib", 0o700)
        for name in ["main.js", "report.js", "lib/cart.js"] {
            let file = fopen(folder + "/" + name, "w")
            fputs("exports.line = () => 1;\n", file)
            fclose(file)
        }
        return PatchTrust(app: "demo", appVersion: "1.0.0", keys: [publicKey], appDirectory: folder)
    }()

    static func run(_ input: [UInt8]) throws(FuzzFinding) {
        guard let patch = try? SignedPatch.parse(String(decoding: input, as: UTF8.self)) else { return }
        try check(patch)
        guard var resigned = try? PatchSigner.sign(patch.manifest, sources: patch.sources, privateKey: privateKey) else {
            throw FuzzFinding("patch", "a manifest that parsed cannot be signed")
        }
        try check(resigned)
        for (name, source) in resigned.sources { resigned.manifest.modules[name]?.sha256 = SignedPatch.sha256(source) }
        guard let hashed = try? PatchSigner.sign(resigned.manifest, sources: resigned.sources, privateKey: privateKey) else {
            throw FuzzFinding("patch", "a manifest that parsed cannot be signed")
        }
        try check(hashed)
    }

    /// Verifies `patch`, and the patch its own text reads back as, expecting the same verdict.
    static func check(_ patch: SignedPatch) throws(FuzzFinding) {
        let verdict = verify(patch)
        let reread: SignedPatch
        do {
            reread = try SignedPatch.parse(patch.text)
        } catch {
            throw FuzzFinding("patch", "a patch's own text does not parse: \(error)\n\(patch.text)")
        }
        guard reread == patch else {
            throw FuzzFinding("patch", "a patch changed through its text:\n\(patch.text)")
        }
        guard verify(reread) == verdict else {
            throw FuzzFinding("patch", "a patch read from its own text verifies otherwise (\(verify(reread)) vs \(verdict))")
        }
    }

    static func verify(_ patch: SignedPatch) -> String {
        do {
            try PatchVerifier.verify(patch, trust: trust, highestVersion: 1, now: now)
            return "ok"
        } catch {
            return error.code.rawValue
        }
    }
}
