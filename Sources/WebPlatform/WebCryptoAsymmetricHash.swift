import Crypto

/// What the asymmetric algorithms need of the hashes: swift-crypto's signers take a `Digest` of a
/// static type, so an operation over "any of the four" is an `AsymmetricDigestConsumer`, handed
/// the digest of the hash named at run time.
extension WebCryptoHash {
    /// The hash an asymmetric operation names (ECDSA's, RSA's), with an error that names the algorithm.
    init(named name: String?, for algorithm: String) throws(WebCryptoError) {
        guard let name, let hash = WebCryptoHash(rawValue: name) else {
            throw .notSupported("\(algorithm): expected the hash SHA-1, SHA-256, SHA-384 or SHA-512, got \(name ?? "none")")
        }
        self = hash
    }

    /// `consumer` run over the digest of `data`.
    func digest<Consumer: AsymmetricDigestConsumer>(_ data: [UInt8], into consumer: Consumer) throws -> Consumer.Output {
        switch self {
        case .sha1: try consumer.consume(Insecure.SHA1.hash(data: data))
        case .sha256: try consumer.consume(SHA256.hash(data: data))
        case .sha384: try consumer.consume(SHA384.hash(data: data))
        case .sha512: try consumer.consume(SHA512.hash(data: data))
        }
    }
}

/// An operation over a digest of any hash function (see `WebCryptoHash.digest(_:into:)`).
protocol AsymmetricDigestConsumer {
    associatedtype Output
    func consume<D: Digest>(_ digest: D) throws -> Output
}
