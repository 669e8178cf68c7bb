import Engine

/// What `hybrid run --watch` made of a change to files on disk (``AppSession/reload(_:)``).
public enum ModuleReload: Sendable, Equatable {
    /// None of the files is a module the app has loaded: nothing to do.
    case unchanged
    /// These modules (absolute paths) were swapped in place, their state handed over.
    case swapped([String])
    /// `file` cannot be swapped in place (`reason`: "changed" for the main module and JSON, "did
    /// not call module.hot.accept()", ...); nothing was changed, the app should restart.
    case restart(file: String, reason: String)
    /// `file` does not compile: nothing was changed, the app runs on as it was.
    case invalid(file: String, ScriptError)
    /// A new module threw while evaluating, after the old one's dispose handlers had run: the
    /// app's state is no longer known, so it should restart.
    case threw(ScriptError)
    /// The engine has stopped (the app ended or was shut down).
    case stopped
}
