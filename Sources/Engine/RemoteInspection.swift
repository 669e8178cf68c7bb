import CJavaScriptCore
import Glibc
import Synchronization

/// The engine's side of `hybrid run --inspect`: JavaScriptCore's remote inspector, started in this
/// process and pointed at a hub (the host's own, `InspectorHub`).
///
/// WebKitGTK starts it only from libwebkit2gtk; in a process that loads JavaScriptCore alone it
/// takes three exported C++ functions that no installed header declares, found here by their
/// mangled names: `WTF::initializeMainThread()`, `WTF::CString::CString(const char*)` and
/// `Inspector::RemoteInspector::setInspectorServerAddress(WTF::CString&&)`, then
/// `RemoteInspector::singleton().start()`. Its socket is served by GLib's default main context,
/// which the JS thread iterates (``pump()``); while the debugger holds the app paused,
/// JavaScriptCore iterates it itself.
public struct InspectionSettings: Sendable {
    /// `127.0.0.1:PORT`, where the hub waits for JavaScriptCore's connection.
    public var hubAddress: String
    /// The context's name in the hub's target list: how the hub tells it from any other.
    public var contextName: String

    public init(hubAddress: String, contextName: String) {
        self.hubAddress = hubAddress
        self.contextName = contextName
    }
}

public enum RemoteInspection {
    private typealias Function = @convention(c) () -> Void
    private typealias CStringMaker = @convention(c) (UnsafeMutableRawPointer, UnsafePointer<CChar>) -> Void
    private typealias AddressSetter = @convention(c) (UnsafeMutableRawPointer) -> Void
    private typealias Singleton = @convention(c) () -> UnsafeMutableRawPointer?
    private typealias Start = @convention(c) (UnsafeMutableRawPointer) -> Void

    // @unchecked: immutable, five C function pointers into the loaded library, set once.
    private struct Symbols: @unchecked Sendable {
        let initializeMainThread: Function
        let makeCString: CStringMaker
        let setAddress: AddressSetter
        let singleton: Singleton
        let start: Start
    }

    private static let names = [
        "_ZN3WTF20initializeMainThreadEv",
        "_ZN3WTF7CStringC1EPKc",
        "_ZN9Inspector15RemoteInspector25setInspectorServerAddressEON3WTF7CStringE",
        "_ZN9Inspector15RemoteInspector9singletonEv",
        "_ZN9Inspector15RemoteInspector5startEv",
    ]

    private static let symbols: Result<Symbols, RemoteInspectionError> = {
        guard let library = dlopen("libjavascriptcoregtk-4.1.so.0", RTLD_NOW | RTLD_NOLOAD) ?? dlopen("libjavascriptcoregtk-4.1.so.0", RTLD_NOW) else {
            return .failure(RemoteInspectionError("libjavascriptcoregtk-4.1.so.0 cannot be opened"))
        }
        var found: [UnsafeMutableRawPointer] = []
        for name in names {
            guard let symbol = dlsym(library, name) else {
                return .failure(RemoteInspectionError("this JavaScriptCore (WebKitGTK \(jsc_get_major_version()).x) does not export \(name), which the inspector needs"))
            }
            found.append(symbol)
        }
        return .success(Symbols(initializeMainThread: unsafeBitCast(found[0], to: Function.self),
                                makeCString: unsafeBitCast(found[1], to: CStringMaker.self),
                                setAddress: unsafeBitCast(found[2], to: AddressSetter.self),
                                singleton: unsafeBitCast(found[3], to: Singleton.self),
                                start: unsafeBitCast(found[4], to: Start.self)))
    }()

    /// Whether this JavaScriptCore can be inspected; the reason when it cannot.
    public static func check() throws(RemoteInspectionError) {
        if case .failure(let error) = symbols { throw error }
    }

    /// The hub the process's remote inspector connects to: set by the first inspected engine.
    private static let startedAddress = Mutex<String?>(nil)

    /// On the JS thread, before its first context: makes GLib's default main context this thread's
    /// (``adoptDefaultContext()``), then, once per process, points the remote inspector at the hub.
    /// Every later inspected engine of the process (`hybrid test`'s files, one after another) is
    /// served by the same connection, so its hub must be the same.
    static func start(_ settings: InspectionSettings) {
        guard case .success(let symbols) = symbols else { return }
        adoptDefaultContext()
        let first = startedAddress.withLock { started in
            defer { if started == nil { started = settings.hubAddress } }
            return started == nil
        }
        guard first else { return }
        symbols.initializeMainThread()
        // A WTF::CString is one pointer (to its buffer); setInspectorServerAddress moves it.
        let cString = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
        cString.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        settings.hubAddress.withCString { symbols.makeCString(cString, $0) }
        symbols.setAddress(cString)
        if let inspector = symbols.singleton() { symbols.start(inspector) }
    }

    /// JavaScriptCore's paused loop, and the sockets of its remote inspector, iterate the calling
    /// thread's `RunLoop`: GLib's default main context on WTF's main thread (the first inspected
    /// JS thread), a private one nothing wakes on any other. Pushed as this thread's default, the
    /// default context is every inspected JS thread's, so a later `hybrid test` file pauses and
    /// resumes as the first does. Owning it is exclusive: the previous file's thread gives it up
    /// (``releaseDefaultContext()``) as it ends, and the next waits for that.
    private static func adoptDefaultContext() {
        let context = g_main_context_default()
        while g_main_context_acquire(context) == 0 { usleep(1000) }
        g_main_context_push_thread_default(context)
        g_main_context_release(context)
    }

    /// At the end of an inspected JS thread: the default context is free for the next one.
    static func releaseDefaultContext() {
        g_main_context_pop_thread_default(g_main_context_default())
    }

    /// Serves the inspector's socket: whatever is ready now, without waiting.
    static func pump() {
        while g_main_context_iteration(nil, 0) != 0 {}
    }

    /// Serves it until `done()`, sleeping in GLib's poll in between; ``wake()`` ends a wait.
    static func pump(until done: () -> Bool) {
        while !done() { _ = g_main_context_iteration(nil, 1) }
    }

    /// From any thread: a JS thread in ``pump(until:)`` looks again.
    public static func wake() {
        g_main_context_wakeup(nil)
    }
}

public struct RemoteInspectionError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
