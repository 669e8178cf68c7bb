import Engine
import InspectorHub

/// `hybrid test --inspect` / `--inspect-brk`: one hub for the whole run, each test file's context
/// one of its targets in turn (``InspectorHubOptions/servesSeveralTargets``). The files run one
/// after another, each on a JS thread of its own, all served by the process's one remote inspector.
public struct TestInspector: Sendable {
    /// Where the debugger attaches (``InspectorHub/frontendURL``).
    public let hub: InspectorHub
    /// The engine of the file running now, which the hub wakes after each message.
    let slot: EngineSlot

    public static func start(_ inspect: InspectOptions) throws(AppLoadError) -> TestInspector {
        do {
            try RemoteInspection.check()
        } catch {
            throw AppLoadError("--inspect: \(error)")
        }
        let slot = EngineSlot()
        let options = InspectorHubOptions(port: inspect.port, targetName: "", breakOnStart: inspect.breakOnStart) { slot.get()?.serveInspector() }
        var several = options
        several.servesSeveralTargets = true
        do {
            return TestInspector(hub: try InspectorHub.start(several), slot: slot)
        } catch {
            throw AppLoadError(error.description)
        }
    }

    /// The target's name for a test file: how the hub tells its context, and the debugger's title.
    static func targetName(file: String) -> String {
        "hybrid test: \(file)"
    }
}
