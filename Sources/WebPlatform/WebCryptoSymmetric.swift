import Crypto
import Foundation
import _CryptoExtras

/// WebCrypto's symmetric algorithms over swift-crypto: HMAC, AES-GCM, AES-CBC, AES-CTR, AES-KW,
/// PBKDF2 and HKDF. JS has normalized every parameter and checked the key's algorithm and usages;
/// what is left here are the checks that need the bytes (lengths, tags, padding), each an
/// OperationError or DataError as the specification names it. Runs on any thread.
enum WebCryptoSymmetric {
    // MARK: - HMAC

    static func hmacSign(hash: WebCryptoHash, key: WebCryptoKeyHandle.Secret, data: [UInt8]) -> [UInt8] {
        data.withUnsafeBytes { hash.hmac(key: key.key, $0) }
    }

    static func hmacVerify(hash: WebCryptoHash, key: WebCryptoKeyHandle.Secret, signature: [UInt8], data: [UInt8]) -> Bool {
        constantTimeEqual(hmacSign(hash: hash, key: key, data: data), signature)
    }

    // MARK: - AES-GCM

    /// The tag lengths (bits) AesGcmParams allows.
    static let gcmTagLengths: Set<Int> = [32, 64, 96, 104, 112, 120, 128]

    static func gcmNonce(_ iv: [UInt8]) throws(WebCryptoError) -> AES.GCM.Nonce {
        // swift-crypto (BoringSSL's EVP_AEAD) takes nonces of 12 bytes or more.
        guard iv.count >= 12 else {
            throw .operation("AES-GCM: expected an iv of at least 12 bytes (swift-crypto takes no shorter one), got \(iv.count)")
        }
        do { return try AES.GCM.Nonce(data: iv) } catch { throw .operation("AES-GCM: the iv of \(iv.count) bytes was refused: \(error)") }
    }

    static func gcmCheck(_ key: WebCryptoKeyHandle.Secret, tagLength: Int) throws(WebCryptoError) {
        guard gcmTagLengths.contains(tagLength) else {
            throw .operation("AES-GCM: expected a tagLength of 32, 64, 96, 104, 112, 120 or 128, got \(tagLength)")
        }
        try aesKeyCheck(key, "AES-GCM")
    }

    static func gcmEncrypt(key: WebCryptoKeyHandle.Secret, iv: [UInt8], additionalData: [UInt8], tagLength: Int,
                           plaintext: [UInt8]) throws(WebCryptoError) -> Data {
        try gcmCheck(key, tagLength: tagLength)
        let nonce = try gcmNonce(iv)
        let box: AES.GCM.SealedBox
        do { box = try AES.GCM.seal(plaintext, using: key.key, nonce: nonce, authenticating: additionalData) } catch {
            throw .operation("AES-GCM: encryption failed: \(error)")
        }
        // The ciphertext, then the tag's first tagLength bits. With a 12-byte iv the sealed box's
        // combined bytes (iv, ciphertext, tag) hold exactly that run: a slice of them, not a copy.
        let cut = 16 - tagLength / 8  // swift-crypto's tag is 16 bytes
        if let combined = box.combined {
            return combined[(combined.startIndex + iv.count)..<(combined.endIndex - cut)]
        }
        var output = Data(capacity: box.ciphertext.count + tagLength / 8)
        output.append(box.ciphertext)
        output.append(box.tag.prefix(tagLength / 8))
        return output
    }

    static func gcmDecrypt(key: WebCryptoKeyHandle.Secret, iv: [UInt8], additionalData: [UInt8], tagLength: Int,
                           ciphertext data: [UInt8]) throws(WebCryptoError) -> Data {
        try gcmCheck(key, tagLength: tagLength)
        let tagCount = tagLength / 8
        guard data.count >= tagCount else {
            throw .operation("AES-GCM: expected at least the \(tagCount) bytes of the tag, got \(data.count) bytes")
        }
        let nonce = try gcmNonce(iv)
        let ciphertext = data[..<(data.count - tagCount)]
        let tag = data[(data.count - tagCount)...]
        if tagCount == 16 {
            do {
                let box = try AES.GCM.SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag)
                return try AES.GCM.open(box, using: key.key, authenticating: additionalData)
            } catch {
                throw .operation("AES-GCM: the data is not authentic (the tag does not match)")
            }
        }
        // swift-crypto checks whole tags only. A shorter one: the keystream is what sealing zeros
        // gives, the plaintext is the ciphertext XORed with it, and sealing that plaintext again
        // gives the whole tag, whose first bytes must be the ones given.
        do {
            let keystream = [UInt8](try AES.GCM.seal([UInt8](repeating: 0, count: ciphertext.count), using: key.key, nonce: nonce).ciphertext)
            var plaintext = [UInt8](ciphertext)
            for index in plaintext.indices { plaintext[index] ^= keystream[index] }
            let sealed = try AES.GCM.seal(plaintext, using: key.key, nonce: nonce, authenticating: additionalData)
            guard constantTimeEqual(Array(sealed.tag.prefix(tagCount)), Array(tag)) else {
                throw WebCryptoError.operation("AES-GCM: the data is not authentic (the tag does not match)")
            }
            return Data(plaintext)
        } catch let error as WebCryptoError {
            throw error
        } catch {
            throw .operation("AES-GCM: decryption failed: \(error)")
        }
    }

    // MARK: - AES-CBC

    static func cbcIV(_ iv: [UInt8]) throws(WebCryptoError) -> AES._CBC.IV {
        guard iv.count == 16 else { throw .operation("AES-CBC: expected an iv of 16 bytes, got \(iv.count)") }
        do { return try AES._CBC.IV(ivBytes: iv) } catch { throw .operation("AES-CBC: the iv was refused: \(error)") }
    }

    static func cbcEncrypt(key: WebCryptoKeyHandle.Secret, iv: [UInt8], plaintext: [UInt8]) throws(WebCryptoError) -> Data {
        try aesKeyCheck(key, "AES-CBC")
        let iv = try cbcIV(iv)
        do { return try AES._CBC.encrypt(plaintext, using: key.key, iv: iv) } catch {
            throw .operation("AES-CBC: encryption failed: \(error)")
        }
    }

    static func cbcDecrypt(key: WebCryptoKeyHandle.Secret, iv: [UInt8], ciphertext: [UInt8]) throws(WebCryptoError) -> Data {
        try aesKeyCheck(key, "AES-CBC")
        let iv = try cbcIV(iv)
        guard ciphertext.count % 16 == 0, !ciphertext.isEmpty else {
            throw .operation("AES-CBC: expected a ciphertext of whole 16-byte blocks, got \(ciphertext.count) bytes")
        }
        do { return try AES._CBC.decrypt(ciphertext, using: key.key, iv: iv) } catch {
            throw .operation("AES-CBC: decryption failed (bad padding)")
        }
    }

    // MARK: - AES-CTR

    /// AES-CTR where only the counter block's rightmost `length` bits count (and wrap to zero), as
    /// AesCtrParams says; swift-crypto increments all 128, so the data is cut where those bits wrap.
    static func ctr(key: WebCryptoKeyHandle.Secret, counter: [UInt8], length: Int, data: [UInt8]) throws(WebCryptoError) -> Data {
        try aesKeyCheck(key, "AES-CTR")
        guard counter.count == 16 else { throw .operation("AES-CTR: expected a counter of 16 bytes, got \(counter.count)") }
        guard (1...128).contains(length) else { throw .operation("AES-CTR: expected a length of 1 to 128 bits, got \(length)") }
        let blocks = UInt128((data.count + 15) / 16)
        let value = counter.reduce(UInt128(0)) { $0 << 8 | UInt128($1) }
        var first = data.count
        var restart = counter
        if length < 128 {
            let mask = (UInt128(1) << length) - 1
            guard blocks <= mask + 1 else {
                throw .operation("AES-CTR: \(data.count) bytes need more blocks than a \(length)-bit counter has")
            }
            let beforeWrap = mask - (value & mask) + 1
            if blocks > beforeWrap {
                first = Int(beforeWrap) * 16
                let zeroed = value & ~mask
                restart = (0..<16).map { UInt8(truncatingIfNeeded: zeroed >> (8 * (15 - $0))) }
            }
        }
        do {
            var output = try AES._CTR.encrypt(data[..<first], using: key.key, nonce: AES._CTR.Nonce(nonceBytes: counter))
            if first < data.count {
                output.append(try AES._CTR.encrypt(data[first...], using: key.key, nonce: AES._CTR.Nonce(nonceBytes: restart)))
            }
            return output
        } catch {
            throw .operation("AES-CTR: failed: \(error)")
        }
    }

    // MARK: - AES-KW

    static func wrap(key: WebCryptoKeyHandle.Secret, bytes: [UInt8]) throws(WebCryptoError) -> [UInt8] {
        try aesKeyCheck(key, "AES-KW")
        guard bytes.count % 8 == 0, bytes.count >= 16 else {
            throw .operation("AES-KW: expected key data of 16 bytes or more in whole 8-byte blocks, got \(bytes.count) bytes")
        }
        do { return Array(try AES.KeyWrap.wrap(SymmetricKey(data: bytes), using: key.key)) } catch {
            throw .operation("AES-KW: wrapping failed: \(error)")
        }
    }

    static func unwrap(key: WebCryptoKeyHandle.Secret, bytes: [UInt8]) throws(WebCryptoError) -> [UInt8] {
        try aesKeyCheck(key, "AES-KW")
        guard bytes.count % 8 == 0, bytes.count >= 24 else {
            throw .operation("AES-KW: expected wrapped data of 24 bytes or more in whole 8-byte blocks, got \(bytes.count) bytes")
        }
        do { return try AES.KeyWrap.unwrap(bytes, using: key.key).withUnsafeBytes { Array($0) } } catch {
            throw .operation("AES-KW: the wrapped key is not authentic (its integrity check failed)")
        }
    }

    // MARK: - Key derivation

    static func pbkdf2(key: WebCryptoKeyHandle.Secret, hash: WebCryptoHash, salt: [UInt8], iterations: Int, bits: Int) throws(WebCryptoError) -> [UInt8] {
        guard bits % 8 == 0 else { throw .operation("PBKDF2: expected a length in whole bytes (a multiple of 8), got \(bits)") }
        guard iterations > 0 else { throw .operation("PBKDF2: expected at least 1 iteration, got 0") }
        if bits == 0 { return [] }
        do {
            return try KDF.Insecure.PBKDF2.deriveKey(from: key.bytes, salt: salt, using: hash.pbkdf2, outputByteCount: bits / 8,
                                                     unsafeUncheckedRounds: iterations).withUnsafeBytes { Array($0) }
        } catch {
            throw .operation("PBKDF2: derivation failed: \(error)")
        }
    }

    static func hkdf(key: WebCryptoKeyHandle.Secret, hash: WebCryptoHash, salt: [UInt8], info: [UInt8], bits: Int) throws(WebCryptoError) -> [UInt8] {
        guard bits % 8 == 0 else { throw .operation("HKDF: expected a length in whole bytes (a multiple of 8), got \(bits)") }
        guard bits / 8 <= 255 * hash.byteCount else {
            throw .operation("HKDF: \(hash.rawValue) derives at most \(255 * hash.byteCount * 8) bits, asked for \(bits)")
        }
        if bits == 0 { return [] }
        return hash.hkdf(key: key.key, salt: salt, info: info, byteCount: bits / 8)
    }

    // MARK: - Shared

    static func aesKeyCheck(_ key: WebCryptoKeyHandle.Secret, _ algorithm: String) throws(WebCryptoError) {
        guard [16, 24, 32].contains(key.bytes.count) else {
            throw .operation("\(algorithm): expected a key of 128, 192 or 256 bits, got \(key.bytes.count * 8)")
        }
    }

    /// Equality that takes the same time wherever the first difference is.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
