import CLibCrypto

/// What swift-crypto lacks, over OpenSSL 3's libcrypto (CLibCrypto, loaded the first time one of
/// these runs): Ed448 and X448 keys, signatures and key agreement; RSA-OAEP with a label or with
/// SHA-384/512; RSA-PSS with a salt of any length. Only the primitives: AsymmetricCrypto frames the
/// keys and checks the inputs as the Web Cryptography API says. A failure is an OperationError with
/// OpenSSL's reason (a DataError for bytes that are no key), and leaves OpenSSL's error queue for
/// the thread empty.
enum LibCrypto {
    enum Curve448: Sendable {
        case ed448
        case x448

        var type: Int32 {
            switch self {
            case .ed448: EVP_PKEY_ED448
            case .x448: EVP_PKEY_X448
            }
        }

        /// The length of a private key, a public key and (Ed448) half a signature, in bytes.
        var keyLength: Int {
            switch self {
            case .ed448: 57
            case .x448: 56
            }
        }

        var name: String {
            switch self {
            case .ed448: "Ed448"
            case .x448: "X448"
            }
        }
    }

    // MARK: Curve448

    static func generate(_ curve: Curve448) throws(WebCryptoError) -> LibCryptoKey {
        guard let context = hh_EVP_PKEY_CTX_new_id(curve.type) else { throw failure("generating an \(curve.name) key") }
        defer { hh_EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard hh_EVP_PKEY_keygen_init(context) > 0, hh_EVP_PKEY_keygen(context, &key) > 0, let key else {
            throw failure("generating an \(curve.name) key")
        }
        return LibCryptoKey(owning: key)
    }

    /// The key of `bytes`, a raw private key (RFC 8032's secret, RFC 7748's scalar) or public key
    /// of the curve's length.
    static func key(_ curve: Curve448, bytes: [UInt8], isPrivate: Bool) throws(WebCryptoError) -> LibCryptoKey {
        let key = isPrivate ? hh_EVP_PKEY_new_raw_private_key(curve.type, bytes, bytes.count)
                            : hh_EVP_PKEY_new_raw_public_key(curve.type, bytes, bytes.count)
        guard let key else {
            hh_ERR_clear_error()
            throw .data("not a valid \(curve.name) \(isPrivate ? "private" : "public") key")
        }
        return LibCryptoKey(owning: key)
    }

    /// A key of the curve holding only the public half of `key`.
    static func publicKey(_ curve: Curve448, of key: LibCryptoKey) throws(WebCryptoError) -> LibCryptoKey {
        try Self.key(curve, bytes: rawPublicKey(key), isPrivate: false)
    }

    static func rawPublicKey(_ key: LibCryptoKey) -> [UInt8] {
        raw(key) { hh_EVP_PKEY_get_raw_public_key($0, $1, $2) }
    }

    static func rawPrivateKey(_ key: LibCryptoKey) -> [UInt8] {
        raw(key) { hh_EVP_PKEY_get_raw_private_key($0, $1, $2) }
    }

    /// A Curve448 key's raw bytes, which OpenSSL always has for these keys: no failure to report.
    private static func raw(_ key: LibCryptoKey,
                            _ get: (OpaquePointer, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>) -> Int32) -> [UInt8] {
        var length = 0
        let sized = get(key.pointer, nil, &length)
        var bytes = [UInt8](repeating: 0, count: length)
        let copied = get(key.pointer, &bytes, &length)
        precondition(sized > 0 && copied > 0, "libcrypto gave no raw bytes for a Curve448 key")
        return Array(bytes.prefix(length))
    }

    /// Ed448 (RFC 8032's pure Ed448, an empty context).
    static func signEd448(_ key: LibCryptoKey, data: [UInt8]) throws(WebCryptoError) -> [UInt8] {
        try sign(key, digest: nil, what: "Ed448 signing", data: data) { _ in true }
    }

    /// False for a signature that does not verify, including one of the wrong length.
    static func verifyEd448(_ key: LibCryptoKey, signature: [UInt8], data: [UInt8]) throws(WebCryptoError) -> Bool {
        try verify(key, digest: nil, what: "Ed448 verifying", signature: signature, data: data) { _ in true }
    }

    /// X448's shared secret. OpenSSL refuses an all-zero one (a public key of small order).
    static func deriveX448(_ key: LibCryptoKey, peer: LibCryptoKey) throws(WebCryptoError) -> [UInt8] {
        guard let context = hh_EVP_PKEY_CTX_new(key.pointer) else { throw failure("X448 key agreement") }
        defer { hh_EVP_PKEY_CTX_free(context) }
        var length = 0
        guard hh_EVP_PKEY_derive_init(context) > 0, hh_EVP_PKEY_derive_set_peer(context, peer.pointer) > 0,
              hh_EVP_PKEY_derive(context, nil, &length) > 0 else { throw failure("X448 key agreement") }
        var secret = [UInt8](repeating: 0, count: length)
        guard hh_EVP_PKEY_derive(context, &secret, &length) > 0 else { throw failure("X448 key agreement") }
        return Array(secret.prefix(length))
    }

    // MARK: RSA

    /// An RSA private key from its PKCS#1 RSAPrivateKey (swift-crypto's `derRepresentation`).
    static func rsaPrivateKey(pkcs1 der: [UInt8]) throws(WebCryptoError) -> LibCryptoKey {
        guard let key = hh_d2i_PrivateKey(EVP_PKEY_RSA, der, der.count) else { throw failure("reading an RSA private key") }
        return LibCryptoKey(owning: key)
    }

    /// An RSA public key from its PKCS#1 RSAPublicKey (swift-crypto's `pkcs1DERRepresentation`).
    static func rsaPublicKey(pkcs1 der: [UInt8]) throws(WebCryptoError) -> LibCryptoKey {
        guard let key = hh_d2i_PublicKey(EVP_PKEY_RSA, der, der.count) else { throw failure("reading an RSA public key") }
        return LibCryptoKey(owning: key)
    }

    /// RSA-PSS with MGF1 over the same hash, as WebCrypto specifies.
    static func signPSS(_ key: LibCryptoKey, hash: WebCryptoHash, saltLength: Int, data: [UInt8]) throws(WebCryptoError) -> [UInt8] {
        guard let salt = Int32(exactly: saltLength) else { throw .operation("RSA-PSS: a salt of \(saltLength) bytes is longer than any key allows") }
        let digest = try digest(hash)
        return try sign(key, digest: digest, what: "RSA-PSS signing with a \(saltLength)-byte salt", data: data) { context in
            pss(context, digest: digest, saltLength: salt)
        }
    }

    static func verifyPSS(_ key: LibCryptoKey, hash: WebCryptoHash, saltLength: Int, signature: [UInt8], data: [UInt8]) throws(WebCryptoError) -> Bool {
        guard let salt = Int32(exactly: saltLength) else { return false }
        let digest = try digest(hash)
        return try verify(key, digest: digest, what: "RSA-PSS verifying", signature: signature, data: data) { context in
            pss(context, digest: digest, saltLength: salt)
        }
    }

    private static func pss(_ context: OpaquePointer, digest: OpaquePointer, saltLength: Int32) -> Bool {
        hh_EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PSS_PADDING) > 0
            && hh_EVP_PKEY_CTX_set_rsa_pss_saltlen(context, saltLength) > 0
            && hh_EVP_PKEY_CTX_set_rsa_mgf1_md(context, digest) > 0
    }

    /// RSA-OAEP with MGF1 over the same hash; an empty label is no label.
    static func encryptOAEP(_ key: LibCryptoKey, hash: WebCryptoHash, label: [UInt8], data: [UInt8]) throws(WebCryptoError) -> [UInt8] {
        try oaep(key, hash: hash, label: label, data: data, what: "RSA-OAEP encryption",
                 initialize: { hh_EVP_PKEY_encrypt_init($0) }, run: { hh_EVP_PKEY_encrypt($0, $1, $2, $3, $4) })
    }

    static func decryptOAEP(_ key: LibCryptoKey, hash: WebCryptoHash, label: [UInt8], data: [UInt8]) throws(WebCryptoError) -> [UInt8] {
        try oaep(key, hash: hash, label: label, data: data, what: "RSA-OAEP decryption",
                 initialize: { hh_EVP_PKEY_decrypt_init($0) }, run: { hh_EVP_PKEY_decrypt($0, $1, $2, $3, $4) })
    }

    private static func oaep(_ key: LibCryptoKey, hash: WebCryptoHash, label: [UInt8], data: [UInt8], what: String,
                             initialize: (OpaquePointer) -> Int32,
                             run: (OpaquePointer, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>, UnsafePointer<UInt8>, Int) -> Int32)
        throws(WebCryptoError) -> [UInt8] {
        guard let labelLength = Int32(exactly: label.count) else { throw .operation("\(what): a label of \(label.count) bytes is too long") }
        let digest = try digest(hash)
        guard let context = hh_EVP_PKEY_CTX_new(key.pointer) else { throw failure(what) }
        defer { hh_EVP_PKEY_CTX_free(context) }
        guard initialize(context) > 0, hh_EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_OAEP_PADDING) > 0,
              hh_EVP_PKEY_CTX_set_rsa_oaep_md(context, digest) > 0, hh_EVP_PKEY_CTX_set_rsa_mgf1_md(context, digest) > 0,
              label.isEmpty || hh_EVP_PKEY_CTX_set_rsa_oaep_label(context, label, labelLength) > 0 else { throw failure(what) }
        var length = 0
        guard run(context, nil, &length, data, data.count) > 0 else { throw failure(what) }
        var output = [UInt8](repeating: 0, count: length)
        guard run(context, &output, &length, data, data.count) > 0 else { throw failure(what) }
        return Array(output.prefix(length))
    }

    // MARK: Common steps

    private static func digest(_ hash: WebCryptoHash) throws(WebCryptoError) -> OpaquePointer {
        let name = switch hash {
        case .sha1: "SHA1"
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        case .sha512: "SHA512"
        }
        guard let digest = hh_EVP_get_digestbyname(name) else { throw failure("finding the digest \(hash.rawValue)") }
        return digest
    }

    /// A one-shot signature: `digest` nil for EdDSA, which hashes by itself; `configure` sets the
    /// padding on the key's context.
    private static func sign(_ key: LibCryptoKey, digest: OpaquePointer?, what: String, data: [UInt8],
                             configure: (OpaquePointer) -> Bool) throws(WebCryptoError) -> [UInt8] {
        guard let context = hh_EVP_MD_CTX_new() else { throw failure(what) }
        defer { hh_EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        var length = 0
        guard hh_EVP_DigestSignInit(context, &keyContext, digest, key.pointer) > 0, let keyContext, configure(keyContext),
              hh_EVP_DigestSign(context, nil, &length, data, data.count) > 0 else { throw failure(what) }
        var signature = [UInt8](repeating: 0, count: length)
        guard hh_EVP_DigestSign(context, &signature, &length, data, data.count) > 0 else { throw failure(what) }
        return Array(signature.prefix(length))
    }

    private static func verify(_ key: LibCryptoKey, digest: OpaquePointer?, what: String, signature: [UInt8], data: [UInt8],
                               configure: (OpaquePointer) -> Bool) throws(WebCryptoError) -> Bool {
        guard let context = hh_EVP_MD_CTX_new() else { throw failure(what) }
        defer { hh_EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard hh_EVP_DigestVerifyInit(context, &keyContext, digest, key.pointer) > 0, let keyContext, configure(keyContext) else {
            throw failure(what)
        }
        let valid = hh_EVP_DigestVerify(context, signature, signature.count, data, data.count) == 1
        // A signature that does not verify leaves its reason queued.
        hh_ERR_clear_error()
        return valid
    }

    /// An OperationError naming what failed and OpenSSL's first queued reason; empties the queue.
    private static func failure(_ what: String) -> WebCryptoError {
        var text = [CChar](repeating: 0, count: 256)
        let code = hh_ERR_get_error()
        if code != 0 { hh_ERR_error_string_n(code, &text, text.count) }
        hh_ERR_clear_error()
        let reason = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return .operation("\(what) failed\(reason.isEmpty ? "" : " (libcrypto: \(reason))")")
    }
}
