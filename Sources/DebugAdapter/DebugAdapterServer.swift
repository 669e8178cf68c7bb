import Glibc
import JSON
import SystemIO

/// `hybrid debug-adapter`: a Debug Adapter Protocol server on the standard streams, for editors
/// (VS Code, Neovim's nvim-dap, Helix, Zed). Requests come framed on `input`, responses and
/// events go out on `output`; a `launch` runs `executable run PROGRAM --inspect-brk=0` and
/// debugs it, an `attach` joins an app already started with `--inspect`.
///
/// ```swift
/// await DebugAdapterServer.serve(executable: "/usr/bin/hybrid")   // until `disconnect`
/// ```
public enum DebugAdapterServer {
    /// Serves one session until the editor sends `disconnect` or closes `input`.
    public static func serve(input: Int32 = 0, output: Int32 = 1, executable: String) async {
        let writer = DAPWriter(fd: output)
        let session = DebugSession(writer: writer, executable: executable)
        let (requests, sink) = AsyncStream.makeStream(of: JSONObject.self)
        SpawnedProcess.readAsItArrives(input, chunk: { [reader = Locked(DAPFrameReader())] bytes in
            reader.withLock { reader in
                reader.append(bytes)
                while true {
                    do {
                        guard let message = try reader.next() else { break }
                        if let request = message.objectValue, request["type"]?.stringValue == "request" { sink.yield(request) }
                    } catch {
                        writer.event("output", ["category": "stderr", "output": .string("debug adapter: \(error)\n")])
                    }
                }
            }
        }, end: { sink.finish() })
        var disconnected = false
        for await request in requests {
            if await !session.handle(request) {
                disconnected = true
                break
            }
        }
        if !disconnected { await session.abandon() }
    }
}
