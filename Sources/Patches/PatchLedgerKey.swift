import Crypto
import Glibc
import JSON
import PatchProtocol
import Synchronization
import SystemIO

/// The host's key for the patch ledger's MAC (HMAC-SHA256): 32 random bytes in base64, readable
/// by this user only, made when the first ledger is written, and kept outside every app's data
/// folder: `$HYBRID_LEDGER_KEY_FILE`, else `$XDG_STATE_HOME/hybridhost/patch-ledger.key`, else
/// `~/.local/state/hybridhost/patch-ledger.key`.
///
/// Not beside the ledger: the MAC is for the day something other than the host writes into the
/// data folder (a path check that misses a case, another writer), and whatever can write the ledger
/// there can write a key beside it. Scripts reach nothing outside the data folder (downloads stay
/// in it, URLs are http and https only), so they can neither read this key nor replace it. One key
/// serves every app of the user, so a data folder moved on the same machine keeps its ledger; one
/// copied to another machine or user does not verify there, and is treated as not written by the
/// host (``PatchLedger/unverified``).
struct PatchLedgerKey: Sendable, Equatable {
    let path: String

    /// Where this process keeps it.
    static var host: PatchLedgerKey {
        let environment = ProcessEnvironment.self
        if let explicit = environment["HYBRID_LEDGER_KEY_FILE"], explicit.hasPrefix("/") { return PatchLedgerKey(path: explicit) }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return PatchLedgerKey(path: xdg + "/hybridhost/patch-ledger.key") }
        return PatchLedgerKey(path: "\(environment["HOME"] ?? "/tmp")/.local/state/hybridhost/patch-ledger.key")
    }

    /// Keys read in this process, by path: a ledger is saved at every step of a patch's life.
    private static let loaded = Mutex<[String: [UInt8]]>([:])

    /// The MAC of `object` (a ledger without its `mac`), as written in ledger.json.
    func mac(of object: JSONObject, with key: SymmetricKey) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Self.message(object), using: key)
        return Self.prefix + code.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }

    /// Whether `mac` is the MAC of `object`, compared in constant time.
    func verifies(_ mac: String, of object: JSONObject, with key: SymmetricKey) -> Bool {
        guard mac.hasPrefix(Self.prefix), let code = Self.bytes(hex: mac.dropFirst(Self.prefix.count)), code.count == SHA256.byteCount else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Self.message(object), using: key)
    }

    /// The key; nil when there is none yet.
    func existing() throws(PatchError) -> SymmetricKey? {
        if let bytes = Self.loaded.withLock({ $0[path] }) { return SymmetricKey(data: bytes) }
        let text: String?
        do {
            text = try FileSystem.textIfPresent(atPath: path)
        } catch {
            throw PatchError(.storage, "the host's patch ledger key \(path): cannot read: \(error.reason)")
        }
        guard let text else { return nil }
        guard let bytes = Base64.decode(text.filter { !$0.isWhitespace }), bytes.count == 32 else {
            throw PatchError(.storage, "the host's patch ledger key \(path): expected 32 bytes in base64")
        }
        Self.loaded.withLock { $0[path] = bytes }
        return SymmetricKey(data: bytes)
    }

    /// The key, made now if there is none. Two makers at once (processes, or threads of one)
    /// agree on one: each writes a file of its own and links it into place, and the one that
    /// finds the key there already reads it.
    func existingOrNew() throws(PatchError) -> SymmetricKey {
        if let key = try existing() { return key }
        let folder = FileSystem.directory(of: path)
        let fresh = path + ".new-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        do {
            try FileSystem.createDirectories(folder)
            try FileSystem.createNew(fresh, text: Base64.encode(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }) + "\n", mode: 0o600)
        } catch {
            FileSystem.remove(fresh)
            throw PatchError(.storage, "cannot make the host's patch ledger key \(path): \(error.description)")
        }
        let linked = link(fresh, path) == 0 ? 0 : errno
        FileSystem.remove(fresh)
        guard linked == 0 || linked == EEXIST else {
            throw PatchError(.storage, "cannot make the host's patch ledger key \(path): \(String(cString: strerror(linked)))")
        }
        guard let key = try existing() else { throw PatchError(.storage, "the host's patch ledger key \(path) vanished as it was made") }
        return key
    }

    /// Whether the key sits inside `dataDirectory`, within reach of whatever writes there (a data
    /// folder given as `--data-dir ~/.local`, say): such a key would protect nothing.
    func isInside(_ dataDirectory: String) -> Bool {
        guard let data = FileSystem.realPath(dataDirectory) else { return false }
        let folder = FileSystem.directory(of: FileSystem.absolute(path))
        let resolved = FileSystem.realPath(folder) ?? folder
        return resolved == data || resolved.hasPrefix(data == "/" ? "/" : data + "/")
    }

    private static let prefix = "hmac-sha256:"

    /// What is authenticated: a label, then the ledger in canonical form (keys sorted, no
    /// whitespace), so that the MAC does not depend on how the file was laid out.
    private static func message(_ object: JSONObject) -> [UInt8] {
        Array("hybridhost patch ledger\n".utf8) + JSONWriter.bytes(.object(object), options: .init(sortedKeys: true))
    }

    private static func bytes(hex: Substring) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 48...57: digit - 48
        case 97...102: digit - 87
        default: nil
        }
    }
}
