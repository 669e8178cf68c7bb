import CLibCrypto

/// A key in OpenSSL's memory (an `EVP_PKEY`), freed with its last reference: an Ed448 or X448 key
/// for as long as its CryptoKey lives, or an RSA key made for one operation swift-crypto cannot do.
// @unchecked: never changed once made, and OpenSSL allows a key that is not changed to be used on several threads at once.
final class LibCryptoKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        hh_EVP_PKEY_free(pointer)
    }
}
