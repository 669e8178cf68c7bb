import Engine

/// The native half of `js/web/crypto.js`: random values, digests and the SubtleCrypto operations
/// on keys held in native memory (``WebCryptoKeyHandle``). JS has done Web IDL conversion and the
/// specification's normalization; each native takes plain values (names, numbers, Uint8Arrays
/// whose bytes it copies at once, as the specification's "get a copy of the bytes" says) and, for
/// an operation, a settle function as its last argument (see ``WebCryptoTask``).
/// Key material never becomes a JS value except through `exportSecret` / `exportKey`.
enum WebCryptoFunctions {
    static var natives: [String: NativeFunctionBody] { [
        "getRandomValues": getRandomValues,
        "randomUUID": { args in args.context.string(WebCryptoRandom.uuid()) },
        "digest": digest,
        "importSecret": { args in args.context.makeHostObject(WebCryptoKeyHandle(secret: try bytes(args[0], args.context))) },
        "generateSecret": { args in
            args.context.makeHostObject(WebCryptoKeyHandle(secret: WebCryptoRandom.bytes(try count(args[0], args.context))))
        },
        "exportSecret": { args in
            WebCryptoTask.uint8Array(try handle(args[0], args.context).secret(for: "exportKey").bytes, args.context)
        },
        "secretLength": { args in args.context.number(Double(try handle(args[0], args.context).secret(for: "key length").bytes.count)) },
        "hmacSign": hmacSign,
        "hmacVerify": hmacVerify,
        "aesEncrypt": { args in try aes(args, decrypt: false) },
        "aesDecrypt": { args in try aes(args, decrypt: true) },
        "aesWrap": { args in try keyWrap(args, unwrap: false) },
        "aesUnwrap": { args in try keyWrap(args, unwrap: true) },
        "pbkdf2": pbkdf2,
        "hkdf": hkdf,
    ] }

    // MARK: - Crypto

    /// `native.getRandomValues(array)`: fills an integer typed array (JS has checked its type and
    /// length) with random bytes, in place.
    static func getRandomValues(_ args: NativeArguments) throws -> ScriptValue? {
        guard args.context.withBytes(of: args[0], { WebCryptoRandom.fill($0) }) != nil else {
            throw NativeFunctionError("getRandomValues: expected an integer typed array")
        }
        return nil
    }

    // MARK: - SubtleCrypto

    /// `native.digest(hash, data, settle)`.
    static func digest(_ args: NativeArguments) throws -> ScriptValue? {
        let hash = try hashArgument(args[0], args.context)
        // A small input is hashed where it lies: no copy, no thread hop.
        if let small = args.context.withBytes(of: args[1], { bytes in
            bytes.count <= WebCryptoTask.inlineLimit ? hash.digest(UnsafeRawBufferPointer(bytes)) : nil
        }), let small {
            return WebCryptoTask.uint8Array(small, args.context)
        }
        let data = try bytes(args[1], args.context)
        return try WebCryptoTask.run(args, settle: 2, inline: false) {
            .bytes(data.withUnsafeBytes { hash.digest($0) })
        }
    }

    /// `native.hmacSign(hash, key, data, settle)`.
    static func hmacSign(_ args: NativeArguments) throws -> ScriptValue? {
        let hash = try hashArgument(args[0], args.context)
        let key = try secret(args[1], args.context, "sign")
        let data = try bytes(args[2], args.context)
        return try WebCryptoTask.run(args, settle: 3, inline: data.count <= WebCryptoTask.inlineLimit) {
            .bytes(WebCryptoSymmetric.hmacSign(hash: hash, key: key, data: data))
        }
    }

    /// `native.hmacVerify(hash, key, signature, data, settle)`.
    static func hmacVerify(_ args: NativeArguments) throws -> ScriptValue? {
        let hash = try hashArgument(args[0], args.context)
        let key = try secret(args[1], args.context, "verify")
        let signature = try bytes(args[2], args.context)
        let data = try bytes(args[3], args.context)
        return try WebCryptoTask.run(args, settle: 4, inline: data.count <= WebCryptoTask.inlineLimit) {
            .boolean(WebCryptoSymmetric.hmacVerify(hash: hash, key: key, signature: signature, data: data))
        }
    }

    /// `native.aesEncrypt(name, key, data, iv, additionalData, length, settle)` and `aesDecrypt`:
    /// `iv` is AES-CTR's counter, `additionalData` AES-GCM's (or undefined), `length` AES-GCM's
    /// tagLength or AES-CTR's counter length (unused by AES-CBC).
    static func aes(_ args: NativeArguments, decrypt: Bool) throws -> ScriptValue? {
        let context = args.context
        let name = context.stringify(args[0])
        let key = try secret(args[1], context, decrypt ? "decrypt" : "encrypt")
        let data = try bytes(args[2], context)
        let iv = try bytes(args[3], context)
        let additionalData = context.isUndefined(args[4]) ? [] : try bytes(args[4], context)
        let length = Int(exactly: context.numberValue(args[5])) ?? 0
        let work: @Sendable () throws(WebCryptoError) -> WebCryptoTask.Outcome
        switch name {
        case "AES-GCM":
            work = { () throws(WebCryptoError) in
                .data(decrypt
                    ? try WebCryptoSymmetric.gcmDecrypt(key: key, iv: iv, additionalData: additionalData, tagLength: length, ciphertext: data)
                    : try WebCryptoSymmetric.gcmEncrypt(key: key, iv: iv, additionalData: additionalData, tagLength: length, plaintext: data))
            }
        case "AES-CBC":
            work = { () throws(WebCryptoError) in
                .data(decrypt
                    ? try WebCryptoSymmetric.cbcDecrypt(key: key, iv: iv, ciphertext: data)
                    : try WebCryptoSymmetric.cbcEncrypt(key: key, iv: iv, plaintext: data))
            }
        case "AES-CTR":
            work = { () throws(WebCryptoError) in .data(try WebCryptoSymmetric.ctr(key: key, counter: iv, length: length, data: data)) }
        default:
            throw NativeFunctionError("aesEncrypt: expected AES-GCM, AES-CBC or AES-CTR, got \(name)")
        }
        return try WebCryptoTask.run(args, settle: 6, inline: data.count <= WebCryptoTask.inlineLimit, work)
    }

    /// `native.aesWrap(key, bytes, settle)` and `aesUnwrap`: AES-KW.
    static func keyWrap(_ args: NativeArguments, unwrap: Bool) throws -> ScriptValue? {
        let key = try secret(args[0], args.context, unwrap ? "unwrapKey" : "wrapKey")
        let data = try bytes(args[1], args.context)
        return try WebCryptoTask.run(args, settle: 2, inline: true) { () throws(WebCryptoError) in
            .bytes(unwrap ? try WebCryptoSymmetric.unwrap(key: key, bytes: data) : try WebCryptoSymmetric.wrap(key: key, bytes: data))
        }
    }

    /// `native.pbkdf2(key, hash, salt, iterations, bits, settle)`: always off the JS thread, as
    /// its cost is the iterations', not the input's.
    static func pbkdf2(_ args: NativeArguments) throws -> ScriptValue? {
        let context = args.context
        let key = try secret(args[0], context, "deriveBits")
        let hash = try hashArgument(args[1], context)
        let salt = try bytes(args[2], context)
        let iterations = try count(args[3], context)
        let bits = try count(args[4], context)
        return try WebCryptoTask.run(args, settle: 5, inline: iterations <= 1000) { () throws(WebCryptoError) in
            .bytes(try WebCryptoSymmetric.pbkdf2(key: key, hash: hash, salt: salt, iterations: iterations, bits: bits))
        }
    }

    /// `native.hkdf(key, hash, salt, info, bits, settle)`.
    static func hkdf(_ args: NativeArguments) throws -> ScriptValue? {
        let context = args.context
        let key = try secret(args[0], context, "deriveBits")
        let hash = try hashArgument(args[1], context)
        let salt = try bytes(args[2], context)
        let info = try bytes(args[3], context)
        let bits = try count(args[4], context)
        return try WebCryptoTask.run(args, settle: 5, inline: true) { () throws(WebCryptoError) in
            .bytes(try WebCryptoSymmetric.hkdf(key: key, hash: hash, salt: salt, info: info, bits: bits))
        }
    }

    // MARK: - Arguments

    /// A copy of the bytes of a typed array or ArrayBuffer.
    static func bytes(_ value: ScriptValue, _ context: ScriptContext) throws -> [UInt8] {
        guard let bytes = context.withBytes(of: value, { [UInt8](UnsafeRawBufferPointer($0)) }) else {
            throw NativeFunctionError("expected a Uint8Array or an ArrayBuffer")
        }
        return bytes
    }

    static func handle(_ value: ScriptValue, _ context: ScriptContext) throws -> WebCryptoKeyHandle {
        guard let handle = context.hostObject(value) as? WebCryptoKeyHandle else {
            throw NativeFunctionError("expected a CryptoKey's native handle")
        }
        return handle
    }

    static func secret(_ value: ScriptValue, _ context: ScriptContext, _ what: String) throws -> WebCryptoKeyHandle.Secret {
        do { return try handle(value, context).secret(for: what) } catch let error as WebCryptoError {
            throw NativeFunctionError(error.message, name: error.name)
        }
    }

    static func hashArgument(_ value: ScriptValue, _ context: ScriptContext) throws -> WebCryptoHash {
        do { return try WebCryptoHash(name: context.stringify(value)) } catch {
            throw NativeFunctionError(error.message, name: error.name)
        }
    }

    /// A non-negative integer argument.
    static func count(_ value: ScriptValue, _ context: ScriptContext) throws -> Int {
        let number = context.numberValue(value)
        guard let count = Int(exactly: number), count >= 0 else {
            throw NativeFunctionError("expected a non-negative integer, got \(number)")
        }
        return count
    }
}
