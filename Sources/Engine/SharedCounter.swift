import CJavaScriptCore

/// A 32-bit counter that native code bumps and JS reads as memory, without a bridge call: how a
/// service lets its JS client notice a change (a commit, say) when only JS may call. JS sees it as
/// element 0 of a one-element `Uint32Array` over the same word (``ScriptContext/view(of:)``).
///
/// ```swift
/// let commits = SharedCounter()
/// commits.increment()          // on a writer thread, after the commit is visible
/// context.view(of: commits)    // on the JS thread: a Uint32Array whose [0] is now 1
/// ```
///
/// Bump it only after the change it announces is visible to readers: a JS client that sees the new
/// value must not read the old state. It wraps at 2³², so compare values for equality only.
// @unchecked: `word` is immutable, and the UInt32 it points to is only accessed atomically (hh_word_load / hh_word_increment / hh_word_store, and JS through the typed array).
public final class SharedCounter: @unchecked Sendable {
    let word: UnsafeMutablePointer<UInt32>

    public init() {
        word = .allocate(capacity: 1)
        word.initialize(to: 0)
    }

    deinit { word.deallocate() }

    public var value: UInt32 { hh_word_load(word) }

    /// Adds one, atomically: two writers bumping at once both count.
    public func increment() { hh_word_increment(word) }

    /// Sets the word outright: for a flag rather than a count (``ScriptContext``'s params guard).
    public func store(_ value: UInt32) { hh_word_store(word, value) }
}

extension ScriptContext {
    /// A `Uint32Array` of length 1 over `counter`'s word. The array keeps the counter alive.
    public func view(of counter: SharedCounter) -> JSObjectRef? {
        let retained = Unmanaged.passRetained(counter).toOpaque()
        let array = JSObjectMakeTypedArrayWithBytesNoCopy(ref, kJSTypedArrayTypeUint32Array, counter.word, 4, { _, context in
            Unmanaged<SharedCounter>.fromOpaque(context!).release()
        }, retained, nil)
        if array == nil { Unmanaged<SharedCounter>.fromOpaque(retained).release() }
        return array
    }
}
