import ArgumentParser
import JSON
import PatchProtocol
import SystemIO

/// `hybrid patch publish | rollout | halt | resume | revoke | status`: a publisher's commands
/// against a patch server (`hybrid patch-server`), each with --server and --token.
extension PatchCommand {
    struct Publish: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publish a signed patch to a patch server's channel, to a share of its devices.",
            discussion: "hybrid patch publish report-2.signed.json --server http://127.0.0.1:8790 --token \"$T\" --channel production --rollout 10"
        )

        @Argument(help: "The signed patch (`hybrid patch sign` wrote it).")
        var file: String

        @Option(help: "The channel, such as production or beta.")
        var channel: String

        @Option(help: "Percent of the channel's devices offered the patch: 0.01 to 100.")
        var rollout: Double = 100

        @Option(name: .customLong("halt-above"), help: "Halt the patch when its rollback rate's lower bound (Wilson, 95%) exceeds this percent.")
        var haltAbove: Double = 2

        @Option(name: .customLong("min-devices"), help: "Devices that must have applied the patch before the server may halt it.")
        var minDevices: Int = 20

        @OptionGroup var server: PatchServerOptions

        func validate() throws {
            guard rollout >= 0.01, rollout <= 100 else { throw ValidationError("--rollout: expected a percentage from 0.01 to 100, got \(rollout)") }
            guard haltAbove >= 0, haltAbove <= 100 else { throw ValidationError("--halt-above: expected a percentage from 0 to 100, got \(haltAbove)") }
            guard minDevices >= 1 else { throw ValidationError("--min-devices: expected a positive number, got \(minDevices)") }
        }

        func run() throws {
            let text: String
            do {
                text = try FileSystem.text(atPath: file)
            } catch {
                throw CLIFailure(message: "FILE: cannot read \(file): \(error.reason)", code: 2)
            }
            let patch: SignedPatch
            let json: JSONValue
            do {
                json = try JSONParser.parse(text)
                patch = try SignedPatch(json: json, file: file)
            } catch {
                throw CLIFailure(message: "\(file): not a signed patch: \(error)", code: 1)
            }
            let app = patch.manifest.app
            let answer = try server.call("POST", "/v1/apps/\(PatchServerOptions.segment(app))/patches",
                                         body: ["patch": json, "channel": .string(channel), "rollout": .number(rollout),
                                                "haltAbove": .number(haltAbove), "minDevices": .number(Double(minDevices))])
            print("\(app) patch \(patch.manifest.patchVersion): published to \(channel) at \(PatchStatusTable.percent(answer["rollout"]?.numberValue ?? rollout))%")
        }
    }

    struct Rollout: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change the share of devices a published patch is offered to (raising it keeps every device already in).")

        @Argument(help: "The app.") var app: String
        @Argument(help: "The patch version.") var version: Int
        @Option(help: "Percent of the channel's devices: 0.01 to 100.") var percent: Double
        @OptionGroup var server: PatchServerOptions

        func run() throws {
            let answer = try server.call("POST", PatchStatusTable.path(app, version, "rollout"), body: ["percent": .number(percent)])
            print("\(app) patch \(version): rollout \(PatchStatusTable.percent(answer["rollout"]?.numberValue ?? percent))%")
        }
    }

    struct Halt: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop offering a patch (devices already on it keep it).")

        @Argument(help: "The app.") var app: String
        @Argument(help: "The patch version.") var version: Int
        @Option(help: "Why, for the audit log and `patch status`.") var reason: String?
        @OptionGroup var server: PatchServerOptions

        func run() throws {
            let body: JSONValue = reason.map { JSONValue.object(["reason": .string($0)]) } ?? JSONValue.object([:])
            _ = try server.call("POST", PatchStatusTable.path(app, version, "halt"), body: body)
            print("\(app) patch \(version): halted")
        }
    }

    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Offer a halted patch again, at its rollout.")

        @Argument(help: "The app.") var app: String
        @Argument(help: "The patch version.") var version: Int
        @OptionGroup var server: PatchServerOptions

        func run() throws {
            _ = try server.call("POST", PatchStatusTable.path(app, version, "resume"), body: [:])
            print("\(app) patch \(version): resumed")
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a patch: signed here with the patch key, devices roll it back at their next check.",
            discussion: "hybrid patch revoke demo 3 --key patch.key --reason \"totals wrong\" --server http://127.0.0.1:8790 --token \"$T\""
        )

        @Argument(help: "The app.") var app: String
        @Argument(help: "The patch version.") var version: Int
        @Option(help: "The private key file `hybrid patch keygen` wrote (the patch's signer).") var key: String
        @Option(help: "Why: devices record it.") var reason: String
        @OptionGroup var server: PatchServerOptions

        func run() throws {
            let privateKey: String
            do {
                privateKey = try FileSystem.text(atPath: key)
            } catch {
                throw CLIFailure(message: "--key: cannot read \(key): \(error.reason)", code: 2)
            }
            let revocation: PatchRevocation
            do {
                revocation = try PatchRevocation.sign(app: app, patchVersion: version, reason: reason, privateKey: privateKey)
            } catch {
                throw CLIFailure(message: "--key: \(error.message)", code: 2)
            }
            _ = try server.call("POST", PatchStatusTable.path(app, version, "revoke"), body: ["revocation": revocation.jsonValue])
            print("\(app) patch \(version): revoked (\(reason))")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show an app's patches on a patch server: rollout, state, funnel, rollback reasons, why halted.")

        @Argument(help: "The app.") var app: String
        @OptionGroup var server: PatchServerOptions

        func run() throws {
            let answer = try server.call("GET", "/v1/apps/\(PatchServerOptions.segment(app))/status")
            print(PatchStatusTable.render(answer), terminator: "")
        }
    }
}

/// `hybrid patch status`'s table.
enum PatchStatusTable {
    static func path(_ app: String, _ version: Int, _ action: String) -> String {
        "/v1/apps/\(PatchServerOptions.segment(app))/patches/\(version)/\(action)"
    }

    static func percent(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    static func render(_ answer: JSONValue) -> String {
        let patches = answer["patches"]?.arrayValue ?? []
        guard !patches.isEmpty else { return "no patches\n" }
        let header = ["PATCH", "BASE", "CHANNEL", "ROLLOUT", "STATE", "OFFERED", "DOWNLOADED", "APPLIED", "CONFIRMED", "ROLLED BACK"]
        var rows = [header]
        var notes: [String] = []
        for patch in patches {
            let funnel = patch["funnel"]
            let count = { (name: String) in String(funnel?[name]?.intValue ?? 0) }
            let version = patch["patchVersion"]?.intValue ?? 0
            rows.append([String(version), patch["baseVersion"]?.stringValue ?? "", patch["channel"]?.stringValue ?? "",
                         percent(patch["rollout"]?.numberValue ?? 0) + "%", patch["state"]?.stringValue ?? "",
                         count("offered"), count("downloaded"), count("applied"), count("confirmed"), count("rolledBack")])
            if let reason = patch["haltReason"]?.stringValue {
                notes.append("patch \(version) halted by \(patch["haltedBy"]?.stringValue ?? "?"): \(reason)")
            }
            if case .object(let reasons)? = funnel?["reasons"], !reasons.isEmpty {
                let listed = reasons.map { "\($0.key) (\($0.value.intValue ?? 0))" }.joined(separator: ", ")
                notes.append("patch \(version) rollbacks: \(listed)")
            }
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = ""
        for row in rows {
            text += row.enumerated().map { $0.element + String(repeating: " ", count: widths[$0.offset] - $0.element.count) }
                .joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }
        for note in notes { text += note + "\n" }
        return text
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
