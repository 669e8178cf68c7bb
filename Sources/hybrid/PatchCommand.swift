import ArgumentParser
import Glibc
import HybridHost
import JSON
import PatchProtocol
import Patches
import SystemIO

/// `hybrid patch`: keys, signing, and the patch lifecycle of an app kept in its data dir.
struct PatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patch",
        abstract: "Sign, verify and apply hot patches of an app's JS modules, list them, roll them back.",
        discussion: """
            A patch is a JSON file: {app, patchVersion, baseVersion, expires?, modules: {NAME: \
            {mode, source}}}, signed with Ed25519 by a key in app.json's patchKeys (README.md, \
            "Patches", has the format). A running app picks up patches dropped into \
            <data dir>/patches/; `apply` makes a patch the one the next run starts on. An applied \
            patch is rolled back unless the app confirms it (patch.ready).
            """,
        subcommands: [Keygen.self, Sign.self, Verify.self, Apply.self, List.self, Rollback.self,
                      Publish.self, Rollout.self, Halt.self, Resume.self, Revoke.self, Status.self]
    )

    struct Keygen: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make an Ed25519 key pair: the private key goes to FILE, the public key (for app.json patchKeys) to stdout."
        )

        @Option(name: .shortAndLong, help: "Where to write the private key (base64, mode 0600). Refuses to overwrite.")
        var out: String

        func run() throws {
            guard FileSystem.kind(of: out) == .missing else {
                throw CLIFailure(message: "--out: \(out) exists; refusing to overwrite a key", code: 2)
            }
            let key = PatchSigner.generateKey()
            try write(key.privateKey + "\n", to: out, mode: 0o600)
            print(key.publicKey)
        }
    }

    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign a patch: hashes each module's source and signs the canonical manifest.",
            discussion: """
                PATCH is {app, patchVersion, baseVersion, expires?, modules: {NAME: {mode, \
                source}}}: app and baseVersion are app.json's name and version, patchVersion an \
                integer above every patch the app has had, expires an ISO 8601 UTC time, NAME a \
                module's path in the app folder, mode "amend" (the source's exported functions \
                replace the module's) or "replace" (the module is evaluated again, for one that \
                calls module.hot.accept()). A module may give "file" (a path relative to PATCH) \
                instead of "source". TypeScript and ES modules are transformed before they are \
                signed. Prints the signed patch, or writes it with --output.
                """
        )

        @Option(name: .long, help: "The private key file `hybrid patch keygen` wrote.")
        var key: String

        @Option(name: .shortAndLong, help: "Write the signed patch here instead of stdout.")
        var output: String?

        @Argument(help: "The unsigned patch (JSON).")
        var patch: String

        func run() throws {
            let privateKey = try read(key, what: "--key")
            let text = try read(patch, what: "PATCH")
            let json: JSONValue
            do {
                json = try JSONParser.parse(text)
            } catch {
                throw CLIFailure(message: "\(patch): not JSON: \(error)", code: 1)
            }
            let base = FileSystem.directory(of: FileSystem.absolute(patch))
            let signed: SignedPatch
            do {
                signed = try PatchSigner.sign(json, privateKey: privateKey, file: patch) { path in
                    try FileSystem.text(atPath: path.hasPrefix("/") ? path : base + "/" + path)
                }
            } catch {
                throw CLIFailure(message: error.message, code: 1)
            }
            if let output {
                try write(signed.text, to: output, mode: 0o644)
            } else {
                print(signed.text, terminator: "")
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a signed patch against an app without applying it: key, signature, hashes, versions, expiry, syntax."
        )

        @OptionGroup var app: AppLocation

        @Argument(help: "The signed patch.")
        var patch: String

        func run() throws {
            let (trust, dataDirectory) = try app.resolve()
            let signed = try loadPatch(patch)
            do {
                try PatchInstaller.check(signed, trust: trust, dataDirectory: dataDirectory)
            } catch {
                throw CLIFailure(message: "\(patch): refused (\(error.code.rawValue)): \(error.message)", code: 1)
            }
            let modules = signed.manifest.modules.keys.sorted().map { "\($0) (\(signed.manifest.modules[$0]!.mode.rawValue))" }
            print("\(patch): ok: patch \(signed.manifest.patchVersion) for \(trust.app) \(trust.appVersion), modules \(modules.joined(separator: ", "))")
        }
    }

    struct Apply: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify a patch and make it the one the app's next run starts on.",
            discussion: """
                The patch is `applied` until the app calls patch.ready; a run that ends without \
                confirming it rolls it back at the next start. To patch a running app, copy the \
                file into <data dir>/patches/ instead.
                """
        )

        @OptionGroup var app: AppLocation

        @Argument(help: "The signed patch.")
        var patch: String

        func run() throws {
            let (trust, dataDirectory) = try app.resolve()
            let signed = try loadPatch(patch)
            do {
                try PatchInstaller.install(signed, trust: trust, dataDirectory: dataDirectory)
            } catch {
                throw CLIFailure(message: "\(patch): refused (\(error.code.rawValue)): \(error.message)", code: 1)
            }
            print("patch \(signed.manifest.patchVersion) applied to \(trust.app) in \(dataDirectory): the next run starts on it")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the app's patch history, newest first, with rollback reasons.")

        @OptionGroup var app: AppLocation

        func run() throws {
            let (trust, dataDirectory) = try app.resolve()
            let ledger: PatchLedger
            do {
                ledger = try PatchLedger.load(dataDirectory: dataDirectory)
            } catch {
                throw CLIFailure(message: error.message, code: 1)
            }
            print("\(trust.app) \(trust.appVersion): \(ledger.current.map { "patch \($0) in effect" } ?? "shipped code"), highest version seen \(ledger.highestVersion)")
            for record in ledger.records.reversed() {
                let marker = record.patchVersion == ledger.current ? "*" : " "
                var line = "\(marker) \(String(record.patchVersion).leftPadded(to: 5))  \(record.state.rawValue.padded(to: 10))  \(record.at)  \(record.modules.joined(separator: ", "))"
                if let reason = record.reason { line += "\n         reason: \(reason)" }
                print(line)
            }
        }
    }

    struct Rollback: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Roll the patch in effect back to the last confirmed one kept, or to the shipped code."
        )

        @OptionGroup var app: AppLocation

        @Option(help: "Why, recorded in the history.")
        var reason: String = "rolled back by hand (hybrid patch rollback)"

        func run() throws {
            let (_, dataDirectory) = try app.resolve()
            do {
                let (from, to) = try PatchInstaller.rollBack(dataDirectory: dataDirectory, reason: reason)
                print("patch \(from) rolled back; \(to.map { "patch \($0)" } ?? "the shipped code") is in effect")
            } catch {
                throw CLIFailure(message: error.message, code: 1)
            }
        }
    }
}

/// The app folder and its data dir, shared by the subcommands that act on an app.
struct AppLocation: ParsableArguments {
    @Argument(help: "The app folder (with app.json and its patchKeys).")
    var appDirectory: String

    @Option(name: .customLong("data-dir"), help: "The app's data dir (default: $XDG_DATA_HOME/hybridhost/<app name>).")
    var dataDirectory: String?

    func resolve() throws -> (PatchTrust, String) {
        let manifest: AppManifest
        do {
            manifest = try AppManifest.load(path: appDirectory, grantFlags: [])
        } catch {
            throw CLIFailure(message: error.message, code: 1)
        }
        let trust = PatchTrust(app: manifest.name, appVersion: manifest.version, keys: manifest.patchKeys, appDirectory: manifest.directory)
        let data: String
        if let dataDirectory {
            data = FileSystem.absolute(dataDirectory)
        } else if let xdg = ProcessEnvironment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            data = "\(xdg)/hybridhost/\(manifest.name)"
        } else {
            data = "\(ProcessEnvironment["HOME"] ?? "/tmp")/.local/share/hybridhost/\(manifest.name)"
        }
        return (trust, data)
    }
}

private func loadPatch(_ path: String) throws -> SignedPatch {
    let text = try read(path, what: "PATCH")
    do {
        return try SignedPatch.parse(text, file: path)
    } catch {
        throw CLIFailure(message: "\(path): refused (\(error.code.rawValue)): \(error.message)", code: 1)
    }
}

private func read(_ path: String, what: String) throws -> String {
    do {
        return try FileSystem.text(atPath: path)
    } catch {
        throw CLIFailure(message: "\(what): cannot read \(path): \(error.reason)", code: 2)
    }
}

private func write(_ text: String, to path: String, mode: mode_t) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode)
    guard fd >= 0 else { throw CLIFailure(message: "cannot write \(path): \(String(cString: strerror(errno)))", code: 1) }
    defer { close(fd) }
    var text = text
    let ok = text.withUTF8 { Glibc.write(fd, $0.baseAddress, $0.count) == $0.count }
    guard ok else { throw CLIFailure(message: "cannot write \(path): \(String(cString: strerror(errno)))", code: 1) }
}

private extension String {
    func padded(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
