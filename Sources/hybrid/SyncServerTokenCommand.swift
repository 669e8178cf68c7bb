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
            hybrid sync-server token --secret-file FILE --sub alice --scope user:alice --scope team:t1
            signs HS256 with the secret a server runs with --auth-secret-file FILE; --private-key FILE \\
            signs EdDSA with the Ed25519 key whose public half the server has (--auth-public-key).
            """
    )

    @Option(name: .customLong("secret-file"), help: "Sign HS256 with the secret in this file.")
    var secretFile: String?

    @Option(name: .customLong("private-key"), help: "Sign EdDSA with this Ed25519 private key (PEM, as openssl genpkey -algorithm ed25519 writes).")
    var privateKey: String?

    @Option(help: "The user: the token's sub.")
    var sub: String

    @Option(name: .customLong("scope"), help: "A scope the token grants (repeat for more).")
    var scopes: [String] = []

    @Option(name: .customLong("ttl-seconds"), help: "How long the token is valid.")
    var ttlSeconds: Int = 3600

    func validate() throws {
        guard (secretFile == nil) != (privateKey == nil) else { throw ValidationError("expected exactly one of --secret-file FILE or --private-key FILE") }
        guard !sub.isEmpty else { throw ValidationError("--sub: expected the user's id") }
        guard ttlSeconds > 0 else { throw ValidationError("--ttl-seconds: expected a positive number, got \(ttlSeconds)") }
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
