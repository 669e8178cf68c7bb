import ArgumentParser
import CurlTransport
import Dispatch
import Foundation
import JSON
import SystemIO

/// `--server URL --token T`: where a publisher's command goes and who it is, and the one request
/// each command makes (over CurlTransport), its refusal printed as the server words it.
struct PatchServerOptions: ParsableArguments {
    @Option(help: "The patch server's URL, such as http://127.0.0.1:8790.")
    var server: String

    @Option(help: "A token with scope publish:APP (`hybrid patch-server token`); omit for a server run with --insecure-no-auth.")
    var token: String?

    /// A path segment, percent-encoded.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }

    /// Sends the request and returns its JSON answer; a refusal or a failure becomes a CLIFailure.
    func call(_ method: String, _ path: String, body: JSONValue? = nil) throws -> JSONValue {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        if body != nil { headers.append(("Content-Type", "application/json")) }
        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        let request = TransferRequest(url: base + path, method: method, headers: headers, body: body.map { Array(JSONWriter.write($0).utf8) },
                                      timeoutMs: 60_000)
        let result = Locked<Result<TransferResponse, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task {
            do {
                result.value = .success(try await CurlClient.shared.perform(request))
            } catch {
                result.value = .failure(error)
            }
            finished.signal()
        }
        finished.wait()
        switch result.value {
        case .success(let response):
            let answer = (try? JSONParser.parse(response.body)) ?? .null
            guard (200..<300).contains(response.status) else {
                let message = answer["error"]?["message"]?.stringValue ?? String(decoding: response.body, as: UTF8.self)
                throw CLIFailure(message: "\(method) \(path): \(response.status): \(message)", code: 1)
            }
            return answer
        case .failure(let error):
            throw CLIFailure(message: "--server: \(server): \((error as? TransferError)?.message ?? String(describing: error))", code: 1)
        case nil:
            throw CLIFailure(message: "--server: \(server): no answer", code: 1)
        }
    }
}
