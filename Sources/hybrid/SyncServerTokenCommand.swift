import ArgumentParser
import Foundation
import SyncAuth
import SystemIO

/// `hybrid sync-server token`: prints a signed token, as the app's auth server would issue one.
struct SyncServerTokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a signed JSON Web Token for a user and its scopes (for demos, tests and operators).",
        discussion: """
            hybrid sync-server token --secret-file FILE --sub alice --scope user:alice --scope team:t1 \
            signs HS256 with the secret a server runs with --auth-secret-file FILE; with --private-key FILE \
            it signs EdDSA with the Ed25519 key whose public half the server has (--auth-public-key).
            """
    )

    @Option(name: .customLong("secret-file"), help: "Sign HS256 with the secret in this file.")
    var secretFile: String?

    @Option(name: .customLong("private-key"), help: "Sign EdDSA with this Ed25519 private key (PEM, as openssl genpkey -algorithm ed25519 writes).")
    var privateKey: String?

    @Option(help: "The user: the token's sub (no control characters).")
    var sub: String

    @Option(name: .customLong("scope"), help: "A scope the token grants, byte for byte (repeat for more; no control characters).")
    var scopes: [String] = []

    @Option(name: .customLong("ttl-seconds"), help: "How long the token is valid, in seconds: 1 to 315360000 (10 years).")
    var ttlSeconds: Int = 3600

    /// The longest --ttl-seconds: 10 years of 365 days. A token cannot be revoked, only its key
    /// rotated, so one that outlives that is a mistake; and the bound keeps now + ttl far inside
    /// the times a verifier accepts (TokenClaims.timeRange, up to the year 9999) and Int64.
    static let maximumTTLSeconds = 10 * 365 * 24 * 60 * 60

    func validate() throws {
        guard (secretFile == nil) != (privateKey == nil) else { throw ValidationError("expected exactly one of --secret-file FILE or --private-key FILE") }
        guard !sub.isEmpty else { throw ValidationError("--sub: expected the user's id") }
        // Refused here as the verifier would refuse them, rather than minting a token no server takes.
        if let problem = TokenClaims.controlCharacterProblem(in: sub) { throw ValidationError("--sub: \(problem)") }
        for scope in scopes {
            guard !scope.isEmpty else { throw ValidationError("--scope: expected a non-empty scope, got an empty string") }
            // debugDescription shows a control character as an escape (\n, \u{85}), not as itself.
            if let problem = TokenClaims.controlCharacterProblem(in: scope) { throw ValidationError("--scope \(scope.debugDescription): \(problem)") }
        }
        guard (1...Self.maximumTTLSeconds).contains(ttlSeconds) else {
            throw ValidationError("--ttl-seconds: expected a number of seconds from 1 to \(Self.maximumTTLSeconds) (10 years), got \(ttlSeconds)")
        }
    }

    func run() throws {
        let signer: TokenSigner
        do {
            signer = try secretFile.map { try TokenSigner(secretFile: $0) } ?? TokenSigner(privateKeyFile: privateKey!)
        } catch let error as TokenError {
            throw CLIFailure(message: "sync-server token: \(secretFile != nil ? "--secret-file" : "--private-key"): \(error.message)", code: 2)
        }
        let now = Int64(Date().timeIntervalSince1970)
        let token = signer.sign(TokenClaims(subject: sub, scopes: scopes, expiresAt: now + Int64(ttlSeconds), issuedAt: now))
        StandardStreams.write(token + "\n", to: 1)
    }
}
