import Engine

/// The natives of the asymmetric algorithms (ECDSA, ECDH, Ed25519, X25519, Ed448, X448,
/// RSASSA-PKCS1-v1_5, RSA-PSS, RSA-OAEP), between `js/web/crypto.js` and ``AsymmetricCrypto``.
/// RSA's private-key work (generation above all) runs off the JS thread; the elliptic curves' runs
/// inline, where it costs less than the thread hop.
extension WebCryptoFunctions {
    static var asymmetricNatives: [String: NativeFunctionBody] { [
        "asymmetricGenerate": asymmetricGenerate,
        "asymmetricImport": asymmetricImport,
        "asymmetricImportJWK": asymmetricImportJWK,
        "asymmetricExport": { args in
            let key = try asymmetricKey(args[0], args.context)
            let format = args.context.stringify(args[1])
            return WebCryptoTask.uint8Array(try rethrow { () throws(WebCryptoError) in try AsymmetricCrypto.export(key, format: format) },
                                            args.context)
        },
        "asymmetricExportJWK": asymmetricExportJWK,
        "asymmetricInfo": asymmetricInfo,
        "asymmetricSign": asymmetricSign,
        "asymmetricVerify": asymmetricVerify,
        "asymmetricEncrypt": { args in try asymmetricCipher(args, decrypt: false) },
        "asymmetricDecrypt": { args in try asymmetricCipher(args, decrypt: true) },
        "asymmetricDeriveBits": asymmetricDeriveBits,
    ] }

    static let rsaAlgorithms: Set<String> = ["RSASSA-PKCS1-v1_5", "RSA-PSS", "RSA-OAEP"]

    /// `native.asymmetricGenerate(algorithm, namedCurve, modulusLength, publicExponent, settle)`:
    /// `{ privateKey, publicKey }`, two handles.
    static func asymmetricGenerate(_ args: NativeArguments) throws -> ScriptValue? {
        let context = args.context
        let algorithm = context.stringify(args[0])
        let namedCurve = optionalString(args[1], context)
        let modulusLength = context.isNullish(args[2]) ? nil : try count(args[2], context)
        let publicExponent = context.isNullish(args[3]) ? nil : try bytes(args[3], context)
        return try WebCryptoTask.run(args, settle: 4, inline: !rsaAlgorithms.contains(algorithm)) { () throws(WebCryptoError) in
            let pair = try AsymmetricCrypto.generate(algorithm: algorithm, namedCurve: namedCurve, modulusLength: modulusLength,
                                                     publicExponent: publicExponent)
            return .keyPair(privateKey: WebCryptoKeyHandle(asymmetric: pair.privateKey), publicKey: WebCryptoKeyHandle(asymmetric: pair.publicKey))
        }
    }

    /// `native.asymmetricImport(algorithm, format, data, namedCurve)`: a handle.
    static func asymmetricImport(_ args: NativeArguments) throws -> ScriptValue? {
        let context = args.context
        let algorithm = context.stringify(args[0])
        let format = context.stringify(args[1])
        let data = try bytes(args[2], context)
        let namedCurve = optionalString(args[3], context)
        let key = try rethrow { () throws(WebCryptoError) in
            try AsymmetricCrypto.importKey(algorithm: algorithm, format: format, data: data, namedCurve: namedCurve)
        }
        return context.makeHostObject(WebCryptoKeyHandle(asymmetric: key))
    }

    /// The JWK members that carry key material, in the order an exported JWK lists them.
    static let jwkMembers = ["kty", "crv", "x", "y", "n", "e", "d", "p", "q", "dp", "dq", "qi"]

    /// `native.asymmetricImportJWK(algorithm, jwk, namedCurve)`: `jwk` an object of the material's
    /// string members (JS has checked kty, use, key_ops, ext and alg).
    static func asymmetricImportJWK(_ args: NativeArguments) throws -> ScriptValue? {
        let context = args.context
        let algorithm = context.stringify(args[0])
        guard let object = context.object(args[1]) else { throw NativeFunctionError("asymmetricImportJWK: expected the JWK's members") }
        var jwk: [String: String] = [:]
        for member in jwkMembers {
            let value = context.get(object, member)
            if !context.isNullish(value) { jwk[member] = context.stringify(value) }
        }
        let namedCurve = optionalString(args[2], context)
        let key = try rethrow { () throws(WebCryptoError) in
            try AsymmetricCrypto.importJWK(algorithm: algorithm, jwk: jwk, namedCurve: namedCurve)
        }
        return context.makeHostObject(WebCryptoKeyHandle(asymmetric: key))
    }

    /// `native.asymmetricExportJWK(handle)`: the material's members, as strings.
    static func asymmetricExportJWK(_ args: NativeArguments) throws -> ScriptValue? {
        let context = args.context
        let key = try asymmetricKey(args[0], context)
        let jwk = try rethrow { () throws(WebCryptoError) in try AsymmetricCrypto.exportJWK(key) }
        let object = context.makeObject()
        for member in jwkMembers {
            if let value = jwk[member] { context.set(object, member, context.string(value)) }
        }
        return object
    }

    /// `native.asymmetricInfo(handle)`: `{ isPrivate, namedCurve, modulusLength, publicExponent }`,
    /// what the key's `type` and `algorithm` show.
    static func asymmetricInfo(_ args: NativeArguments) throws -> ScriptValue? {
        let context = args.context
        let key = try asymmetricKey(args[0], context)
        let object = context.makeObject()
        context.set(object, "isPrivate", context.boolean(key.isPrivate))
        if let namedCurve = key.namedCurve { context.set(object, "namedCurve", context.string(namedCurve)) }
        if let modulusLength = key.modulusLength { context.set(object, "modulusLength", context.number(Double(modulusLength))) }
        if let publicExponent = key.publicExponent { context.set(object, "publicExponent", WebCryptoTask.uint8Array(publicExponent, context)) }
        return object
    }

    /// `native.asymmetricSign(handle, hash, saltLength, data, settle)`.
    static func asymmetricSign(_ args: NativeArguments) throws -> ScriptValue? {
        let context = args.context
        let key = try asymmetricKey(args[0], context)
        let hash = optionalString(args[1], context)
        let saltLength = context.isNullish(args[2]) ? nil : try count(args[2], context)
        let data = try bytes(args[3], context)
        return try WebCryptoTask.run(args, settle: 4, inline: isInline(key, data)) { () throws(WebCryptoError) in
            .bytes(try AsymmetricCrypto.sign(key, hash: hash, saltLength: saltLength, data: data))
        }
    }

    /// `native.asymmetricVerify(handle, hash, saltLength, signature, data, settle)`.
    static func asymmetricVerify(_ args: NativeArguments) throws -> ScriptValue? {
        let context = args.context
        let key = try asymmetricKey(args[0], context)
        let hash = optionalString(args[1], context)
        let saltLength = context.isNullish(args[2]) ? nil : try count(args[2], context)
        let signature = try bytes(args[3], context)
        let data = try bytes(args[4], context)
        return try WebCryptoTask.run(args, settle: 5, inline: isInline(key, data)) { () throws(WebCryptoError) in
            .boolean(try AsymmetricCrypto.verify(key, hash: hash, saltLength: saltLength, signature: signature, data: data))
        }
    }

    /// `native.asymmetricEncrypt(handle, hash, label, data, settle)` and `asymmetricDecrypt`: RSA-OAEP.
    static func asymmetricCipher(_ args: NativeArguments, decrypt: Bool) throws -> ScriptValue? {
        let context = args.context
        let key = try asymmetricKey(args[0], context)
        let hash = context.stringify(args[1])
        let label = context.isNullish(args[2]) ? nil : try bytes(args[2], context)
        let data = try bytes(args[3], context)
        return try WebCryptoTask.run(args, settle: 4, inline: false) { () throws(WebCryptoError) in
            .bytes(decrypt ? try AsymmetricCrypto.decrypt(key, hash: hash, label: label, data: data)
                           : try AsymmetricCrypto.encrypt(key, hash: hash, label: label, data: data))
        }
    }

    /// `native.asymmetricDeriveBits(privateHandle, publicHandle, length, settle)`: ECDH, X25519 and X448;
    /// `length` null for the whole secret.
    static func asymmetricDeriveBits(_ args: NativeArguments) throws -> ScriptValue? {
        let context = args.context
        let privateKey = try asymmetricKey(args[0], context)
        let publicKey = try asymmetricKey(args[1], context)
        let length = context.isNullish(args[2]) ? nil : try count(args[2], context)
        return try WebCryptoTask.run(args, settle: 3, inline: true) { () throws(WebCryptoError) in
            .bytes(try AsymmetricCrypto.deriveBits(privateKey: privateKey, publicKey: publicKey, length: length))
        }
    }

    // MARK: - Arguments

    /// Elliptic-curve work on a small input runs inline; RSA's private-key operations cost
    /// milliseconds and run off the JS thread.
    static func isInline(_ key: AsymmetricKey, _ data: [UInt8]) -> Bool {
        !rsaAlgorithms.contains(key.algorithm) && data.count <= WebCryptoTask.inlineLimit
    }

    static func asymmetricKey(_ value: ScriptValue, _ context: ScriptContext) throws -> AsymmetricKey {
        let handle = try handle(value, context)
        return try rethrow { () throws(WebCryptoError) in try handle.asymmetric(for: "this operation") }
    }

    static func optionalString(_ value: ScriptValue, _ context: ScriptContext) -> String? {
        context.isNullish(value) ? nil : context.stringify(value)
    }

    /// `body`'s WebCryptoError as the NativeFunctionError JS turns into its DOMException.
    static func rethrow<T>(_ body: () throws(WebCryptoError) -> T) throws -> T {
        do { return try body() } catch { throw NativeFunctionError(error.message, name: error.name) }
    }
}
